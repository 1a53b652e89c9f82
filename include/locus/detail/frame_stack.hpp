// locus/detail/frame_stack.hpp — per-worker LIFO frame stack of stacklets for coroutine frames.
//
// Coroutine frames are bump-allocated from the current worker's stacklet and, in the common
// case (fib: a child freed before its parent, on the worker that made it), popped again in LIFO
// order, so the fast path is a compare and an add with no atomics and no global heap.
//
// Work stealing breaks LIFO order in two ways: a frame can be freed by another thread (a stolen
// child destroyed by its parent on the thief), and a frame can outlive frames above it (a
// help-first child that runs after its parent moved on). Both are handled without locks:
//   * a free on the owning worker of the frame's current stacklet pops the bump pointer if
//     the frame is on top, and otherwise leaves a hole, reclaimed when the stacklet empties
//     (the owner's plain counter, kept from the first hole on, says when: "Counted after a
//     hole" below);
//   * any other free (other thread, or an older stacklet) decrements the stacklet's atomic
//     `remote` counter.
// Counting invariant: before a stacklet is retired, `remote` <= 0 and the number of live
// frames is `local_live + remote`, where local_live is the owner's count (frames it allocated
// and has not freed), kept only once the stacklet has a hole (see "Counted after a hole").
// When the owner retires a full stacklet it adds `local_live` into `remote`, which then
// equals the live count (>= 0). Only the owner ever reclaims: it scans its retired stacklets
// on the slow path and reuses those whose `remote` reads 0.
//
// Pop-back (a segmented stack's answer to segment waste). A deep path that crosses a stacklet
// boundary retires the full stacklet R and continues on the next one, C. When the path then
// retracts below the boundary, C empties and the owner frees R's blocks from the top down. Were
// those frees remote decrements, R's freed upper part would stay unusable until all of R died,
// and a path that grows again would fill C and then a fresh stacklet: up to a stacklet wasted
// per crossing (measured: twice the live path on uts T3). Instead, when the owner frees the
// top block of one of its own retired stacklets while its current stacklet holds no live
// frame, R becomes current again: its live count comes back from `remote` by one exchange
// (remote frees racing with it land either before, in the count taken, or after, as negative
// `remote`: the invariant above holds again), its top drops to the freed block, and C goes
// to the spares, the empty stacklets the owner switches to before it makes a new one. A path
// oscillating across a boundary therefore costs two stacklets, not one more per crossing.
//
// Counted after a hole. Until the owner frees a block that is not on top (a hole), every
// block below the top is one the owner allocated and has not freed, so its count is the
// number of blocks in [base, top): nothing needs to keep it. An uncounted stacklet allocates
// and frees with no counter at all; the first hole counts the blocks once, by walking their
// headers from the base (count_blocks), and from then on allocate and free keep local_live,
// until the stacklet is switched to again (empty). A pop-back's stacklet is counted (its count
// comes from `remote`). Why: a count changed by every allocation and every free is two
// read-modify-writes per frame; fib at 1 worker, which never makes a hole, ran about 7% slower
// for them (docs/design/0020, "The frame stack's live count").
//
// Spares are kept, all of them, on an intrusive list (LIFO: the last one left is the warmest).
// A deep path that retracts across k boundaries leaves k empty stacklets; freeing them (as the
// first version did, keeping one) made a steal-heavy run (PDFS: ~3,000 crossings a run) give
// its stacklets back to the C library and fault fresh pages in for the next growth, about 50%
// slower. Kept, the stack never owns more stacklets than it held at its peak, which is what
// the reclamation of retired stacklets did before pop-back too. They are given back when the
// stack is destroyed (with the runtime).
//
// Layout: stacklets are k_stacklet_bytes long and aligned to their size, so a frame finds its
// stacklet by masking its address. Each block has a 16-byte header (its size, and a heap bit in
// the same word: block_header) so that frames too large for a stacklet, or made outside a worker,
// go to the global heap.
//
// Peak bytes and resets. `held` is the bytes the stack holds: its retired stacklets in full
// plus the used part of the current one (the spares, free space ready for use, count as the
// current one's free tail does: not at all) (top, m_current and m_retired_bytes are written by
// the
// owner only, as relaxed atomics so that other threads may read them: a plain mov). The peak
// is the largest `held` since the last reset_peak(). The allocation fast path pays one load
// and compare for it: each stacklet keeps `hwm`, the highest `top` since it became current
// (or since the last reset). While a stacklet is current the retired bytes do not change, so
// the peak of that stretch is m_retired_bytes + (hwm - base); the owner folds it into
// m_folded_peak on the slow path, when it switches stacklets. A reader's peak_bytes() is the
// larger of the folded peak and the current stretch's.
//
// reset_peak() (its callers serialize) stores the bytes held at that moment as a floor, sets
// the current stacklet's hwm to its top, then bumps the epoch (release). Until the owner next
// folds it has not seen the reset, and the peak is max(floor, current stretch); when it folds
// it sees the new epoch and restarts the folded peak from the floor. Hence:
//   * with no allocation concurrent with reset_peak() (no run in progress) the peak since the
//     reset is exact;
//   * during a run it is never below the floor (read racily, a reader can see a stacklet switch
//     half done and over-count by at most one stacklet); an allocation racing with the reset
//     itself may be missed until a later one goes higher, and a reset racing with a stacklet
//     switch may keep what the new stacklet held before the reset (at most one stacklet).
//
// AddressSanitizer (LOCUS_ASAN). To ASan a stacklet is one big aligned_alloc block, so a use
// of a freed frame would go unnoticed. Under ASan the stack poisons what is not a live block:
// a new stacklet is poisoned past its 64-byte header (which stays readable: `remote` is
// touched by other threads), allocate() unpoisons exactly the block (header and payload), and
// every free poisons exactly its block, after the header was last read and, for a remote
// free, before the count is decremented (after that the owner may reuse the bytes). So the
// free space of a stacklet is always poisoned, which covers a reset or reused stacklet; the
// slow path poisons it in full again when it reuses one. Blocks are 16-byte aligned and ASan's
// granule is 8, so poisoning a block never touches a live neighbour's shadow. A read of a
// freed frame reports "use-after-poison". Heap blocks go through operator new/delete, which
// ASan checks anyway. Other builds compile all of this away.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#define LOCUS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LOCUS_ASAN 1
#endif
#endif
#if !defined(LOCUS_ASAN)
#define LOCUS_ASAN 0
#endif
#if LOCUS_ASAN
#include <sanitizer/asan_interface.h>
#endif

namespace locus::detail {

inline constexpr std::size_t k_stacklet_bytes = std::size_t{256} << 10;  // 256 KiB
inline constexpr std::size_t k_block_header = 16;

/// True in AddressSanitizer builds, where freed frames and free stacklet space are poisoned.
inline constexpr bool k_asan = LOCUS_ASAN != 0;

/// ASan: mark [p, p + n) unusable / usable. No-ops in other builds.
inline void asan_poison([[maybe_unused]] const void* p, [[maybe_unused]] std::size_t n) noexcept {
#if LOCUS_ASAN
  ASAN_POISON_MEMORY_REGION(p, n);
#endif
}
inline void asan_unpoison([[maybe_unused]] const void* p, [[maybe_unused]] std::size_t n) noexcept {
#if LOCUS_ASAN
  ASAN_UNPOISON_MEMORY_REGION(p, n);
#endif
}

/// Under ASan, whether the byte at `p` is poisoned (a freed frame, free stacklet space);
/// always false in other builds.
[[nodiscard]] inline bool frame_stack_poisoned([[maybe_unused]] const void* p) noexcept {
#if LOCUS_ASAN
  return __asan_address_is_poisoned(p) != 0;
#else
  return false;
#endif
}

struct stacklet {
  std::atomic<std::int64_t> remote{0};  ///< see the counting invariant above
  std::int64_t local_live = 0;          ///< owner-only: frames allocated minus owner frees
  std::atomic<char*> top{nullptr};      ///< bump pointer: the owner writes, anyone may read
  char* end = nullptr;
  std::atomic<char*> hwm{nullptr};  ///< highest top while current (see "Peak bytes" above)
  const void* owner = nullptr;      ///< the frame_stack that made it (written once)
  std::uint32_t retired_index = 0;  ///< owner-only: its index in m_retired while retired
  bool counted = false;             ///< owner-only: local_live is kept (see "Counted after a hole")
  stacklet* next_spare = nullptr;   ///< owner-only: the spare list's link while a spare
  [[nodiscard]] char* base() const noexcept {
    return reinterpret_cast<char*>(const_cast<stacklet*>(this)) + k_block_header * 4;
  }
};
static_assert(sizeof(stacklet) <= k_block_header * 4);

/// One word, written once by the allocation: a block on a stacklet stores its size, so its
/// allocation is one store of a constant (two words, {size, heap flag}, took a 16-byte load of
/// the pair from read-only data and a store). The other 8 bytes keep payloads 16-byte aligned
/// and are never written.
struct block_header {
  /// Total bytes of the block, header included (a multiple of 16); bit 0 set: a heap block
  /// (heap_block_allocate), whose size nobody reads.
  std::uint64_t word;
  std::uint64_t unused;

  /// A stacklet block's size (the heap bit is clear: callers know the block is not a heap one).
  [[nodiscard]] std::uint64_t bytes() const noexcept { return word; }
  [[nodiscard]] bool heap() const noexcept { return (word & 1) != 0; }
};
inline constexpr std::uint64_t k_heap_block_bit = 1;
static_assert(sizeof(block_header) == k_block_header);

class frame_stack {
 public:
  frame_stack();
  /// The stand-in of the threads that are not workers (t_frames): its current stacklet is
  /// `sentinel`, empty, with a null end, so allocate() always takes allocate_slow(), which gives
  /// such a thread a heap block (it owns no stacklet: m_owned is 0). Constant-initialised, so
  /// that it works before any dynamic initialiser has run; nothing is ever written to it.
  struct stand_in_tag {};
  constexpr frame_stack(stand_in_tag, stacklet* sentinel) noexcept : m_current(sentinel) {}
  ~frame_stack();
  frame_stack(const frame_stack&) = delete;
  frame_stack& operator=(const frame_stack&) = delete;

  /// Allocate `n` bytes aligned to 16. Owner thread only.
  ///
  /// One compare on the fast path: against the stacklet's high-water mark, which is never
  /// above its end (every store of hwm is of a top or a base of that stacklet). A block that
  /// ends at or below hwm fits and leaves the peak as it was; only a block that raises the
  /// mark tests the end as well (rare once a computation has reached its depth: fib's
  /// allocations then all end below it). The addresses are compared as integers: p + total
  /// may lie past the stacklet.
  [[nodiscard]] void* allocate(std::size_t n) {
    const std::size_t total = ((n + 15) & ~std::size_t{15}) + k_block_header;
    stacklet* s = m_current.load(std::memory_order_relaxed);
    char* p = s->top.load(std::memory_order_relaxed);
    const std::uintptr_t top = reinterpret_cast<std::uintptr_t>(p) + total;
    // Relaxed: the owner is the only writer of hwm but for reset_peak() (see "Peak bytes").
    if (top > reinterpret_cast<std::uintptr_t>(s->hwm.load(std::memory_order_relaxed)))
        [[unlikely]] {
      if (top > reinterpret_cast<std::uintptr_t>(s->end)) return allocate_slow(total);
      s->hwm.store(p + total, std::memory_order_relaxed);
    }
    s->top.store(p + total, std::memory_order_relaxed);
    if (s->counted) ++s->local_live;
    asan_unpoison(p, total);
    reinterpret_cast<block_header*>(p)->word = total;
    return p + k_block_header;
  }

  /// Free a block made by `allocate` on this stack. Owner thread only; other frees go through
  /// free_remote().
  void deallocate_local(block_header* h) noexcept {
    if (on_current(h)) [[likely]] {
      deallocate_current(h);
      return;
    }
    deallocate_other(h);
  }

  /// Whether `h` lies in this stack's current stacklet (never true of a heap block: no heap
  /// block lies in a stacklet). Owner thread only.
  [[nodiscard]] bool on_current(const block_header* h) const noexcept {
    return stacklet_of(h) == m_current.load(std::memory_order_relaxed);
  }

  /// deallocate_local() of a block on the current stacklet (on_current(h)). Owner only. Inline
  /// always: every frame that frees itself runs it, and gcc 12 stops inlining it into a
  /// coroutine's completion once the body grows (a call and its spills cost more than it).
#if defined(__GNUC__) || defined(__clang__)
  [[gnu::always_inline]]
#endif
  void
  deallocate_current(block_header* h) noexcept {
    stacklet* s = stacklet_of(h);
    char* p = reinterpret_cast<char*>(h);
    const std::size_t bytes = h->bytes();
    asan_poison(p, bytes);
    if (p + bytes == s->top.load(std::memory_order_relaxed)) {
      if (!s->counted) [[likely]] {
        // No hole below: p is the base exactly when no local frame is left.
        s->top.store(p, std::memory_order_relaxed);
        return;
      }
      // With no local frame left and (hence) no remote one, drop any holes below as well.
      --s->local_live;
      s->top.store(s->local_live == 0 ? s->base() : p, std::memory_order_relaxed);
      return;
    }
    free_hole(s);  // a tail call: nothing of the caller is live across it (docs/design/0016)
  }

  [[nodiscard]] bool owns_current(const block_header* h) const noexcept {
    return !h->heap() && stacklet_of(h) == m_current.load(std::memory_order_relaxed);
  }

  /// Peak bytes held since the last reset_peak() (see the header comment). Any thread.
  [[nodiscard]] std::size_t peak_bytes() const noexcept;
  /// Bytes held now: retired stacklets in full plus the used part of the current one. Any
  /// thread; exact when the owner is not allocating.
  [[nodiscard]] std::size_t held_bytes() const noexcept;
  /// Stacklets this stack owns: the current one, the retired ones and the spares. Any thread.
  [[nodiscard]] std::size_t stacklets_owned() const noexcept {
    return m_owned.load(std::memory_order_relaxed);
  }
  /// Restart the peak from the bytes held now. Any thread; calls must not overlap (the
  /// runtime's stats lock serializes them).
  void reset_peak() noexcept;

  /// The owner's live count of `s`: local_live once counted, else the blocks below its top
  /// (which counts it from now on). Owner only.
  static std::int64_t local_live_of(stacklet* s) noexcept {
    if (!s->counted) count_blocks(s);
    return s->local_live;
  }

  static stacklet* stacklet_of(const void* p) noexcept {
    return reinterpret_cast<stacklet*>(reinterpret_cast<std::uintptr_t>(p) &
                                       ~(std::uintptr_t{k_stacklet_bytes} - 1));
  }
  /// A free of block `h` from a thread that does not own its stacklet as its current one.
  /// The block is poisoned before the count drops: after that the owner may reuse its bytes.
  static void free_remote(block_header* h) noexcept {
    asan_poison(h, h->bytes());
    free_remote(stacklet_of(h));
  }
  /// The count part of a remote free, for callers that only know the stacklet (nothing is
  /// poisoned: prefer free_remote(block_header*)).
  static void free_remote(stacklet* s) noexcept {
    s->remote.fetch_sub(1, std::memory_order_acq_rel);
  }

 private:
  void* allocate_slow(std::size_t total);
  /// Start counting an uncounted stacklet: local_live = the blocks in [base, top), found by
  /// walking their headers (every one is live to the owner: there is no hole yet). Owner only.
  [[gnu::cold, gnu::noinline]] static void count_blocks(stacklet* s) noexcept;
  /// The owner freed a block of `s` below its top: count `s` if it is not yet (the block is
  /// still among [base, top)), drop the block from the count, and drop every hole when no
  /// frame is left. Out of line: it holds a call.
  [[gnu::noinline]] static void free_hole(stacklet* s) noexcept;
  /// Owner thread, a block not on the current stacklet: pop back to its stacklet (see
  /// "Pop-back") or count it as a remote free.
  void deallocate_other(block_header* h) noexcept;
  /// m_retired with O(1) removal: each retired stacklet knows its index (a pop-back must not
  /// scan thousands of retired stacklets on a deep path that oscillates across a boundary).
  void retire(stacklet* s);
  void unretire(stacklet* s) noexcept;
  [[nodiscard]] stacklet* new_stacklet();
  /// Start allocating from `s` (empty: no live frame), poisoning its space again.
  void switch_to(stacklet* s) noexcept;

  /// Owner, before leaving the current stacklet: fold its stretch into m_folded_peak,
  /// restarting from the floor if a reset happened since the last fold.
  void fold_peak() noexcept;

  std::atomic<stacklet*> m_current{nullptr};  ///< owner writes; readers: held_bytes()
  std::vector<stacklet*> m_retired;           ///< full stacklets with live frames (owner-only)
  stacklet* m_spares = nullptr;         ///< empty stacklets, LIFO through next_spare (owner-only)
  std::atomic<std::size_t> m_owned{0};  ///< owner writes (new_stacklet): stacklets_owned()
  std::atomic<std::size_t> m_retired_bytes{0};  ///< owner writes; readers: held_bytes()
  std::uint64_t m_reset_seen = 0;               ///< owner: the reset epoch it last folded at
  std::atomic<std::size_t> m_folded_peak{0};    ///< owner writes: peak of finished stretches
  std::atomic<std::uint64_t> m_peak_epoch{0};   ///< owner publishes m_reset_seen (release)
  std::atomic<std::uint64_t> m_reset_epoch{0};  ///< reset_peak() bumps it (release) ...
  std::atomic<std::size_t> m_reset_floor{0};    ///< ... after storing the bytes held then
};

/// Blocks from the global heap with the same header (too large, or made off a worker).
[[nodiscard]] void* heap_block_allocate(std::size_t n);
void heap_block_free(block_header* h) noexcept;

/// The stand-in frame stack of the threads that are not workers, in a union so that it is never
/// destroyed (a thread may make a frame during static destruction). Defined constinit in
/// src/frame_stack.cpp.
struct off_worker_frames {
  union {
    frame_stack stack;
  };
  constexpr explicit off_worker_frames(stacklet* sentinel) noexcept
      : stack(frame_stack::stand_in_tag{}, sentinel) {}
  off_worker_frames(const off_worker_frames&) = delete;
  off_worker_frames& operator=(const off_worker_frames&) = delete;
  ~off_worker_frames() {}  // NOLINT(modernize-use-equals-default): must not destroy `stack`
};
extern off_worker_frames g_off_worker_frames;

/// The frame stack the calling thread makes coroutine frames on: its worker's (set by the worker
/// loop), else the stand-in, whose allocations go to the heap. Never null, so frame_allocate
/// (every coroutine's operator new) needs no test for "on a worker?": one test and branch less
/// per frame (docs/design/0020, "A frame stack on every thread").
constinit inline thread_local frame_stack* t_frames = &g_off_worker_frames.stack;

}  // namespace locus::detail
