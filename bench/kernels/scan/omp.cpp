// scan, OpenMP: the two-pass blocked scan with a static loop over blocks per parallel pass.
#include "../../kernel.hpp"
#include "common.hpp"

namespace {

void scan(scan_kernel::instance& in) {
  const scan_kernel::passes p = in.pointers();
  const std::size_t nb = p.count();
#pragma omp parallel for schedule(static)
  for (std::size_t b = 0; b < nb; ++b)
    p.sum(b);
  p.offsets();
#pragma omp parallel for schedule(static)
  for (std::size_t b = 0; b < nb; ++b)
    p.scan(b);
}

}  // namespace

bench::outcome scan_omp(const bench::args& a) {
  return bench::measure(a.size, scan_kernel::setup, scan, scan_kernel::check);
}
