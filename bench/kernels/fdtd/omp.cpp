// fdtd, OpenMP: per step, one static loop over the rows per phase (the papers' baseline).
#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome fdtd_omp(const bench::args& a) {
  const auto body = [](fdtd_kernel::instance& in) {
    const fdtd_kernel::view v = in.pointers();
    const int nx = v.nx;
    for (int t = 0; t < in.pr.tmax; ++t) {
#pragma omp parallel for schedule(static)
      for (int i = 0; i < nx; ++i)
        fdtd_kernel::electric_rows(v, t, i, i + 1);
#pragma omp parallel for schedule(static)
      for (int i = 0; i < nx - 1; ++i)
        fdtd_kernel::magnetic_rows(v, i, i + 1);
    }
  };
  return bench::measure(a.size, fdtd_kernel::setup, body, fdtd_kernel::check);
}
