// nqueens, serial: the task recursion with every spawn replaced by a call.
#include "../../kernel.hpp"
#include "common.hpp"

namespace {

using nqueens_kernel::board;

std::int64_t solve(int n, board b, int row) {
  if (nqueens_kernel::below_cutoff(n, row)) return nqueens_kernel::serial_count(n, b, row);
  std::array<std::int64_t, nqueens_kernel::k_max_n> counts{};
  for (int col = 0; col < n; ++col) {
    if (!nqueens_kernel::legal(b, row, col)) continue;
    board child = b;
    child[row] = static_cast<signed char>(col);
    counts[col] = solve(n, child, row + 1);
  }
  std::int64_t total = 0;
  for (int col = 0; col < n; ++col)
    total += counts[col];
  return total;
}

}  // namespace

bench::outcome nqueens_serial(const bench::args& a) {
  const int n = nqueens_kernel::parse_n(a.size);
  bench::outcome out;
  const bench::stopwatch clock;
  const std::int64_t r = solve(n, board{}, 0);
  out.seconds = clock.seconds();
  nqueens_kernel::check(out, n, r);
  return out;
}
