// fdtd, serial: the two phases of each step over all rows, in order.
#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome fdtd_serial(const bench::args& a) {
  const auto body = [](fdtd_kernel::instance& in) {
    const fdtd_kernel::view v = in.pointers();
    for (int t = 0; t < in.pr.tmax; ++t) {
      fdtd_kernel::electric_rows(v, t, 0, v.nx);
      fdtd_kernel::magnetic_rows(v, 0, v.nx - 1);
    }
  };
  return bench::measure(a.size, fdtd_kernel::setup, body, fdtd_kernel::check);
}
