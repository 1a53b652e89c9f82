// fdtd, serial: the two phases of each step over all rows, in order.
#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome fdtd_serial(const bench::args& a) {
  const fdtd_kernel::problem pr = fdtd_kernel::parse(a.size);
  fdtd_kernel::fields f = fdtd_kernel::initial(pr);
  const fdtd_kernel::view v = fdtd_kernel::view_of(f, pr);
  bench::outcome out;
  const bench::stopwatch clock;
  for (int t = 0; t < pr.tmax; ++t) {
    fdtd_kernel::electric_rows(v, t, 0, pr.nx);
    fdtd_kernel::magnetic_rows(v, 0, pr.nx - 1);
  }
  out.seconds = clock.seconds();
  fdtd_kernel::check(out, pr, f);
  return out;
}
