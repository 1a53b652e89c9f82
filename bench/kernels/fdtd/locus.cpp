// fdtd, locus: per step, each phase's rows are split in halves recursively (the first half
// spawned, the second called) down to block_rows rows. Each phase's root declares the rows it
// reads and writes (locus/data.hpp; the one row a stencil reads across a leaf's edge is left
// out, LAWS's boundary data), so its leaves inherit exactly their rows; the setup first-touches
// the fields in tasks of the same decomposition, untimed.
#include <locus/locus.hpp>

#include <array>

#include "../../kernel.hpp"
#include "../locus_rows.hpp"
#include "common.hpp"

namespace {

using fdtd_kernel::view;
using locus::access;

locus::task<void> solve(view v, int tmax) {
  const auto split = bench::row_split<double>(v.ny);
  for (int t = 0; t < tmax; ++t) {
    const auto electric = [v, t](int lo, int hi) { fdtd_kernel::electric_rows(v, t, lo, hi); };
    const std::array<locus::data_range, 3> e{
        bench::rows_of(v.ey, v.ny, 0, v.nx, access::read_write),
        bench::rows_of(v.ex, v.ny, 0, v.nx, access::read_write),
        bench::rows_of(v.hz, v.ny, 0, v.nx, access::read)};
    auto phase1 =
        locus::with_data(bench::split_rows(0, v.nx, fdtd_kernel::block_rows, &electric), e, split);
    co_await std::move(phase1);
    if (v.nx < 2) continue;
    const auto magnetic = [v](int lo, int hi) { fdtd_kernel::magnetic_rows(v, lo, hi); };
    const std::array<locus::data_range, 3> m{
        bench::rows_of(v.hz, v.ny, 0, v.nx - 1, access::read_write),
        bench::rows_of(v.ex, v.ny, 0, v.nx - 1, access::read),
        bench::rows_of(v.ey, v.ny, 0, v.nx - 1, access::read)};
    auto phase2 = locus::with_data(
        bench::split_rows(0, v.nx - 1, fdtd_kernel::block_rows, &magnetic), m, split);
    co_await std::move(phase2);
  }
}

/// Rewrites the three fields with their initial values in tasks: the pages are first touched
/// (homed) by the workers of the phases' decomposition.
locus::task<void> first_touch(view v, const fdtd_kernel::fields* initial) {
  const auto leaf = [v, initial](int lo, int hi) {
    const std::size_t from = static_cast<std::size_t>(lo) * v.ny;
    const std::size_t to = static_cast<std::size_t>(hi) * v.ny;
    for (std::size_t k = from; k < to; ++k) {
      v.ex[k] = initial->ex[k];
      v.ey[k] = initial->ey[k];
      v.hz[k] = initial->hz[k];
    }
  };
  const std::array<locus::data_range, 3> w{bench::rows_of(v.ex, v.ny, 0, v.nx, access::write),
                                           bench::rows_of(v.ey, v.ny, 0, v.nx, access::write),
                                           bench::rows_of(v.hz, v.ny, 0, v.nx, access::write)};
  auto init = locus::with_data(bench::split_rows(0, v.nx, fdtd_kernel::block_rows, &leaf), w,
                               bench::row_split<double>(v.ny));
  co_await std::move(init);
}

}  // namespace

bench::outcome fdtd_locus(const bench::args& a) {
  const auto setup = [&a](const std::string& size) {
    fdtd_kernel::instance in = fdtd_kernel::setup(size);
    const fdtd_kernel::fields initial = in.f;
    a.rt->run(first_touch(in.pointers(), &initial));
    a.rt->reset_stats();  // what follows is the kernel's
    return in;
  };
  const auto body = [&a](fdtd_kernel::instance& in) {
    a.rt->run(solve(in.pointers(), in.pr.tmax));
  };
  return bench::measure(a.size, setup, body, fdtd_kernel::check);
}
