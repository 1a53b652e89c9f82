// nqueens, locus: the one traversal of the locus kernel (locus.cpp) and of the doc drivers that
// count its instructions without locus-bench (docs/benchmarks-data/2026-11-26b/nqueens-driver.cpp).
// Each legal column above the cutoff (with no cutoff: every legal column) is a spawned task
// with its own copy of the board; children are spawned in place, each writing its count into
// this frame's slot array, summed after the sync.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <locus/locus.hpp>

#include "common.hpp"

namespace nqueens_kernel {

/// `static inline`, as the README advises ("Declare task functions inline"): gcc 12 inlines a
/// function declared inline up to max-inline-insns-single, any other only up to
/// max-inline-insns-auto, and this coroutine's ramp lies between the two, so only then is the
/// ramp inlined at the spawn (docs/benchmarks.md, 2026-11-26d: hot path; 10-18 instructions per
/// task). Until 2026-11-27b it was `static` alone, to keep the figures comparable with earlier
/// runs; docs/benchmarks.md reports both forms on that day.
static inline locus::task<std::int64_t> locus_solve(problem p, board b, int row) {
  if (p.below_cutoff(row)) co_return serial_count(p.n, b, row);
  std::array<std::int64_t, k_max_n> counts{};
  for (int col = 0; col < p.n; ++col) {
    if (!legal(b, row, col)) continue;
    co_await locus::spawn(&counts[static_cast<std::size_t>(col)], locus_solve, p,
                          with_queen(b, row, col), row + 1);
  }
  co_await locus::sync();
  co_return sum_counts(counts, p.n);
}

}  // namespace nqueens_kernel
