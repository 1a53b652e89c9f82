// locus/dataflow/datablock.hpp — runtime-managed contiguous memory with a home.
//
// A datablock is a reference-counted, 64-byte aligned, zeroed block of bytes. Its home (the
// core, in the locality sense of locus/locality/home_map.hpp) is set when it is created (the
// creating worker's core) and updated when a data-driven task that declared a write dependence
// on it acquires it for writing. Locality accounting counts a task's accesses to its blocks by
// the block's home, where() (so the two agree in every case, even for blocks that share a
// page). When the runtime keeps a home map (config::accounting), a created block is
// page-aligned and owns whole pages, which are placed there too (so touch() of its bytes
// agrees as well), and cleared when the block is freed; a wrapped block places and clears only
// the pages that lie wholly inside it (the pages it shares keep their own homes).
//
// Datablocks travel on events (event<datablock>); a task declares the access mode on the
// dependence (graph::add_dependence(..., access::write)) and reaches the bytes through its
// arguments (edt_args::read / write), which check the mode and that the slot was not released.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>

#include "locus/locality/data_range.hpp"
#include "locus/locality/home_map.hpp"

namespace locus::dataflow {

namespace detail {
struct block_core {
  std::atomic<std::uint32_t> refs{1};
  std::atomic<std::uint32_t> home_bits{0};  ///< a locus::home; relaxed (a hint, publishes nothing)
  std::size_t bytes = 0;
  void* data = nullptr;
  void* rt = nullptr;  ///< the runtime (ext::core_ref::raw) whose home map holds the pages, or null
  bool owns = true;    ///< false for datablock::wrap: the bytes are the caller's
  std::size_t align = 64;    ///< of `data` (owned blocks): a page when `rt` keeps a home map
  std::size_t capacity = 0;  ///< bytes allocated (owned blocks): `bytes` rounded up to `align`
};
/// A new owned block; its bytes zeroed if `zero`, else left as the allocator gave them.
block_core* block_create(std::size_t bytes, bool zero = true);
block_core* block_wrap(void* data, std::size_t bytes);
void block_destroy(block_core* b) noexcept;
/// The block is about to be written by the calling worker: its home becomes that worker's core.
void block_written(block_core* b) noexcept;
/// A task on the calling worker accesses the whole block: counted by the locality accounting
/// (if on) at the block's home, where(). The graph calls it for each datablock input.
void block_accessed(const block_core* b);
}  // namespace detail

class datablock {
 public:
  datablock() noexcept = default;
  /// A zeroed block of `bytes` bytes homed on the calling worker's core (none off the workers).
  [[nodiscard]] static datablock create(std::size_t bytes) {
    return datablock(detail::block_create(bytes));
  }
  /// A block of `bytes` bytes like create()'s, but not zeroed: its bytes are indeterminate
  /// until written. For a block whose every byte is written before any is read (a receive
  /// buffer, a task's output it fills): create()'s zeroing is a pass over the whole block, and
  /// for a large one the page faults of its first touch, on the creating thread
  /// (locus::mpi's imports of declared size use it: docs/benchmarks-mpi.md, 2026-11-27e).
  [[nodiscard]] static datablock create_for_overwrite(std::size_t bytes) {
    return datablock(detail::block_create(bytes, false));
  }
  /// A datablock over `bytes` bytes at `data`, which the caller owns and keeps alive while any
  /// copy of the datablock exists (it is neither zeroed nor freed). Homed like create()'s: on
  /// the calling worker's core, moved by write dependences. For memory laid out already (the
  /// tiles of a matrix) that tasks should still be scheduled and accounted by.
  [[nodiscard]] static datablock wrap(void* data, std::size_t bytes) {
    return datablock(detail::block_wrap(data, bytes));
  }
  datablock(const datablock& o) noexcept : m_b(o.m_b) {
    if (m_b != nullptr) m_b->refs.fetch_add(1, std::memory_order_relaxed);
  }
  datablock(datablock&& o) noexcept : m_b(std::exchange(o.m_b, nullptr)) {}
  datablock& operator=(datablock o) noexcept {
    std::swap(m_b, o.m_b);
    return *this;
  }
  ~datablock() {
    // acq_rel: the thread that frees sees every other holder's writes to the bytes.
    if (m_b != nullptr && m_b->refs.fetch_sub(1, std::memory_order_acq_rel) == 1)
      detail::block_destroy(m_b);
  }

  [[nodiscard]] bool valid() const noexcept { return m_b != nullptr; }
  [[nodiscard]] std::size_t size() const noexcept { return m_b != nullptr ? m_b->bytes : 0; }
  [[nodiscard]] std::span<std::byte> bytes() const noexcept {
    if (m_b == nullptr) return {};
    return {static_cast<std::byte*>(m_b->data), m_b->bytes};
  }
  template <class T>
  [[nodiscard]] std::span<T> as() const noexcept {
    if (m_b == nullptr) return {};
    return {static_cast<T*>(m_b->data), m_b->bytes / sizeof(T)};
  }
  /// Where the block lives now (none if created off the workers and never written by a task).
  [[nodiscard]] locus::home where() const noexcept {
    return m_b != nullptr ? locus::home::from_bits(m_b->home_bits.load(std::memory_order_relaxed))
                          : locus::home{};
  }
  [[nodiscard]] detail::block_core* core() const noexcept { return m_b; }

 private:
  explicit datablock(detail::block_core* b) noexcept : m_b(b) {}
  detail::block_core* m_b = nullptr;
};

}  // namespace locus::dataflow
