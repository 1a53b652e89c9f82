// fdtd, OpenMP: per step, one static loop over the rows per phase (the papers' baseline).
#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome fdtd_omp(const bench::args& a) {
  const fdtd_kernel::problem pr = fdtd_kernel::parse(a.size);
  fdtd_kernel::fields f = fdtd_kernel::initial(pr);
  const fdtd_kernel::view v = fdtd_kernel::view_of(f, pr);
  const int nx = pr.nx;
  bench::outcome out;
  const bench::stopwatch clock;
  for (int t = 0; t < pr.tmax; ++t) {
#pragma omp parallel for schedule(static)
    for (int i = 0; i < nx; ++i)
      fdtd_kernel::electric_rows(v, t, i, i + 1);
#pragma omp parallel for schedule(static)
    for (int i = 0; i < nx - 1; ++i)
      fdtd_kernel::magnetic_rows(v, i, i + 1);
  }
  out.seconds = clock.seconds();
  fdtd_kernel::check(out, pr, f);
  return out;
}
