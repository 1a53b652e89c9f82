// sor-ir, locus: sor's split (halves down to block_rows rows, first spawned, second called),
// one root per half-sweep (bench::run_iterations: iteration h is colour h % 2), every task
// declaring (locus_declared_rows.hpp) the rows it updates and the halo rows next to them,
// whose other-colour points it reads:
//   read/write  g[lo, hi)    read  row lo - 1, row hi
// The grid comes from locus's allocator and is first-touched in tasks of the same split,
// copying the initial values (drawn serially into a temporary); the first and last leaves also
// write the boundary rows.
#include <locus/locus.hpp>

#include <vector>

#include "../../kernel.hpp"
#include "../iterative.hpp"
#include "../locus_declared_rows.hpp"
#include "common.hpp"

namespace {

locus::task<void> half_sweep(double* g, int n, int colour) {
  const auto leaf = [g, n, colour](int lo, int hi) {
    sor_ir_kernel::sweep_rows(g, n, colour, lo, hi);
  };
  const auto declare = [g, n](int lo, int hi) {
    const auto row = [g, n](int i) { return g + static_cast<std::size_t>(i) * n; };
    bench::ranges<3> d;
    d.add(row(lo), static_cast<std::size_t>(hi - lo) * n, locus::access::read_write)
        .add(row(lo - 1), static_cast<std::size_t>(n), locus::access::read)
        .add(row(hi), static_cast<std::size_t>(n), locus::access::read);
    return d;
  };
  co_await bench::rows_declared(1, n - 1, sor_kernel::block_rows, &leaf, &declare);
}

locus::task<void> first_touch(double* g, const std::vector<double>* initial, int n) {
  const auto widen = [n](int& lo, int& hi) {
    if (lo == 1) lo = 0;
    if (hi == n - 1) hi = n;
  };
  const auto leaf = [g, initial, n, widen](int lo, int hi) {
    widen(lo, hi);
    const std::size_t first = static_cast<std::size_t>(lo) * n;
    const std::size_t last = static_cast<std::size_t>(hi) * n;
    for (std::size_t x = first; x < last; ++x)
      g[x] = (*initial)[x];
  };
  const auto declare = [g, n, widen](int lo, int hi) {
    widen(lo, hi);
    bench::ranges<1> d;
    d.add(g + static_cast<std::size_t>(lo) * n, static_cast<std::size_t>(hi - lo) * n,
          locus::access::write);
    return d;
  };
  co_await bench::rows_declared(1, n - 1, sor_kernel::block_rows, &leaf, &declare);
}

}  // namespace

bench::outcome sor_ir_locus(const bench::args& a) {
  const auto setup = [&a](const std::string& size) {
    sor_kernel::instance in{sor_kernel::parse(size), {}};
    const std::vector<double> initial = sor_kernel::initial(in.pr);
    in.g = bench::grid_buffer<double>(*a.rt, initial.size());
    a.rt->run(first_touch(in.g.data(), &initial, in.pr.n));
    a.rt->reset_stats();  // what follows is the kernel's
    return in;
  };
  const auto body = [&a](sor_kernel::instance& in) {
    double* g = in.g.data();
    const int n = in.pr.n;
    bench::run_iterations(*a.rt, 2 * static_cast<std::size_t>(in.pr.iters), [g, n](std::size_t h) {
      return half_sweep(g, n, static_cast<int>(h % 2));
    });
  };
  return bench::measure(a.size, setup, body, sor_ir_kernel::check);
}
