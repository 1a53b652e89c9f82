// fdtd, oneTBB: per step, one parallel_for over row blocks per phase.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome fdtd_tbb(const bench::args& a) {
  const auto body = [](fdtd_kernel::instance& in) {
    const fdtd_kernel::view v = in.pointers();
    for (int t = 0; t < in.pr.tmax; ++t) {
      tbb::parallel_for(
          tbb::blocked_range<int>(0, v.nx, fdtd_kernel::block_rows),
          [&v, t](const tbb::blocked_range<int>& r) {
            fdtd_kernel::electric_rows(v, t, r.begin(), r.end());
          },
          tbb::simple_partitioner());
      tbb::parallel_for(
          tbb::blocked_range<int>(0, v.nx - 1, fdtd_kernel::block_rows),
          [&v](const tbb::blocked_range<int>& r) {
            fdtd_kernel::magnetic_rows(v, r.begin(), r.end());
          },
          tbb::simple_partitioner());
    }
  };
  return bench::measure(a.size, fdtd_kernel::setup, body, fdtd_kernel::check);
}
