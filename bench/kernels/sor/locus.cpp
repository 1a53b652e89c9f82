// sor, locus: one parallel_for over row blocks per half-sweep, awaited inside one task.
#include <locus/locus.hpp>

#include "../../kernel.hpp"
#include "common.hpp"

namespace {

locus::task<void> solve(double* grid, int n, int iters) {
  for (int it = 0; it < iters; ++it) {
    for (int colour = 0; colour < 2; ++colour) {
      co_await locus::parallel_for(
          1, n - 1, sor_kernel::block_rows,
          [grid, n, colour](int lo, int hi) { sor_kernel::sweep_rows(grid, n, colour, lo, hi); });
    }
  }
}

}  // namespace

bench::outcome sor_locus(const bench::args& a) {
  const sor_kernel::problem pr = sor_kernel::parse(a.size);
  std::vector<double> g = sor_kernel::initial(pr);
  bench::outcome out;
  const bench::stopwatch clock;
  a.rt->run(solve(g.data(), pr.n, pr.iters));
  out.seconds = clock.seconds();
  sor_kernel::check(out, pr, g);
  return out;
}
