// nqueens, locus: each legal column above the cutoff is a spawned task with its own copy of the
// board; children write their counts into this frame's slot array, summed after the sync.
#include <locus/locus.hpp>

#include "../../kernel.hpp"
#include "common.hpp"

namespace {

using nqueens_kernel::board;

locus::task<void> solve(int n, board b, int row, std::int64_t* result) {
  if (nqueens_kernel::below_cutoff(n, row)) {
    *result = nqueens_kernel::serial_count(n, b, row);
    co_return;
  }
  std::array<std::int64_t, nqueens_kernel::k_max_n> counts{};
  for (int col = 0; col < n; ++col) {
    if (!nqueens_kernel::legal(b, row, col)) continue;
    board child = b;
    child[row] = static_cast<signed char>(col);
    co_await locus::spawn(solve(n, child, row + 1, &counts[col]));
  }
  co_await locus::sync();
  std::int64_t total = 0;
  for (int col = 0; col < n; ++col)
    total += counts[col];
  *result = total;
}

}  // namespace

bench::outcome nqueens_locus(const bench::args& a) {
  const int n = nqueens_kernel::parse_n(a.size);
  bench::outcome out;
  std::int64_t r = 0;
  const bench::stopwatch clock;
  a.rt->run(solve(n, board{}, 0, &r));
  out.seconds = clock.seconds();
  nqueens_kernel::check(out, n, r);
  return out;
}
