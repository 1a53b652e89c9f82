// locus/detail/pool.hpp — per-thread pools of small fixed-size blocks, for the dataflow
// extension's task nodes and events (src/dataflow/pool.cpp).
//
// Each thread (a worker, or any thread that creates tasks or events) owns a pool. A pool keeps,
// per size class (16-byte steps up to k_pool_max_bytes), a LIFO free list and the 64 KiB slab
// it carves new blocks from. Blocks carry no header: a slab is 64 KiB aligned, and its first
// cache line says which pool owns it and which class its blocks are, so a free finds both by
// masking the address.
//
// Who may call what:
//   * pool_allocate(n): any thread; takes from the calling thread's pool.
//   * pool_free(p, n): any thread, with the n given to pool_allocate. A block freed by its
//     owner's thread goes on the owner's free list (no atomic operation). A block freed by
//     another thread (a task that ran on a thief, an event dropped elsewhere) is pushed onto
//     the owner's *remote list* for its class, a Treiber stack: the push is a CAS with release
//     (the freer's last writes to the block happen before the owner reuses it); the owner takes
//     the whole list with one exchange (acquire) when its free list is empty. Only the owner
//     pops, and it takes everything at once, so there is no ABA.
//
// Lifetime: a pool outlives its thread. When a thread exits, its pool is parked in a global
// list with its free blocks and slabs, and the next thread that needs a pool adopts it, so
// blocks freed remotely after the exit still have a home, and memory stays bounded by the
// peak number of live blocks. Slabs are never returned to the system.
//
// AddressSanitizer (LOCUS_ASAN, frame_stack.hpp): a free block is poisoned except its first
// 8 bytes (the free-list link), and so is a slab's uncarved tail; allocation unpoisons the
// block. A use of a freed task node or event reports "use-after-poison".
#pragma once

#include <cstddef>
#include <new>

namespace locus::detail {

/// Blocks up to this size come from the pools; larger requests go to operator new.
inline constexpr std::size_t k_pool_max_bytes = 512;

/// A block of at least `n` bytes, 16-byte aligned. Throws std::bad_alloc.
[[nodiscard]] void* pool_allocate(std::size_t n);
/// Frees a block from pool_allocate(n), from any thread.
void pool_free(void* p, std::size_t n) noexcept;

/// Bytes of slabs the pools of all threads hold (they are never returned): what the pools cost
/// the process, for memory accounting and tests. Any thread.
[[nodiscard]] std::size_t pool_slab_bytes() noexcept;

/// Bytes a pool block for a request of `n` bytes occupies (its size class), for memory
/// accounting; n itself above k_pool_max_bytes.
[[nodiscard]] constexpr std::size_t pool_block_bytes(std::size_t n) noexcept {
  return n > k_pool_max_bytes ? n : (n + 15) / 16 * 16;
}

}  // namespace locus::detail
