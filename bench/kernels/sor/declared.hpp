// sor: what a locus task of a half-sweep and of the first touch declares (locus/data.hpp),
// halo rows included, for locus.cpp and the tests (tests/bench_halo_test.cpp).
//
// A half-sweep over interior rows [lo, hi) updates its colour's points there (read and write)
// and reads the other colour's points of the halo rows lo - 1 and hi. The first touch of rows
// [lo, hi) writes them, widened to the boundary row at either end of the interior (rows 0 and
// n - 1), so that every halo row a sweep reads has a home.
#pragma once

#include <cstddef>

#include "../locus_blocks.hpp"
#include "common.hpp"

namespace sor_kernel {

/// Rows [lo, hi) widened to the boundary row at either end of the interior of an n x n grid.
inline void widen_to_boundary(int n, int& lo, int& hi) {
  if (lo == 1) lo = 0;
  if (hi == n - 1) hi = n;
}

/// A half-sweep's task over interior rows [lo, hi): read-write g[lo, hi), read rows lo - 1
/// and hi.
[[nodiscard]] inline bench::ranges<3> sweep_ranges(const double* g, int n, int lo, int hi) {
  const auto row = [g, n](int i) { return g + static_cast<std::size_t>(i) * n; };
  bench::ranges<3> d;
  d.add(row(lo), static_cast<std::size_t>(hi - lo) * n, locus::access::read_write)
      .add(row(lo - 1), static_cast<std::size_t>(n), locus::access::read)
      .add(row(hi), static_cast<std::size_t>(n), locus::access::read);
  return d;
}

/// The first touch's task over interior rows [lo, hi): write them, widened.
[[nodiscard]] inline bench::ranges<1> first_touch_ranges(const double* g, int n, int lo, int hi) {
  widen_to_boundary(n, lo, hi);
  bench::ranges<1> d;
  d.add(g + static_cast<std::size_t>(lo) * n, static_cast<std::size_t>(hi - lo) * n,
        locus::access::write);
  return d;
}

}  // namespace sor_kernel
