// sor, OpenMP: one static loop over the interior rows per half-sweep (the papers' baseline).
#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome sor_omp(const bench::args& a) {
  const sor_kernel::problem pr = sor_kernel::parse(a.size);
  std::vector<double> g = sor_kernel::initial(pr);
  double* grid = g.data();
  const int n = pr.n;
  bench::outcome out;
  const bench::stopwatch clock;
  for (int it = 0; it < pr.iters; ++it) {
    for (int colour = 0; colour < 2; ++colour) {
#pragma omp parallel for schedule(static)
      for (int i = 1; i < n - 1; ++i)
        sor_kernel::sweep_rows(grid, n, colour, i, i + 1);
    }
  }
  out.seconds = clock.seconds();
  sor_kernel::check(out, pr, g);
  return out;
}
