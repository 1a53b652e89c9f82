// scan, locus: the two-pass blocked scan with one parallel_for over blocks per parallel pass.
#include <locus/locus.hpp>

#include <algorithm>

#include "../../kernel.hpp"
#include "common.hpp"

namespace {

using scan_kernel::block;

locus::task<void> scan(const double* src, double* dst, double* part, std::size_t n) {
  const std::size_t nb = scan_kernel::blocks(n);
  co_await locus::parallel_for(std::size_t{0}, nb, std::size_t{1}, [src, part, n](std::size_t b) {
    part[b] = scan_kernel::block_sum(src, b * block, std::min(n, (b + 1) * block));
  });
  scan_kernel::offsets_from_sums(part, nb);
  co_await locus::parallel_for(
      std::size_t{0}, nb, std::size_t{1}, [src, dst, part, n](std::size_t b) {
        scan_kernel::block_scan(src, dst, b * block, std::min(n, (b + 1) * block), part[b]);
      });
}

}  // namespace

bench::outcome scan_locus(const bench::args& a) {
  const std::size_t n = scan_kernel::parse(a.size);
  const std::vector<double> in = scan_kernel::input(n);
  std::vector<double> result(n);
  std::vector<double> sums(scan_kernel::blocks(n));
  bench::outcome out;
  const bench::stopwatch clock;
  a.rt->run(scan(in.data(), result.data(), sums.data(), n));
  out.seconds = clock.seconds();
  scan_kernel::check(out, result);
  return out;
}
