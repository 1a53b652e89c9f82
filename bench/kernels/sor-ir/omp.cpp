// sor-ir, OpenMP: one static loop over the interior rows per half-sweep (the papers' baseline;
// with unequal rows its static chunks are unequally loaded).
#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome sor_ir_omp(const bench::args& a) {
  const auto body = [](sor_kernel::instance& in) {
    in.for_each_half_sweep([](double* grid, int n, int colour) {
#pragma omp parallel for schedule(static)
      for (int i = 1; i < n - 1; ++i)
        sor_ir_kernel::sweep_rows(grid, n, colour, i, i + 1);
    });
  };
  return bench::measure(a.size, sor_kernel::setup, body, sor_ir_kernel::check);
}
