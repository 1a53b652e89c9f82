// floyd, oneTBB: for each k, parallel_for over a blocked_range2d of the (i, j) square, split
// recursively (simple_partitioner) down to leaf_rows x leaf_cols blocks.
#include <tbb/blocked_range2d.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome floyd_tbb(const bench::args& a) {
  const auto body = [](floyd_kernel::instance& in) {
    in.for_each_pivot([](const floyd_kernel::step& s) {
      tbb::parallel_for(
          tbb::blocked_range2d<int>(0, s.n, floyd_kernel::leaf_rows, 0, s.n,
                                    floyd_kernel::leaf_cols),
          [s](const tbb::blocked_range2d<int>& r) {
            s.relax(r.rows().begin(), r.rows().end(), r.cols().begin(), r.cols().end());
          },
          tbb::simple_partitioner());
    });
  };
  return bench::measure(a.size, floyd_kernel::setup, body, floyd_kernel::check);
}
