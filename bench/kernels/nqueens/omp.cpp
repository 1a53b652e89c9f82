// nqueens, OpenMP: each legal column above the cutoff (with no cutoff: every legal column) is a
// task with a firstprivate copy of the board, writing its count into the parent's slot for
// that column.
#include <omp.h>

#include "../../kernel.hpp"
#include "../omp_single.hpp"
#include "common.hpp"

namespace {

using nqueens_kernel::board;
using nqueens_kernel::problem;

std::int64_t solve(problem p, board b, int row) {
  if (p.below_cutoff(row)) return nqueens_kernel::serial_count(p.n, b, row);
  std::array<std::int64_t, nqueens_kernel::k_max_n> counts{};
  std::int64_t* slots = counts.data();
  for (int col = 0; col < p.n; ++col) {
    if (!nqueens_kernel::legal(b, row, col)) continue;
    board child = nqueens_kernel::with_queen(b, row, col);
#pragma omp task firstprivate(p, child, row, col, slots)
    slots[col] = solve(p, child, row + 1);
  }
#pragma omp taskwait
  return nqueens_kernel::sum_counts(counts, p.n);
}

}  // namespace

bench::outcome nqueens_omp(const bench::args& a) {
  const auto body = [](problem p) {
    return bench::omp_single([p] { return solve(p, board{}, 0); });
  };
  return bench::measure(a.size, nqueens_kernel::parse, body, nqueens_kernel::check);
}
