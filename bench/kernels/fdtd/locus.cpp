// fdtd, locus: per step, one parallel_for over row blocks per phase, inside one task.
#include <locus/locus.hpp>

#include "../../kernel.hpp"
#include "common.hpp"

namespace {

locus::task<void> solve(fdtd_kernel::view v, int tmax) {
  for (int t = 0; t < tmax; ++t) {
    co_await locus::parallel_for(0, v.nx, fdtd_kernel::block_rows, [v, t](int lo, int hi) {
      fdtd_kernel::electric_rows(v, t, lo, hi);
    });
    co_await locus::parallel_for(0, v.nx - 1, fdtd_kernel::block_rows,
                                 [v](int lo, int hi) { fdtd_kernel::magnetic_rows(v, lo, hi); });
  }
}

}  // namespace

bench::outcome fdtd_locus(const bench::args& a) {
  const auto body = [&a](fdtd_kernel::instance& in) {
    a.rt->run(solve(in.pointers(), in.pr.tmax));
  };
  return bench::measure(a.size, fdtd_kernel::setup, body, fdtd_kernel::check);
}
