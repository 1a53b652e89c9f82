// nqueens, oneTBB: a task_group per row above the cutoff (with no cutoff: per row); each legal
// column is a task with its own copy of the board, writing its count into the parent's slot
// for that column.
#include <tbb/task_group.h>

#include "../../kernel.hpp"
#include "common.hpp"

namespace {

using nqueens_kernel::board;
using nqueens_kernel::problem;

std::int64_t solve(problem p, board b, int row) {
  if (p.below_cutoff(row)) return nqueens_kernel::serial_count(p.n, b, row);
  std::array<std::int64_t, nqueens_kernel::k_max_n> counts{};
  tbb::task_group g;
  for (int col = 0; col < p.n; ++col) {
    if (!nqueens_kernel::legal(b, row, col)) continue;
    const board child = nqueens_kernel::with_queen(b, row, col);
    std::int64_t* slot = &counts[col];
    g.run([p, child, row, slot] { *slot = solve(p, child, row + 1); });
  }
  g.wait();
  return nqueens_kernel::sum_counts(counts, p.n);
}

}  // namespace

bench::outcome nqueens_tbb(const bench::args& a) {
  return bench::measure(
      a.size, nqueens_kernel::parse, [](problem p) { return solve(p, board{}, 0); },
      nqueens_kernel::check);
}
