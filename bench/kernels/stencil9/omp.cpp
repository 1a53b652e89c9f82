// stencil9, OpenMP: per time step, a static loop over the interior planes (the papers' baseline).
#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome stencil9_omp(const bench::args& a) {
  using spec = stencil9_kernel::spec;
  const auto body = [](stencil::instance& in) {
    const stencil::problem& pr = in.pr;
    for (int t = 0; t < pr.steps; ++t) {
      const double* from = in.from(t);
      double* to = in.to(t);
#pragma omp parallel for schedule(static)
      for (int i = pr.radius; i < pr.n0 - pr.radius; ++i)
        spec::planes(pr, from, to, i, i + 1);
    }
  };
  return bench::measure(a.size, stencil::setup<spec>, body, stencil::check<spec>);
}
