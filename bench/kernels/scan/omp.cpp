// scan, OpenMP: the two-pass blocked scan with a static loop over blocks per parallel pass.
#include <algorithm>

#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome scan_omp(const bench::args& a) {
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
#pragma omp parallel for schedule(static)
  for (std::size_t b = 0; b < nb; ++b) {
    part[b] = scan_kernel::block_sum(src, b * block, std::min(n, (b + 1) * block));
  }
  scan_kernel::offsets_from_sums(part, nb);
#pragma omp parallel for schedule(static)
  for (std::size_t b = 0; b < nb; ++b) {
    scan_kernel::block_scan(src, dst, b * block, std::min(n, (b + 1) * block), part[b]);
  }
  out.seconds = clock.seconds();
  scan_kernel::check(out, result);
  return out;
}
