// heat-ir, OpenMP: per time step, a static loop over the interior rows (the papers' baseline;
// with unequal rows its static chunks are unequally loaded).
#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome heat_ir_omp(const bench::args& a) {
  const auto body = [](heat_kernel::instance& in) {
    const heat_kernel::problem& pr = in.pr;
    in.for_each_step([&pr](const double* from, double* to) {
#pragma omp parallel for schedule(static)
      for (int i = 1; i < pr.nx - 1; ++i)
        heat_ir_kernel::step_rows(pr, from, to, i, i + 1);
    });
  };
  return bench::measure(a.size, heat_kernel::setup, body, heat_kernel::check);
}
