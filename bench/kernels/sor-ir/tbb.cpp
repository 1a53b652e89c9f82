// sor-ir, oneTBB: one parallel_for over row blocks per half-sweep.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome sor_ir_tbb(const bench::args& a) {
  const auto body = [](sor_kernel::instance& in) {
    in.for_each_half_sweep([](double* grid, int n, int colour) {
      tbb::parallel_for(
          tbb::blocked_range<int>(1, n - 1, sor_kernel::block_rows),
          [grid, n, colour](const tbb::blocked_range<int>& r) {
            sor_ir_kernel::sweep_rows(grid, n, colour, r.begin(), r.end());
          },
          tbb::simple_partitioner());
    });
  };
  return bench::measure(a.size, sor_kernel::setup, body, sor_ir_kernel::check);
}
