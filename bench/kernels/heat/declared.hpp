// heat: what a locus task of a time step and of the first touch declares (locus/data.hpp),
// halo rows included, for locus.cpp and the tests (tests/bench_halo_test.cpp).
//
// A step over interior rows [lo, hi) reads rows lo - 1 .. hi of `from` (its rows and the halo
// row on each side) and writes rows [lo, hi) of `to`. The first touch of rows [lo, hi) writes
// them in both grids, widened to the boundary row at either end of the interior (row 0 and
// row nx - 1), so that every halo row a step reads has a home.
#pragma once

#include <cstddef>

#include "../locus_blocks.hpp"
#include "common.hpp"

namespace heat_kernel {

/// Rows [lo, hi) widened to the boundary row at either end of the interior.
inline void widen_to_boundary(const problem& pr, int& lo, int& hi) {
  if (lo == 1) lo = 0;
  if (hi == pr.nx - 1) hi = pr.nx;
}

/// A step's task over interior rows [lo, hi): read from[lo - 1, hi + 1), write to[lo, hi).
[[nodiscard]] inline bench::ranges<2> step_ranges(const problem& pr, const double* from,
                                                  const double* to, int lo, int hi) {
  const auto row = [&pr](const double* g, int i) {
    return g + static_cast<std::size_t>(i) * pr.ny;
  };
  bench::ranges<2> d;
  d.add(row(from, lo - 1), static_cast<std::size_t>(hi - lo + 2) * pr.ny, locus::access::read)
      .add(row(to, lo), static_cast<std::size_t>(hi - lo) * pr.ny, locus::access::write);
  return d;
}

/// The first touch's task over interior rows [lo, hi): write both grids' rows, widened.
[[nodiscard]] inline bench::ranges<2> first_touch_ranges(const problem& pr, const double* a,
                                                         const double* b, int lo, int hi) {
  widen_to_boundary(pr, lo, hi);
  const std::size_t first = static_cast<std::size_t>(lo) * pr.ny;
  const std::size_t count = static_cast<std::size_t>(hi - lo) * pr.ny;
  bench::ranges<2> d;
  d.add(a + first, count, locus::access::write).add(b + first, count, locus::access::write);
  return d;
}

}  // namespace heat_kernel
