// stencil3d6, oneTBB: per time step, parallel_for over the interior planes with simple_partitioner,
// split down to leaf_planes planes as the locus version's tree.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome stencil3d6_tbb(const bench::args& a) {
  using spec = stencil3d6_kernel::spec;
  const auto body = [](stencil::instance& in) {
    const stencil::problem& pr = in.pr;
    for (int t = 0; t < pr.steps; ++t) {
      const double* from = in.from(t);
      double* to = in.to(t);
      tbb::parallel_for(
          tbb::blocked_range<int>(pr.radius, pr.n0 - pr.radius, stencil::leaf_planes),
          [&pr, from, to](const tbb::blocked_range<int>& r) {
            spec::planes(pr, from, to, r.begin(), r.end());
          },
          tbb::simple_partitioner());
    }
  };
  return bench::measure(a.size, stencil::setup<spec>, body, stencil::check<spec>);
}
