// scan, oneTBB: the two-pass blocked scan with one parallel_for per parallel pass. (TBB has
// parallel_scan, but the papers compare the same two-pass blocked algorithm everywhere.)
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

#include "../../kernel.hpp"
#include "common.hpp"

namespace {

void scan(scan_kernel::instance& in) {
  const scan_kernel::passes p = in.pointers();
  const tbb::blocked_range<std::size_t> blocks(0, p.count(), 1);
  tbb::parallel_for(
      blocks,
      [p](const tbb::blocked_range<std::size_t>& r) {
        for (std::size_t b = r.begin(); b < r.end(); ++b)
          p.sum(b);
      },
      tbb::simple_partitioner());
  p.offsets();
  tbb::parallel_for(
      blocks,
      [p](const tbb::blocked_range<std::size_t>& r) {
        for (std::size_t b = r.begin(); b < r.end(); ++b)
          p.scan(b);
      },
      tbb::simple_partitioner());
}

}  // namespace

bench::outcome scan_tbb(const bench::args& a) {
  return bench::measure(a.size, scan_kernel::setup, scan, scan_kernel::check);
}
