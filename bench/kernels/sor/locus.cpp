// sor, locus: per half-sweep, the interior rows are split in halves recursively (the first half
// spawned, the second called) down to block_rows rows. Each half-sweep's root declares the rows
// it updates (locus/data.hpp; red-black: read and write the same grid), so its leaves inherit
// exactly their rows; the setup first-touches the grid in tasks of the same decomposition.
#include <locus/locus.hpp>

#include <vector>

#include "../../kernel.hpp"
#include "../locus_rows.hpp"
#include "common.hpp"

namespace {

locus::task<void> solve(double* grid, int n, int iters) {
  for (int it = 0; it < iters; ++it) {
    for (int colour = 0; colour < 2; ++colour) {
      const auto leaf = [grid, n, colour](int lo, int hi) {
        sor_kernel::sweep_rows(grid, n, colour, lo, hi);
      };
      auto sweep = locus::with_data(bench::split_rows(1, n - 1, sor_kernel::block_rows, &leaf),
                                    bench::rows_of(grid, n, 1, n - 1, locus::access::read_write),
                                    bench::row_split<double>(n));
      co_await std::move(sweep);
    }
  }
}

/// Rewrites the interior with its own initial values in tasks: the pages are first touched
/// (homed) by the workers of the sweeps' decomposition.
locus::task<void> first_touch(double* grid, const std::vector<double>* initial, int n) {
  const auto leaf = [grid, initial, n](int lo, int hi) {
    for (int i = lo; i < hi; ++i)
      for (int j = 0; j < n; ++j)
        grid[static_cast<std::size_t>(i) * n + j] = (*initial)[static_cast<std::size_t>(i) * n + j];
  };
  auto init = locus::with_data(bench::split_rows(1, n - 1, sor_kernel::block_rows, &leaf),
                               bench::rows_of(grid, n, 1, n - 1, locus::access::write),
                               bench::row_split<double>(n));
  co_await std::move(init);
}

}  // namespace

bench::outcome sor_locus(const bench::args& a) {
  const auto setup = [&a](const std::string& size) {
    sor_kernel::instance in = sor_kernel::setup(size);
    const std::vector<double> initial = in.g;
    a.rt->run(first_touch(in.g.data(), &initial, in.pr.n));
    a.rt->reset_stats();  // what follows is the kernel's
    return in;
  };
  const auto body = [&a](sor_kernel::instance& in) {
    a.rt->run(solve(in.g.data(), in.pr.n, in.pr.iters));
  };
  return bench::measure(a.size, setup, body, sor_kernel::check);
}
