// nqueens per task without locus-bench (docs/benchmarks.md, 2026-11-26b): the locus kernel's
// traversal (bench/kernels/nqueens/locus.cpp, spawns in place, no cutoff) in a program that
// links locus alone, so that a tree's instruction count needs only its liblocus.a. Built like
// the hot-path driver:
//   g++ -std=c++20 -O3 -DNDEBUG -I<tree>/include -I<tree>/bench THIS
//   <tree>/build/release/liblocus.a
//       -lhwloc -lpthread
// Usage: N (a board of N, a task per legal placement, 1 worker: LOCUS_WORKERS=1).
// Per task = (Ir(10) - Ir(9)) / (35,538 - 8,393), as with locus-bench.
#include <cstdio>
#include <cstdlib>
#include <locus/locus.hpp>
#include <string>

#include "kernels/nqueens/common.hpp"

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

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  const problem p = nqueens_kernel::parse(std::string(argv[1]) + ":nocutoff");
  locus::runtime rt{locus::config::from_env()};
  const std::int64_t solutions = rt.run(solve(p, board{}, 0));
  std::printf("%lld\n", static_cast<long long>(solutions));
}
