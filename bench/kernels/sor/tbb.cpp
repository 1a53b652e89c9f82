// sor, oneTBB: one parallel_for over row blocks per half-sweep.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome sor_tbb(const bench::args& a) {
  const sor_kernel::problem pr = sor_kernel::parse(a.size);
  std::vector<double> g = sor_kernel::initial(pr);
  double* grid = g.data();
  const int n = pr.n;
  bench::outcome out;
  const bench::stopwatch clock;
  for (int it = 0; it < pr.iters; ++it) {
    for (int colour = 0; colour < 2; ++colour) {
      tbb::parallel_for(
          tbb::blocked_range<int>(1, n - 1, sor_kernel::block_rows),
          [grid, n, colour](const tbb::blocked_range<int>& r) {
            sor_kernel::sweep_rows(grid, n, colour, r.begin(), r.end());
          },
          tbb::simple_partitioner());
    }
  }
  out.seconds = clock.seconds();
  sor_kernel::check(out, pr, g);
  return out;
}
