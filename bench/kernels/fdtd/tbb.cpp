// fdtd, oneTBB: per step, one parallel_for over row blocks per phase.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome fdtd_tbb(const bench::args& a) {
  const fdtd_kernel::problem pr = fdtd_kernel::parse(a.size);
  fdtd_kernel::fields f = fdtd_kernel::initial(pr);
  const fdtd_kernel::view v = fdtd_kernel::view_of(f, pr);
  bench::outcome out;
  const bench::stopwatch clock;
  for (int t = 0; t < pr.tmax; ++t) {
    tbb::parallel_for(
        tbb::blocked_range<int>(0, pr.nx, fdtd_kernel::block_rows),
        [&v, t](const tbb::blocked_range<int>& r) {
          fdtd_kernel::electric_rows(v, t, r.begin(), r.end());
        },
        tbb::simple_partitioner());
    tbb::parallel_for(
        tbb::blocked_range<int>(0, pr.nx - 1, fdtd_kernel::block_rows),
        [&v](const tbb::blocked_range<int>& r) {
          fdtd_kernel::magnetic_rows(v, r.begin(), r.end());
        },
        tbb::simple_partitioner());
  }
  out.seconds = clock.seconds();
  fdtd_kernel::check(out, pr, f);
  return out;
}
