// heat-ir, oneTBB: per time step, parallel_for over the interior rows with simple_partitioner,
// split down to leaf_rows rows as the locus version's tree.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome heat_ir_tbb(const bench::args& a) {
  const auto body = [](heat_kernel::instance& in) {
    const heat_kernel::problem& pr = in.pr;
    in.for_each_step([&pr](const double* from, double* to) {
      tbb::parallel_for(
          tbb::blocked_range<int>(1, pr.nx - 1, heat_kernel::leaf_rows),
          [&pr, from, to](const tbb::blocked_range<int>& r) {
            heat_ir_kernel::step_rows(pr, from, to, r.begin(), r.end());
          },
          tbb::simple_partitioner());
    });
  };
  return bench::measure(a.size, heat_kernel::setup, body, heat_kernel::check);
}
