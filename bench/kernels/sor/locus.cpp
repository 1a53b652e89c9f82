// sor, locus: per half-sweep, the interior rows are split in halves recursively (the first half
// spawned, the second called) down to block_rows rows; each half-sweep is a root of its own
// (bench::run_iterations: iteration h is colour h % 2 of full iteration h / 2). Every task of
// the split declares its own data (locus_declared_rows.hpp, declared.hpp), halo rows included
// (red-black: a point reads the other colour's neighbours, in the rows next to the task's):
//   read/write  g[lo, hi)    read  row lo - 1, row hi
// The grid comes from locus's allocator (grid_buffer), untouched; the setup first-touches it in
// tasks of the same decomposition, copying the initial values drawn (serially, by the
// fixed-seed generator) into a temporary; the first and last leaves also write the boundary
// rows 0 and n-1, so the halo rows are homed.
#include <locus/locus.hpp>

#include <vector>

#include "../../kernel.hpp"
#include "../iterative.hpp"
#include "../locus_declared_rows.hpp"
#include "common.hpp"
#include "declared.hpp"

namespace {

/// Half-sweep of `colour` over the interior rows.
locus::task<void> half_sweep(double* grid, int n, int colour) {
  const auto leaf = [grid, n, colour](int lo, int hi) {
    sor_kernel::sweep_rows(grid, n, colour, lo, hi);
  };
  const auto declare = [grid, n](int lo, int hi) {
    return sor_kernel::sweep_ranges(grid, n, lo, hi);
  };
  co_await bench::rows_declared(1, n - 1, sor_kernel::block_rows, &leaf, &declare);
}

/// Copies the initial values into the grid in tasks: the pages are first touched (homed) by
/// the workers of the sweeps' decomposition, the boundary rows by the first and last leaves.
locus::task<void> first_touch(double* grid, const std::vector<double>* initial, int n) {
  const auto leaf = [grid, initial, n](int lo, int hi) {
    sor_kernel::widen_to_boundary(n, lo, hi);
    const std::size_t last = static_cast<std::size_t>(hi) * n;
    for (std::size_t x = static_cast<std::size_t>(lo) * n; x < last; ++x)
      grid[x] = (*initial)[x];
  };
  const auto declare = [grid, n](int lo, int hi) {
    return sor_kernel::first_touch_ranges(grid, n, lo, hi);
  };
  co_await bench::rows_declared(1, n - 1, sor_kernel::block_rows, &leaf, &declare);
}

}  // namespace

bench::outcome sor_locus(const bench::args& a) {
  const auto setup = [&a](const std::string& size) {
    sor_kernel::instance in{sor_kernel::parse(size), {}};
    const std::vector<double> initial = sor_kernel::initial(in.pr);
    in.g = bench::grid_buffer<double>(*a.rt, initial.size());
    a.rt->run(first_touch(in.g.data(), &initial, in.pr.n));
    a.rt->reset_stats();  // what follows is the kernel's
    return in;
  };
  const auto body = [&a](sor_kernel::instance& in) {
    double* grid = in.g.data();
    const int n = in.pr.n;
    bench::run_iterations(
        *a.rt, 2 * static_cast<std::size_t>(in.pr.iters),
        [grid, n](std::size_t h) { return half_sweep(grid, n, static_cast<int>(h % 2)); });
  };
  return bench::measure(a.size, setup, body, sor_kernel::check);
}
