// nqueens per task without locus-bench (docs/benchmarks.md, 2026-11-26b): the locus kernel's
// own traversal (bench/kernels/nqueens/locus_solve.hpp, which bench/kernels/nqueens/locus.cpp
// runs too; spawns in place, no cutoff) in a program that
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
#include "kernels/nqueens/locus_solve.hpp"

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  const nqueens_kernel::problem p = nqueens_kernel::parse(std::string(argv[1]) + ":nocutoff");
  locus::runtime rt{locus::config::from_env()};
  const std::int64_t solutions = rt.run(nqueens_kernel::locus_solve(p, nqueens_kernel::board{}, 0));
  std::printf("%lld\n", static_cast<long long>(solutions));
}
