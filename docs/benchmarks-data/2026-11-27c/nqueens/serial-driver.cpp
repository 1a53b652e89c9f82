// The serial nqueens recursion of bench/kernels/nqueens/serial.cpp as a program of its own, for
// count.sh (instructions per node, with and without gcc's IPA-CP clones). Argument: N.
#include <cstdio>
#include <cstdlib>
#include <string>
#include "kernels/nqueens/common.hpp"
using namespace nqueens_kernel;
static std::int64_t solve(problem p, board b, int row) {
  if (p.below_cutoff(row)) return serial_count(p.n, b, row);
  std::array<std::int64_t, k_max_n> counts{};
  for (int col = 0; col < p.n; ++col) {
    if (!legal(b, row, col)) continue;
    const board child = with_queen(b, row, col);
    counts[col] = solve(p, child, row + 1);
  }
  return sum_counts(counts, p.n);
}
int main(int argc, char** argv) {
  const problem p = parse(std::string(argv[1]) + ":nocutoff");
  std::printf("%lld\n", (long long)solve(p, board{}, 0));
}
