// scan, serial: one running sum over the whole array.
#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome scan_serial(const bench::args& a) {
  const std::size_t n = scan_kernel::parse(a.size);
  const std::vector<double> in = scan_kernel::input(n);
  std::vector<double> result(n);
  bench::outcome out;
  const bench::stopwatch clock;
  scan_kernel::block_scan(in.data(), result.data(), 0, n, 0.0);
  out.seconds = clock.seconds();
  scan_kernel::check(out, result);
  return out;
}
