// heat, oneTBB: per time step, parallel_for over the interior rows with simple_partitioner, so
// the row range is split recursively down to leaf_rows rows as in Cilk's divide and conquer.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome heat_tbb(const bench::args& a) {
  const heat_kernel::problem pr = heat_kernel::parse(a.size);
  heat_kernel::grids g = heat_kernel::initial(pr);
  bench::outcome out;
  const bench::stopwatch clock;
  for (int t = 0; t < pr.nt; ++t) {
    const bool even = t % 2 == 0;
    const double* from = even ? g.a.data() : g.b.data();
    double* to = even ? g.b.data() : g.a.data();
    tbb::parallel_for(
        tbb::blocked_range<int>(1, pr.nx - 1, heat_kernel::leaf_rows),
        [&pr, from, to](const tbb::blocked_range<int>& r) {
          heat_kernel::step_rows(pr, from, to, r.begin(), r.end());
        },
        tbb::simple_partitioner());
  }
  out.seconds = clock.seconds();
  heat_kernel::check(out, pr, heat_kernel::result(pr, g), true);
  return out;
}
