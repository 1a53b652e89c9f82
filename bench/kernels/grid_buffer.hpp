// bench/kernels/grid_buffer.hpp — a kernel's array, from the heap or from locus's allocator.
//
// The iterative kernels (heat, sor, ge, the stencils and their -ir variants) keep their grids
// in a grid_buffer so that one instance type serves every runtime:
//   - grid_buffer<T>(n): heap memory, value-initialised (zeroed) on the calling thread; the
//     serial, omp and tbb versions fill it on the main thread as before;
//   - grid_buffer<T>(rt, n): locus::allocate(rt, ..., placement::first_touch()): zeroed,
//     page-aligned memory that nobody has written yet, so the first write to each page (a
//     task of the kernel's own decomposition, never the main thread) decides its home, on a
//     real NUMA machine and in the runtime's locality accounting alike. Freed with
//     locus::deallocate, which forgets the homes (memory mapped later at the same addresses is
//     first-touched afresh).
// Reading a page that was never written reads zeros (the kernel maps the shared zero page) and
// homes nothing.
#pragma once

#include <locus/data.hpp>
#include <locus/runtime.hpp>

#include <cstddef>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

namespace bench {

template <class T>
class grid_buffer {
  // locus::allocate's zero bytes must be a valid T: arithmetic types only.
  static_assert(std::is_arithmetic_v<T>, "grid_buffer holds numbers");

 public:
  grid_buffer() = default;
  /// `n` zeroed elements on the heap, written by the calling thread.
  explicit grid_buffer(std::size_t n) : m_heap(n), m_data(m_heap.data()), m_size(n) {}
  /// `n` (> 0) zeroed elements from `rt`'s allocator, not yet touched.
  grid_buffer(locus::runtime& rt, std::size_t n)
      : m_rt(&rt),
        m_data(static_cast<T*>(
            locus::allocate(rt, checked_bytes(n), locus::placement::first_touch()))),
        m_size(n) {}
  grid_buffer(const grid_buffer&) = delete;
  grid_buffer& operator=(const grid_buffer&) = delete;
  grid_buffer(grid_buffer&& o) noexcept { take(o); }
  grid_buffer& operator=(grid_buffer&& o) noexcept {
    if (this != &o) {
      release();
      take(o);
    }
    return *this;
  }
  ~grid_buffer() { release(); }

  [[nodiscard]] T* data() noexcept { return m_data; }
  [[nodiscard]] const T* data() const noexcept { return m_data; }
  [[nodiscard]] std::size_t size() const noexcept { return m_size; }
  [[nodiscard]] T& operator[](std::size_t i) noexcept { return m_data[i]; }
  [[nodiscard]] const T& operator[](std::size_t i) const noexcept { return m_data[i]; }
  [[nodiscard]] std::span<const T> span() const noexcept { return {m_data, m_size}; }
  /// Whether the memory came from locus's allocator (first-touched by tasks).
  [[nodiscard]] bool from_locus() const noexcept { return m_rt != nullptr; }

 private:
  static std::size_t checked_bytes(std::size_t n) {
    if (n == 0) throw std::invalid_argument("grid_buffer: zero elements");
    return n * sizeof(T);
  }
  void take(grid_buffer& o) noexcept {
    m_rt = std::exchange(o.m_rt, nullptr);
    m_heap = std::move(o.m_heap);  // a vector's move keeps its elements where they are
    m_data = std::exchange(o.m_data, nullptr);
    m_size = std::exchange(o.m_size, 0);
  }
  void release() noexcept {
    if (m_rt != nullptr) locus::deallocate(*m_rt, m_data, m_size * sizeof(T));
    m_rt = nullptr;
    m_heap = {};
    m_data = nullptr;
    m_size = 0;
  }

  locus::runtime* m_rt = nullptr;  ///< non-null: m_data is locus::allocate's
  std::vector<T> m_heap;           ///< the heap storage (m_rt null)
  T* m_data = nullptr;
  std::size_t m_size = 0;
};

}  // namespace bench
