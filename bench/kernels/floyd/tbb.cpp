// floyd, oneTBB: for each k, parallel_for over a blocked_range2d of the (i, j) square, split
// recursively (simple_partitioner) down to leaf_rows x leaf_cols blocks.
#include <tbb/blocked_range2d.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome floyd_tbb(const bench::args& a) {
  using floyd_kernel::dist;
  const int n = floyd_kernel::parse(a.size);
  std::vector<dist> d = floyd_kernel::graph(n);
  std::vector<dist> row(n);
  std::vector<dist> col(n);
  dist* m = d.data();
  const dist* pr = row.data();
  const dist* pc = col.data();
  bench::outcome out;
  const bench::stopwatch clock;
  for (int k = 0; k < n; ++k) {
    floyd_kernel::take_pivot(m, n, k, row.data(), col.data());
    tbb::parallel_for(
        tbb::blocked_range2d<int>(0, n, floyd_kernel::leaf_rows, 0, n, floyd_kernel::leaf_cols),
        [m, n, pr, pc](const tbb::blocked_range2d<int>& r) {
          floyd_kernel::relax_block(m, n, pr, pc, r.rows().begin(), r.rows().end(),
                                    r.cols().begin(), r.cols().end());
        },
        tbb::simple_partitioner());
  }
  out.seconds = clock.seconds();
  floyd_kernel::check(out, n, d, true);
  return out;
}
