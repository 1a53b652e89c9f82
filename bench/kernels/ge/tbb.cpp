// ge, oneTBB: per pivot, parallel_for over the rows below it with simple_partitioner, split
// down to `leaf` rows as the locus version's tree.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome ge_tbb(const bench::args& a) {
  const auto body = [](ge_kernel::instance& in) {
    const ge_kernel::problem& pr = in.pr;
    double* m = in.a.data();
    for (int k = 0; k + 1 < pr.n; ++k) {
      tbb::parallel_for(
          tbb::blocked_range<int>(k + 1, pr.n, pr.leaf),
          [&pr, m, k](const tbb::blocked_range<int>& r) {
            ge_kernel::update_rows(pr, m, k, r.begin(), r.end());
          },
          tbb::simple_partitioner());
    }
  };
  return bench::measure(a.size, ge_kernel::setup, body, ge_kernel::check);
}
