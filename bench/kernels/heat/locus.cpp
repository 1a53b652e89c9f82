// heat, locus: per time step, the interior rows are split in halves recursively; the first half
// is spawned, the second run inline, down to leaf_rows rows (Cilk's heat). Each step's root
// declares the rows it reads and writes (locus/data.hpp): its leaves inherit exactly their
// rows, so locality accounting (--accounting) sees every access. The setup first-touches both
// grids in tasks of the same decomposition, untimed.
#include <locus/locus.hpp>

#include <array>
#include <cmath>

#include "../../kernel.hpp"
#include "../locus_rows.hpp"
#include "common.hpp"

namespace {

using heat_kernel::instance;

locus::task<void> solve(instance* in) {
  const heat_kernel::problem& pr = in->pr;
  for (int t = 0; t < pr.nt; ++t) {
    const double* from = in->from(t);
    double* to = in->to(t);
    const auto leaf = [&pr, from, to](int lo, int hi) {
      heat_kernel::step_rows(pr, from, to, lo, hi);
    };
    const std::array<locus::data_range, 2> data{
        bench::rows_of(from, pr.ny, 1, pr.nx - 1, locus::access::read),
        bench::rows_of(to, pr.ny, 1, pr.nx - 1, locus::access::write)};
    auto step = locus::with_data(bench::split_rows(1, pr.nx - 1, heat_kernel::leaf_rows, &leaf),
                                 data, bench::row_split<double>(pr.ny));
    co_await std::move(step);
  }
}

/// Writes the initial value into `a` and zeros into `b`, interior rows, in tasks: the pages
/// are first touched (and so homed) by the workers that will step them.
locus::task<void> first_touch(instance* in) {
  const heat_kernel::problem& pr = in->pr;
  double* a = in->g.a.data();
  double* b = in->g.b.data();
  const auto leaf = [&pr, a, b](int lo, int hi) {
    for (int i = lo; i < hi; ++i) {
      const double sx = std::sin(i * pr.dx);
      for (int j = 1; j < pr.ny - 1; ++j) {
        a[static_cast<std::size_t>(i) * pr.ny + j] = sx * std::sin(j * pr.dy);
        b[static_cast<std::size_t>(i) * pr.ny + j] = 0.0;
      }
    }
  };
  const std::array<locus::data_range, 2> data{
      bench::rows_of(a, pr.ny, 1, pr.nx - 1, locus::access::write),
      bench::rows_of(b, pr.ny, 1, pr.nx - 1, locus::access::write)};
  auto init = locus::with_data(bench::split_rows(1, pr.nx - 1, heat_kernel::leaf_rows, &leaf), data,
                               bench::row_split<double>(pr.ny));
  co_await std::move(init);
}

}  // namespace

bench::outcome heat_locus(const bench::args& a) {
  const auto setup = [&a](const std::string& size) {
    instance in = heat_kernel::setup(size);
    a.rt->run(first_touch(&in));
    a.rt->reset_stats();  // what follows is the kernel's
    return in;
  };
  const auto body = [&a](instance& in) { a.rt->run(solve(&in)); };
  return bench::measure(a.size, setup, body, heat_kernel::check);
}
