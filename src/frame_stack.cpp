// Slow paths of the frame stack: new stacklets, retirement, reclamation, heap blocks.
#include "locus/detail/frame_stack.hpp"

#include <cstdlib>
#include <new>

namespace locus::detail {

stacklet* frame_stack::new_stacklet() {
  void* mem = std::aligned_alloc(k_stacklet_bytes, k_stacklet_bytes);
  if (mem == nullptr) throw std::bad_alloc();
  auto* s = new (mem) stacklet();
  s->top = s->base();
  s->end = static_cast<char*>(mem) + k_stacklet_bytes;
  return s;
}

frame_stack::frame_stack() : m_current(new_stacklet()) {}

frame_stack::~frame_stack() {
  // By the time a runtime shuts down every frame has been destroyed: frames are owned by
  // tasks, futures or finish scopes that complete inside run(). Free all stacklets.
  m_current->~stacklet();
  std::free(m_current);
  for (stacklet* s : m_retired) {
    s->~stacklet();
    std::free(s);
  }
}

void* frame_stack::allocate_slow(std::size_t total) {
  if (total > k_stacklet_bytes - 4 * k_block_header) {
    // Too big for any stacklet: the global heap, flagged so deallocation finds its way back.
    return heap_block_allocate(total - k_block_header);
  }
  stacklet* s = m_current;
  if (s->local_live + s->remote.load(std::memory_order_acquire) == 0) {
    s->top = s->base();  // the stacklet is full of holes only: reuse it in place
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
      m_retired.push_back(s);
      m_retired_bytes += k_stacklet_bytes;
      // Reuse a retired stacklet whose frames have all been freed, else make a new one.
      for (std::size_t i = 0; i < m_retired.size(); ++i) {
        stacklet* r = m_retired[i];
        if (r->remote.load(std::memory_order_acquire) == 0) {
          m_retired[i] = m_retired.back();
          m_retired.pop_back();
          m_retired_bytes -= k_stacklet_bytes;
          next = r;
          break;
        }
      }
      if (next == nullptr) next = new_stacklet();
    }
    next->top = next->base();
    next->local_live = 0;
    m_current = next;
  }
  return allocate(total - k_block_header);
}

void* heap_block_allocate(std::size_t n) {
  const std::size_t total = ((n + 15) & ~std::size_t{15}) + k_block_header;
  void* mem = ::operator new (total, std::align_val_t{16});
  *static_cast<block_header*>(mem) = {total, 1};
  return static_cast<char*>(mem) + k_block_header;
}

void heap_block_free(block_header* h) noexcept {
  ::operator delete (h, std::align_val_t{16});
}

}  // namespace locus::detail
