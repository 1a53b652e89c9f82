// scan, OpenMP tasks: the two-pass blocked scan, each parallel pass split in halves over blocks
// down to one block, each half an `omp task` (the locus version's tree).
#include "../omp_tasks.hpp"
#include "../../kernel.hpp"
#include "common.hpp"

namespace {

void scan(scan_kernel::instance& in) {
  const scan_kernel::passes p = in.pointers();
  const auto nb = static_cast<long>(p.count());
  bench::omp_tasks_for(0, nb, 1, [&p](long lo, long hi) {
    for (long b = lo; b < hi; ++b)
      p.sum(static_cast<std::size_t>(b));
  });
  p.offsets();
  bench::omp_tasks_for(0, nb, 1, [&p](long lo, long hi) {
    for (long b = lo; b < hi; ++b)
      p.scan(static_cast<std::size_t>(b));
  });
}

}  // namespace

bench::outcome scan_omp_tasks(const bench::args& a) {
  return bench::measure(a.size, scan_kernel::setup, scan, scan_kernel::check);
}
