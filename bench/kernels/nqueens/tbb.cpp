// nqueens, oneTBB: a task_group per row above the cutoff; each legal column is a task with its
// own copy of the board, writing its count into the parent's slot for that column.
#include <tbb/task_group.h>

#include "../../kernel.hpp"
#include "common.hpp"

namespace {

using nqueens_kernel::board;

std::int64_t solve(int n, board b, int row) {
  if (nqueens_kernel::below_cutoff(n, row)) return nqueens_kernel::serial_count(n, b, row);
  std::array<std::int64_t, nqueens_kernel::k_max_n> counts{};
  tbb::task_group g;
  for (int col = 0; col < n; ++col) {
    if (!nqueens_kernel::legal(b, row, col)) continue;
    board child = b;
    child[row] = static_cast<signed char>(col);
    std::int64_t* slot = &counts[col];
    g.run([n, child, row, slot] { *slot = solve(n, child, row + 1); });
  }
  g.wait();
  std::int64_t total = 0;
  for (int col = 0; col < n; ++col)
    total += counts[col];
  return total;
}

}  // namespace

bench::outcome nqueens_tbb(const bench::args& a) {
  const int n = nqueens_kernel::parse_n(a.size);
  bench::outcome out;
  const bench::stopwatch clock;
  const std::int64_t r = solve(n, board{}, 0);
  out.seconds = clock.seconds();
  nqueens_kernel::check(out, n, r);
  return out;
}
