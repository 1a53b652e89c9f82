// nqueens, serial: the task recursion with every spawn replaced by a call.
#include "../../kernel.hpp"
#include "common.hpp"

namespace {

using nqueens_kernel::board;
using nqueens_kernel::problem;

std::int64_t solve(problem p, board b, int row) {
  if (p.below_cutoff(row)) return nqueens_kernel::serial_count(p.n, b, row);
  std::array<std::int64_t, nqueens_kernel::k_max_n> counts{};
  for (int col = 0; col < p.n; ++col) {
    if (!nqueens_kernel::legal(b, row, col)) continue;
    const board child = nqueens_kernel::with_queen(b, row, col);
    counts[col] = solve(p, child, row + 1);
  }
  return nqueens_kernel::sum_counts(counts, p.n);
}

}  // namespace

bench::outcome nqueens_serial(const bench::args& a) {
  return bench::measure(
      a.size, nqueens_kernel::parse, [](problem p) { return solve(p, board{}, 0); },
      nqueens_kernel::check);
}
