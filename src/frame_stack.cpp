// Slow paths of the frame stack: new stacklets, retirement, reclamation, heap blocks, the peak.
#include "locus/detail/frame_stack.hpp"

#include <algorithm>
#include <cstdlib>
#include <new>
#include <utility>

namespace locus::detail {

stacklet* frame_stack::new_stacklet() {
  void* mem = std::aligned_alloc(k_stacklet_bytes, k_stacklet_bytes);
  if (mem == nullptr) throw std::bad_alloc();
  auto* s = new (mem) stacklet();
  s->owner = this;
  m_owned.store(m_owned.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  s->top.store(s->base(), std::memory_order_relaxed);
  s->hwm.store(s->base(), std::memory_order_relaxed);
  s->end = static_cast<char*>(mem) + k_stacklet_bytes;
  asan_poison(s->base(), static_cast<std::size_t>(s->end - s->base()));
  return s;
}

namespace {
void free_stacklet(stacklet* s) noexcept {
  asan_unpoison(s, k_stacklet_bytes);  // back to the allocator as it came
  s->~stacklet();
  std::free(s);
}
}  // namespace

// In the body, not the initializer list: new_stacklet() counts into m_owned, declared later.
frame_stack::frame_stack() {
  m_current.store(new_stacklet(), std::memory_order_relaxed);
}

frame_stack::~frame_stack() {
  // By the time a runtime shuts down every frame has been destroyed: frames are owned by
  // tasks, futures or finish scopes that complete inside run(). Free all stacklets.
  free_stacklet(m_current.load(std::memory_order_relaxed));
  while (m_spares != nullptr)
    free_stacklet(std::exchange(m_spares, m_spares->next_spare));
  for (stacklet* s : m_retired)
    free_stacklet(s);
}

namespace {
/// A block's size from its header. Not instrumented by ASan: a block another thread freed is
/// poisoned, header and all (free_remote), and the walk below steps over it. Its header is
/// written once, by the owner's allocate, and read-only after that. The word is read here, not
/// through block_header::bytes(), which is a function of its own that ASan instruments (at -O1
/// it is not inlined into this one).
#if defined(__clang__) || defined(__GNUC__)
[[gnu::no_sanitize_address]]
#endif
std::size_t
header_bytes(const char* p) noexcept {
  return reinterpret_cast<const block_header*>(p)->word;  // a stacklet block: no heap bit
}
}  // namespace

void frame_stack::count_blocks(stacklet* s) noexcept {
  // Uncounted: the owner made no hole since the stacklet was switched to, so each block in
  // [base, top) is one it allocated and has not freed (other threads' frees are in `remote`,
  // which the invariant adds). The blocks are contiguous: allocate bumps top by the size it
  // writes in the header, and a free on top lowers top to the block's start.
  std::int64_t n = 0;
  const char* const top = s->top.load(std::memory_order_relaxed);
  for (const char* p = s->base(); p < top; p += header_bytes(p))
    ++n;
  s->local_live = n;
  s->counted = true;
}

void frame_stack::free_hole(stacklet* s) noexcept {
  if (!s->counted) count_blocks(s);
  --s->local_live;
  if (s->local_live + s->remote.load(std::memory_order_acquire) == 0)
    s->top.store(s->base(), std::memory_order_relaxed);  // everything freed: drop the holes
}

void frame_stack::switch_to(stacklet* s) noexcept {
  // No live frame is left on `s`: every free poisoned its block already; poison it all again
  // so that the free space is poisoned whatever happened to it.
  asan_poison(s->base(), static_cast<std::size_t>(s->end - s->base()));
  s->top.store(s->base(), std::memory_order_relaxed);
  s->hwm.store(s->base(), std::memory_order_relaxed);
  // Both halves of the count restart at zero. `remote` may be negative (frames the owner made
  // that others freed, balanced by local_live); with no live frame nobody can free one of its
  // blocks concurrently, so a plain store is safe. Leaving it negative (as this did before)
  // made a later local_live + remote reach 0 while frames still lived, and the next free
  // dropped the top onto them (found twice: by the pop-back tests and, as a 1-in-3 ASan
  // report, by the dataflow layer's 10^6-task chain).
  s->remote.store(0, std::memory_order_relaxed);
  s->local_live = 0;
  s->counted = false;  // empty: no hole (see "Counted after a hole")
  // release: a reader of m_current (held_bytes) also sees m_retired_bytes as of this switch.
  m_current.store(s, std::memory_order_release);
}

void* frame_stack::allocate_slow(std::size_t total) {
  // Too big for any stacklet, or the stand-in of a thread that is not a worker (it owns no
  // stacklet): the global heap, flagged so deallocation finds its way back.
  if (total > k_stacklet_bytes - 4 * k_block_header ||
      m_owned.load(std::memory_order_relaxed) == 0) {
    return heap_block_allocate(total - k_block_header);
  }
  fold_peak();
  stacklet* s = m_current.load(std::memory_order_relaxed);
  if (local_live_of(s) + s->remote.load(std::memory_order_acquire) == 0) {
    switch_to(s);  // the stacklet is full of holes only: reuse it in place
  } else {
    // Retire: fold the owner's count into `remote`, which from now on is the live count.
    const std::int64_t live =
        s->remote.fetch_add(s->local_live, std::memory_order_acq_rel) + s->local_live;
    s->local_live = 0;
    stacklet* next = nullptr;
    if (live == 0) {
      next = s;  // the last live frame was freed remotely meanwhile
      s->remote.store(0, std::memory_order_relaxed);
    } else {
      retire(s);
      std::size_t retired = m_retired_bytes.load(std::memory_order_relaxed) + k_stacklet_bytes;
      // A spare first (left by a pop-back: empty; O(1), so a path oscillating across a
      // boundary pays no scan), else a retired stacklet whose frames have all been freed, else
      // a new one.
      if (m_spares != nullptr) {
        next = std::exchange(m_spares, m_spares->next_spare);
      } else {
        for (stacklet* r : m_retired) {
          if (r->remote.load(std::memory_order_acquire) == 0) {
            unretire(r);
            retired -= k_stacklet_bytes;
            next = r;
            break;
          }
        }
      }
      // Before the switch (see switch_to): a reader may over-count, never under-count.
      m_retired_bytes.store(retired, std::memory_order_relaxed);
      if (next == nullptr) next = new_stacklet();
    }
    switch_to(next);
  }
  return allocate(total - k_block_header);
}

void frame_stack::deallocate_other(block_header* h) noexcept {
  stacklet* r = stacklet_of(h);
  char* const p = reinterpret_cast<char*>(h);
  const std::size_t bytes = h->bytes();
  stacklet* const c = m_current.load(std::memory_order_relaxed);
  // Pop back only to a stacklet of this stack (the caller is its owner: this thread's worker
  // holds this stack), whose top block this is, while the current one holds no live frame.
  // acquire on remote: the remote frees counted there happened before (their blocks are dead).
  const bool pop_back = r->owner == this && p + bytes == r->top.load(std::memory_order_relaxed) &&
                        local_live_of(c) + c->remote.load(std::memory_order_acquire) == 0;
  // A stacklet of this stack other than the current one is retired (spares hold no
  // frame): the index check only guards the invariant.
  if (!pop_back || r->retired_index >= m_retired.size() || m_retired[r->retired_index] != r) {
    free_remote(h);
    return;
  }
  fold_peak();  // the stretch on `c` ends here
  asan_poison(p, bytes);
  // Retired, r's `remote` is its live count, h included. Take it back as the owner's count:
  // a remote free before the exchange is in `live`, one after it makes `remote` negative.
  const std::int64_t live = r->remote.exchange(0, std::memory_order_acq_rel) - 1;
  r->local_live = live;
  r->counted = true;
  char* const top = live == 0 ? r->base() : p;
  r->top.store(top, std::memory_order_relaxed);
  r->hwm.store(top, std::memory_order_relaxed);
  unretire(r);
  // Switch before the retired bytes shrink: a reader may over-count, never under-count.
  m_current.store(r, std::memory_order_release);
  m_retired_bytes.store(m_retired_bytes.load(std::memory_order_relaxed) - k_stacklet_bytes,
                        std::memory_order_relaxed);
  // Kept for the next crossing (free space: not counted as held; see "Spares").
  c->next_spare = m_spares;
  m_spares = c;
}

void frame_stack::retire(stacklet* s) {
  s->retired_index = static_cast<std::uint32_t>(m_retired.size());
  m_retired.push_back(s);
}

void frame_stack::unretire(stacklet* s) noexcept {
  stacklet* last = m_retired.back();
  m_retired[s->retired_index] = last;
  last->retired_index = s->retired_index;
  m_retired.pop_back();
}

std::size_t frame_stack::held_bytes() const noexcept {
  const stacklet* s = m_current.load(std::memory_order_acquire);
  return m_retired_bytes.load(std::memory_order_relaxed) +
         static_cast<std::size_t>(s->top.load(std::memory_order_relaxed) - s->base());
}

void frame_stack::reset_peak() noexcept {
  m_reset_floor.store(held_bytes(), std::memory_order_relaxed);
  stacklet* s = m_current.load(std::memory_order_acquire);
  s->hwm.store(s->top.load(std::memory_order_relaxed), std::memory_order_relaxed);
  // release: the owner (fold_peak) and peak_bytes() read the floor after the epoch.
  m_reset_epoch.store(m_reset_epoch.load(std::memory_order_relaxed) + 1, std::memory_order_release);
}

void frame_stack::fold_peak() noexcept {
  const stacklet* s = m_current.load(std::memory_order_relaxed);
  const std::size_t stretch =
      m_retired_bytes.load(std::memory_order_relaxed) +
      static_cast<std::size_t>(s->hwm.load(std::memory_order_relaxed) - s->base());
  const std::uint64_t epoch = m_reset_epoch.load(std::memory_order_acquire);
  std::size_t peak = m_folded_peak.load(std::memory_order_relaxed);
  if (epoch != m_reset_seen) {
    m_reset_seen = epoch;
    peak = m_reset_floor.load(std::memory_order_relaxed);
  }
  m_folded_peak.store(std::max(peak, stretch), std::memory_order_relaxed);
  // release: whoever reads this epoch here reads the folded peak (or a later one).
  m_peak_epoch.store(epoch, std::memory_order_release);
}

std::size_t frame_stack::peak_bytes() const noexcept {
  const std::uint64_t epoch = m_reset_epoch.load(std::memory_order_acquire);
  const stacklet* s = m_current.load(std::memory_order_acquire);
  const std::size_t stretch =
      m_retired_bytes.load(std::memory_order_relaxed) +
      static_cast<std::size_t>(s->hwm.load(std::memory_order_relaxed) - s->base());
  // The owner has not folded since the last reset: the floor is the peak before this stretch.
  const std::size_t before = m_peak_epoch.load(std::memory_order_acquire) != epoch
                                 ? m_reset_floor.load(std::memory_order_relaxed)
                                 : m_folded_peak.load(std::memory_order_relaxed);
  return std::max(before, stretch);
}

namespace {
/// The stand-in's current stacklet: empty, with a null end and high-water mark, so every
/// allocation from the stand-in takes the slow path. No block ever lies in it.
constinit stacklet g_no_stacklet{};
}  // namespace

constinit off_worker_frames g_off_worker_frames{&g_no_stacklet};

void* heap_block_allocate(std::size_t n) {
  const std::size_t total = ((n + 15) & ~std::size_t{15}) + k_block_header;
  void* mem = ::operator new (total, std::align_val_t{16});
  static_cast<block_header*>(mem)->word = total | k_heap_block_bit;
  return static_cast<char*>(mem) + k_block_header;
}

void heap_block_free(block_header* h) noexcept {
  ::operator delete (h, std::align_val_t{16});
}

}  // namespace locus::detail
