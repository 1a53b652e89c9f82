// scan, oneTBB: the two-pass blocked scan with one parallel_for per parallel pass. (TBB has
// parallel_scan, but the papers compare the same two-pass blocked algorithm everywhere.)
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome scan_tbb(const bench::args& a) {
  using scan_kernel::block;
  const std::size_t n = scan_kernel::parse(a.size);
  const std::vector<double> in = scan_kernel::input(n);
  std::vector<double> result(n);
  const std::size_t nb = scan_kernel::blocks(n);
  std::vector<double> sums(nb);
  const double* src = in.data();
  double* dst = result.data();
  double* part = sums.data();
  bench::outcome out;
  const bench::stopwatch clock;
  tbb::parallel_for(
      tbb::blocked_range<std::size_t>(0, nb, 1),
      [src, part, n](const tbb::blocked_range<std::size_t>& r) {
        for (std::size_t b = r.begin(); b < r.end(); ++b) {
          part[b] = scan_kernel::block_sum(src, b * block, std::min(n, (b + 1) * block));
        }
      },
      tbb::simple_partitioner());
  scan_kernel::offsets_from_sums(part, nb);
  tbb::parallel_for(
      tbb::blocked_range<std::size_t>(0, nb, 1),
      [src, dst, part, n](const tbb::blocked_range<std::size_t>& r) {
        for (std::size_t b = r.begin(); b < r.end(); ++b) {
          scan_kernel::block_scan(src, dst, b * block, std::min(n, (b + 1) * block), part[b]);
        }
      },
      tbb::simple_partitioner());
  out.seconds = clock.seconds();
  scan_kernel::check(out, result);
  return out;
}
