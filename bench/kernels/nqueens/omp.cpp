// nqueens, OpenMP: each legal column above the cutoff is a task with a firstprivate copy of
// the board, writing its count into the parent's slot for that column.
#include <omp.h>

#include "../../kernel.hpp"
#include "common.hpp"

namespace {

using nqueens_kernel::board;

std::int64_t solve(int n, board b, int row) {
  if (nqueens_kernel::below_cutoff(n, row)) return nqueens_kernel::serial_count(n, b, row);
  std::array<std::int64_t, nqueens_kernel::k_max_n> counts{};
  std::int64_t* slots = counts.data();
  for (int col = 0; col < n; ++col) {
    if (!nqueens_kernel::legal(b, row, col)) continue;
    board child = b;
    child[row] = static_cast<signed char>(col);
#pragma omp task firstprivate(n, child, row, col, slots)
    slots[col] = solve(n, child, row + 1);
  }
#pragma omp taskwait
  std::int64_t total = 0;
  for (int col = 0; col < n; ++col)
    total += counts[col];
  return total;
}

}  // namespace

bench::outcome nqueens_omp(const bench::args& a) {
  const int n = nqueens_kernel::parse_n(a.size);
  bench::outcome out;
  std::int64_t r = 0;
  const bench::stopwatch clock;
#pragma omp parallel
#pragma omp single
  r = solve(n, board{}, 0);
  out.seconds = clock.seconds();
  nqueens_kernel::check(out, n, r);
  return out;
}
