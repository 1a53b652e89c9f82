// locus/detail/frame_stack.hpp — per-worker LIFO frame stack of stacklets for coroutine frames.
//
// Coroutine frames are bump-allocated from the current worker's stacklet and, in the common
// case (fib: a child freed before its parent, on the worker that made it), popped again in LIFO
// order, so the fast path is a compare and an add with no atomics and no global heap.
//
// Work stealing breaks LIFO order in two ways: a frame can be freed by another thread (a stolen
// child destroyed by its parent on the thief), and a frame can outlive frames above it (a
// help-first child that runs after its parent moved on). Both are handled without locks:
//   * a free on the owning worker of the frame's current stacklet decrements a plain counter
//     and pops the bump pointer if the frame is on top; a hole below the top is reclaimed when
//     the stacklet empties;
//   * any other free (other thread, or an older stacklet) decrements the stacklet's atomic
//     `remote` counter.
// Counting invariant: before a stacklet is retired, `remote` <= 0 and the number of live
// frames is `local_live + remote`. When the owner retires a full stacklet it adds `local_live`
// into `remote`, which then equals the live count (>= 0). Only the owner ever reclaims: it
// scans its retired stacklets on the slow path and reuses those whose `remote` reads 0.
//
// Layout: stacklets are k_stacklet_bytes long and aligned to their size, so a frame finds its
// stacklet by masking its address. Each block has a 16-byte header (size, heap flag) so that
// frames too large for a stacklet, or made outside a worker, go to the global heap.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace locus::detail {

inline constexpr std::size_t k_stacklet_bytes = std::size_t{256} << 10;  // 256 KiB
inline constexpr std::size_t k_block_header = 16;

struct stacklet {
  std::atomic<std::int64_t> remote{0};  ///< see the counting invariant above
  std::int64_t local_live = 0;          ///< owner-only: frames allocated minus owner frees
  char* top = nullptr;                  ///< owner-only: bump pointer
  char* end = nullptr;
  [[nodiscard]] char* base() noexcept { return reinterpret_cast<char*>(this) + k_block_header * 4; }
};
static_assert(sizeof(stacklet) <= k_block_header * 4);

struct block_header {
  std::uint64_t bytes;  ///< total bytes of the block, header included
  std::uint64_t heap;   ///< 1: from the global heap
};
static_assert(sizeof(block_header) == k_block_header);

class frame_stack {
 public:
  frame_stack();
  ~frame_stack();
  frame_stack(const frame_stack&) = delete;
  frame_stack& operator=(const frame_stack&) = delete;

  /// Allocate `n` bytes aligned to 16. Owner thread only.
  [[nodiscard]] void* allocate(std::size_t n) {
    const std::size_t total = ((n + 15) & ~std::size_t{15}) + k_block_header;
    stacklet* s = m_current;
    if (static_cast<std::size_t>(s->end - s->top) >= total) [[likely]] {
      char* p = s->top;
      s->top = p + total;
      ++s->local_live;
      *reinterpret_cast<block_header*>(p) = {total, 0};
      const std::size_t used = m_retired_bytes + static_cast<std::size_t>(s->top - s->base());
      if (used > m_peak_bytes.load(std::memory_order_relaxed))
        m_peak_bytes.store(used, std::memory_order_relaxed);
      return p + k_block_header;
    }
    return allocate_slow(total);
  }

  /// Free a block made by `allocate` on this stack. Owner thread only; other frees go through
  /// free_any().
  void deallocate_local(block_header* h) noexcept {
    stacklet* s = stacklet_of(h);
    if (s == m_current) [[likely]] {
      --s->local_live;
      char* p = reinterpret_cast<char*>(h);
      if (p + h->bytes == s->top) {
        // With no local frame left and (hence) no remote one, drop any holes below as well.
        s->top = s->local_live == 0 ? s->base() : p;
      } else if (s->local_live + s->remote.load(std::memory_order_acquire) == 0) {
        s->top = s->base();  // everything freed: drop the holes
      }
      return;
    }
    free_remote(s);
  }

  [[nodiscard]] bool owns_current(const block_header* h) const noexcept {
    return !h->heap && stacklet_of(h) == m_current;
  }

  /// Peak bytes held: retired stacklets in full plus the used part of the current one.
  [[nodiscard]] std::size_t peak_bytes() const noexcept {
    return m_peak_bytes.load(std::memory_order_relaxed);
  }
  void reset_peak() noexcept { m_peak_bytes.store(0, std::memory_order_relaxed); }

  static stacklet* stacklet_of(const void* p) noexcept {
    return reinterpret_cast<stacklet*>(reinterpret_cast<std::uintptr_t>(p) &
                                       ~(std::uintptr_t{k_stacklet_bytes} - 1));
  }
  /// A free from a thread that does not own the block's stacklet as its current one.
  static void free_remote(stacklet* s) noexcept {
    s->remote.fetch_sub(1, std::memory_order_acq_rel);
  }

 private:
  void* allocate_slow(std::size_t total);
  static stacklet* new_stacklet();

  stacklet* m_current = nullptr;
  std::vector<stacklet*> m_retired;  ///< full stacklets with live frames (owner-only)
  std::size_t m_retired_bytes = 0;
  std::atomic<std::size_t> m_peak_bytes{0};  ///< owner writes (relaxed), stats() reads
};

/// Blocks from the global heap with the same header (too large, or made off a worker).
[[nodiscard]] void* heap_block_allocate(std::size_t n);
void heap_block_free(block_header* h) noexcept;

}  // namespace locus::detail
