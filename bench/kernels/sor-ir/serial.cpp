// sor-ir, serial: red then black over all interior rows, row i r(i) times, iters times.
#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome sor_ir_serial(const bench::args& a) {
  const auto body = [](sor_kernel::instance& in) {
    in.for_each_half_sweep([](double* grid, int n, int colour) {
      sor_ir_kernel::sweep_rows(grid, n, colour, 1, n - 1);
    });
  };
  return bench::measure(a.size, sor_kernel::setup, body, sor_ir_kernel::check);
}
