// sor, locus: per half-sweep, the interior rows are split in halves recursively (the first half
// spawned, the second called) down to block_rows rows; each half-sweep is a root of its own
// (bench::run_iterations: iteration h is colour h % 2 of full iteration h / 2). Each
// half-sweep's root declares the rows it updates (locus/data.hpp; red-black: read and write the
// same grid), so its leaves inherit exactly their rows. The grid comes from locus's allocator
// (grid_buffer), untouched; the setup first-touches it in tasks of the same decomposition,
// copying the initial values drawn (serially, by the fixed-seed generator) into a temporary.
#include <locus/locus.hpp>

#include <vector>

#include "../../kernel.hpp"
#include "../iterative.hpp"
#include "../locus_rows.hpp"
#include "common.hpp"

namespace {

/// Half-sweep of `colour` over the interior rows.
locus::task<void> half_sweep(double* grid, int n, int colour) {
  const auto leaf = [grid, n, colour](int lo, int hi) {
    sor_kernel::sweep_rows(grid, n, colour, lo, hi);
  };
  auto sweep = locus::with_data(bench::split_rows(1, n - 1, sor_kernel::block_rows, &leaf),
                                bench::rows_of(grid, n, 1, n - 1, locus::access::read_write),
                                bench::row_split<double>(n));
  co_await std::move(sweep);
}

/// Copies the initial values into the grid in tasks: the pages are first touched (homed) by
/// the workers of the sweeps' decomposition. The first and last leaves also write the boundary
/// rows 0 and n-1 (touch(): the root's ranges are the interior rows, as the sweeps').
locus::task<void> first_touch(double* grid, const std::vector<double>* initial, int n) {
  const auto leaf = [grid, initial, n](int lo, int hi) {
    const int first = lo == 1 ? 0 : lo;
    const int last = hi == n - 1 ? n : hi;
    for (int i = first; i < last; ++i)
      for (int j = 0; j < n; ++j)
        grid[static_cast<std::size_t>(i) * n + j] = (*initial)[static_cast<std::size_t>(i) * n + j];
    if (first == 0)
      locus::touch(grid, static_cast<std::size_t>(n) * sizeof(double), locus::access::write);
    if (last == n) {
      locus::touch(grid + static_cast<std::size_t>(n - 1) * n,
                   static_cast<std::size_t>(n) * sizeof(double), locus::access::write);
    }
  };
  auto init = locus::with_data(bench::split_rows(1, n - 1, sor_kernel::block_rows, &leaf),
                               bench::rows_of(grid, n, 1, n - 1, locus::access::write),
                               bench::row_split<double>(n));
  co_await std::move(init);
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
