// heat-ir, serial: every interior row of every time step, in order, row i r(i) times.
#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome heat_ir_serial(const bench::args& a) {
  const auto body = [](heat_kernel::instance& in) {
    in.for_each_step([&pr = in.pr](const double* from, double* to) {
      heat_ir_kernel::step_rows(pr, from, to, 1, pr.nx - 1);
    });
  };
  return bench::measure(a.size, heat_kernel::setup, body, heat_kernel::check_serial);
}
