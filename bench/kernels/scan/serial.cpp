// scan, serial: one running sum over the whole array.
#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome scan_serial(const bench::args& a) {
  const auto body = [](scan_kernel::instance& in) {
    scan_kernel::block_scan(in.values.data(), in.result.data(), 0, in.n, 0.0);
  };
  return bench::measure(a.size, scan_kernel::setup, body, scan_kernel::check);
}
