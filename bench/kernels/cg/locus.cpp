// cg, locus: every vector loop is a locus::parallel_for or parallel_reduce over blocks of rows,
// awaited inside one task that runs NPB's outer loop.
#include <locus/locus.hpp>

#include <cmath>

#include "../../kernel.hpp"
#include "common.hpp"

namespace {

using namespace cg_kernel;

constexpr auto add = [](double x, double y) { return x + y; };

/// One conj_grad call; returns NPB's ||x - A z||.
locus::task<double> conj_grad(state s) {
  const int n = s.n;
  double rho = co_await locus::parallel_reduce(
      0, n, block_rows, 0.0, [s](int lo, int hi) { return start_block(s, lo, hi); }, add);
  for (int it = 0; it < cg_iterations; ++it) {
    const double d = co_await locus::parallel_reduce(
        0, n, block_rows, 0.0,
        [s](int lo, int hi) { return multiply_block(s, s.p, s.q, s.p, lo, hi); }, add);
    const double alpha = rho / d;
    const double rho0 = rho;
    rho = co_await locus::parallel_reduce(
        0, n, block_rows, 0.0, [s, alpha](int lo, int hi) { return step_block(s, alpha, lo, hi); },
        add);
    const double beta = rho / rho0;
    co_await locus::parallel_for(0, n, block_rows,
                                 [s, beta](int lo, int hi) { direction_block(s, beta, lo, hi); });
  }
  const double sum = co_await locus::parallel_reduce(
      0, n, block_rows, 0.0, [s](int lo, int hi) { return residual_block(s, lo, hi); }, add);
  co_return std::sqrt(sum);
}

/// NPB's outer loop; returns zeta and stores the last residual norm in *rnorm.
locus::task<double> solve(state s, int niter, double shift, double* rnorm) {
  double zeta = 0;
  for (int it = 0; it < niter; ++it) {
    *rnorm = co_await conj_grad(s);
    const norms nm = co_await locus::parallel_reduce(
        0, s.n, block_rows, norms{}, [s](int lo, int hi) { return norms_block(s, lo, hi); },
        [](norms x, norms y) { return x + y; });
    zeta = shift + 1.0 / nm.xz;
    const double scale = 1.0 / std::sqrt(nm.zz);
    co_await locus::parallel_for(0, s.n, block_rows,
                                 [s, scale](int lo, int hi) { normalize_block(s, scale, lo, hi); });
  }
  co_return zeta;
}

}  // namespace

bench::outcome cg_locus(const bench::args& a) {
  const auto body = [&a](instance& in) {
    answer r;
    r.zeta = a.rt->run(solve(in.pointers(), in.c.niter, in.c.shift, &r.rnorm));
    return r;
  };
  return bench::measure(a.size, setup, body, check);
}
