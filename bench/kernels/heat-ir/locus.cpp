// heat-ir, locus: heat's split (halves down to leaf_rows rows, first spawned, second called),
// one root per time step (bench::run_iterations), every task declaring the rows it reads,
// halo rows included, and the rows it writes (locus_declared_rows.hpp):
//   read  from[lo - 1, hi + 1)   write  to[lo, hi)
// Both grids come from locus's allocator and are first-touched in tasks of the same split
// (the first and last leaves also write the boundary rows, zeros, so the halo rows are homed).
#include <locus/locus.hpp>

#include <cmath>

#include "../../kernel.hpp"
#include "../iterative.hpp"
#include "../locus_declared_rows.hpp"
#include "common.hpp"

namespace {

using heat_kernel::instance;
using heat_kernel::problem;

locus::task<void> step(instance* in, int t) {
  const problem& pr = in->pr;
  const double* from = in->from(t);
  double* to = in->to(t);
  const auto leaf = [&pr, from, to](int lo, int hi) {
    heat_ir_kernel::step_rows(pr, from, to, lo, hi);
  };
  const auto declare = [&pr, from, to](int lo, int hi) {
    bench::ranges<2> d;
    d.add(from + static_cast<std::size_t>(lo - 1) * pr.ny,
          static_cast<std::size_t>(hi - lo + 2) * pr.ny, locus::access::read);
    d.add(to + static_cast<std::size_t>(lo) * pr.ny, static_cast<std::size_t>(hi - lo) * pr.ny,
          locus::access::write);
    return d;
  };
  co_await bench::rows_declared(1, pr.nx - 1, heat_kernel::leaf_rows, &leaf, &declare);
}

/// Rows [lo, hi) widened to the boundary row at either end of the interior.
void widen(const problem& pr, int& lo, int& hi) {
  if (lo == 1) lo = 0;
  if (hi == pr.nx - 1) hi = pr.nx;
}

locus::task<void> first_touch(instance* in) {
  const problem& pr = in->pr;
  double* a = in->g.a.data();
  double* b = in->g.b.data();
  const auto leaf = [&pr, a, b](int lo, int hi) {
    widen(pr, lo, hi);
    for (int i = lo; i < hi; ++i) {
      const bool interior_row = i > 0 && i < pr.nx - 1;
      const double sx = std::sin(i * pr.dx);
      for (int j = 0; j < pr.ny; ++j) {
        const std::size_t x = static_cast<std::size_t>(i) * pr.ny + j;
        const bool inside = interior_row && j > 0 && j < pr.ny - 1;
        a[x] = inside ? sx * std::sin(j * pr.dy) : 0.0;
        b[x] = 0.0;
      }
    }
  };
  const auto declare = [&pr, a, b](int lo, int hi) {
    widen(pr, lo, hi);
    const std::size_t first = static_cast<std::size_t>(lo) * pr.ny;
    const std::size_t count = static_cast<std::size_t>(hi - lo) * pr.ny;
    bench::ranges<2> d;
    d.add(a + first, count, locus::access::write).add(b + first, count, locus::access::write);
    return d;
  };
  co_await bench::rows_declared(1, pr.nx - 1, heat_kernel::leaf_rows, &leaf, &declare);
}

}  // namespace

bench::outcome heat_ir_locus(const bench::args& a) {
  const auto setup = [&a](const std::string& size) {
    const problem pr = heat_kernel::parse(size);
    instance in{pr, heat_kernel::untouched(*a.rt, pr)};
    a.rt->run(first_touch(&in));
    a.rt->reset_stats();  // what follows is the kernel's
    return in;
  };
  const auto body = [&a](instance& in) {
    bench::run_iterations(*a.rt, static_cast<std::size_t>(in.pr.nt),
                          [&in](std::size_t t) { return step(&in, static_cast<int>(t)); });
  };
  return bench::measure(a.size, setup, body, heat_kernel::check);
}
