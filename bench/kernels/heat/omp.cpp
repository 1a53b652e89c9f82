// heat, OpenMP: per time step, a static loop over the interior rows (the papers' baseline).
#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome heat_omp(const bench::args& a) {
  const heat_kernel::problem pr = heat_kernel::parse(a.size);
  heat_kernel::grids g = heat_kernel::initial(pr);
  bench::outcome out;
  const bench::stopwatch clock;
  for (int t = 0; t < pr.nt; ++t) {
    const bool even = t % 2 == 0;
    const double* from = even ? g.a.data() : g.b.data();
    double* to = even ? g.b.data() : g.a.data();
#pragma omp parallel for schedule(static)
    for (int i = 1; i < pr.nx - 1; ++i)
      heat_kernel::step_rows(pr, from, to, i, i + 1);
  }
  out.seconds = clock.seconds();
  heat_kernel::check(out, pr, heat_kernel::result(pr, g), true);
  return out;
}
