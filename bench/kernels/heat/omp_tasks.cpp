// heat, OpenMP tasks: the setup rewrites both grids' interior in tasks (their first touch, as
// the locus version's), then per time step the interior rows are split in halves recursively
// down to leaf_rows rows, each half an `omp task` (Cilk's heat, the locus version's tree).
#include <cmath>

#include "../../kernel.hpp"
#include "../omp_tasks.hpp"
#include "common.hpp"

namespace {

using heat_kernel::instance;

instance setup_in_tasks(const std::string& size) {
  instance in = heat_kernel::setup(size);
  const heat_kernel::problem& pr = in.pr;
  double* a = in.g.a.data();
  double* b = in.g.b.data();
  bench::omp_tasks_for(1, pr.nx - 1, heat_kernel::leaf_rows, [&pr, a, b](long lo, long hi) {
    for (long i = lo; i < hi; ++i) {
      const double sx = std::sin(static_cast<double>(i) * pr.dx);
      for (int j = 1; j < pr.ny - 1; ++j) {
        a[static_cast<std::size_t>(i) * pr.ny + j] = sx * std::sin(j * pr.dy);
        b[static_cast<std::size_t>(i) * pr.ny + j] = 0.0;
      }
    }
  });
  return in;
}

}  // namespace

bench::outcome heat_omp_tasks(const bench::args& a) {
  const auto body = [](instance& in) {
    const heat_kernel::problem& pr = in.pr;
    in.for_each_step([&pr](const double* from, double* to) {
      bench::omp_tasks_for(1, pr.nx - 1, heat_kernel::leaf_rows, [&pr, from, to](long lo, long hi) {
        heat_kernel::step_rows(pr, from, to, static_cast<int>(lo), static_cast<int>(hi));
      });
    });
  };
  return bench::measure(a.size, setup_in_tasks, body, heat_kernel::check);
}
