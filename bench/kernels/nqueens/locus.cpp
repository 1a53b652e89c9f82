// nqueens, locus: each legal column above the cutoff (with no cutoff: every legal column) is a
// spawned task with its own copy of the board; children are spawned in place, each writing its
// count into this frame's slot array, summed after the sync.
#include <locus/locus.hpp>

#include "../../kernel.hpp"
#include "common.hpp"

namespace {

using nqueens_kernel::board;
using nqueens_kernel::problem;

locus::task<std::int64_t> solve(problem p, board b, int row) {
  if (p.below_cutoff(row)) co_return nqueens_kernel::serial_count(p.n, b, row);
  std::array<std::int64_t, nqueens_kernel::k_max_n> counts{};
  for (int col = 0; col < p.n; ++col) {
    if (!nqueens_kernel::legal(b, row, col)) continue;
    co_await locus::spawn(&counts[static_cast<std::size_t>(col)], solve, p,
                          nqueens_kernel::with_queen(b, row, col), row + 1);
  }
  co_await locus::sync();
  co_return nqueens_kernel::sum_counts(counts, p.n);
}

}  // namespace

bench::outcome nqueens_locus(const bench::args& a) {
  const auto body = [&a](problem p) { return a.rt->run(solve(p, board{}, 0)); };
  return bench::measure(a.size, nqueens_kernel::parse, body, nqueens_kernel::check);
}
