// nqueens, locus: each legal column above the cutoff (with no cutoff: every legal column) is a
// spawned task with its own copy of the board; children write their counts into this frame's
// slot array, summed after the sync.
#include <locus/locus.hpp>

#include "../../kernel.hpp"
#include "common.hpp"

namespace {

using nqueens_kernel::board;
using nqueens_kernel::problem;

locus::task<void> solve(problem p, board b, int row, std::int64_t* result) {
  if (p.below_cutoff(row)) {
    *result = nqueens_kernel::serial_count(p.n, b, row);
    co_return;
  }
  std::array<std::int64_t, nqueens_kernel::k_max_n> counts{};
  for (int col = 0; col < p.n; ++col) {
    if (!nqueens_kernel::legal(b, row, col)) continue;
    const board child = nqueens_kernel::with_queen(b, row, col);
    co_await locus::spawn(solve(p, child, row + 1, &counts[col]));
  }
  co_await locus::sync();
  *result = nqueens_kernel::sum_counts(counts, p.n);
}

}  // namespace

bench::outcome nqueens_locus(const bench::args& a) {
  const auto body = [&a](problem p) {
    std::int64_t r = 0;
    a.rt->run(solve(p, board{}, 0, &r));
    return r;
  };
  return bench::measure(a.size, nqueens_kernel::parse, body, nqueens_kernel::check);
}
