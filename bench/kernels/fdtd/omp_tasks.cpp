// fdtd, OpenMP tasks: per step, each phase's rows split in halves recursively down to
// block_rows rows, each half an `omp task` (the locus version's tree), one parallel region per
// phase.
#include "../omp_tasks.hpp"
#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome fdtd_omp_tasks(const bench::args& a) {
  const auto body = [](fdtd_kernel::instance& in) {
    const fdtd_kernel::view v = in.pointers();
    for (int t = 0; t < in.pr.tmax; ++t) {
      bench::omp_tasks_for(0, v.nx, fdtd_kernel::block_rows, [v, t](long lo, long hi) {
        fdtd_kernel::electric_rows(v, t, static_cast<int>(lo), static_cast<int>(hi));
      });
      if (v.nx < 2) continue;
      bench::omp_tasks_for(0, v.nx - 1, fdtd_kernel::block_rows, [v](long lo, long hi) {
        fdtd_kernel::magnetic_rows(v, static_cast<int>(lo), static_cast<int>(hi));
      });
    }
  };
  return bench::measure(a.size, fdtd_kernel::setup, body, fdtd_kernel::check);
}
