// sor, locus: one parallel_for over row blocks per half-sweep, awaited inside one task.
#include <locus/locus.hpp>

#include "../../kernel.hpp"
#include "common.hpp"

namespace {

locus::task<void> solve(double* grid, int n, int iters) {
  for (int it = 0; it < iters; ++it) {
    for (int colour = 0; colour < 2; ++colour) {
      co_await locus::parallel_for(
          1, n - 1, sor_kernel::block_rows,
          [grid, n, colour](int lo, int hi) { sor_kernel::sweep_rows(grid, n, colour, lo, hi); });
    }
  }
}

}  // namespace

bench::outcome sor_locus(const bench::args& a) {
  const auto body = [&a](sor_kernel::instance& in) {
    a.rt->run(solve(in.g.data(), in.pr.n, in.pr.iters));
  };
  return bench::measure(a.size, sor_kernel::setup, body, sor_kernel::check);
}
