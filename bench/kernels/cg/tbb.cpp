// cg, oneTBB: every vector loop is a parallel_for or parallel_reduce over blocks of rows.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <cmath>

#include "../../kernel.hpp"
#include "common.hpp"

namespace {

using namespace cg_kernel;

/// Sum of f(lo, hi) over the row blocks.
template <class T, class F>
T reduce(int n, F f) {
  return tbb::parallel_reduce(
      tbb::blocked_range<int>(0, n, block_rows), T{},
      [&f](const tbb::blocked_range<int>& r, T acc) { return acc + f(r.begin(), r.end()); },
      [](const T& x, const T& y) { return x + y; });
}

/// f(lo, hi) over the row blocks.
template <class F>
void loop(int n, F f) {
  tbb::parallel_for(tbb::blocked_range<int>(0, n, block_rows),
                    [&f](const tbb::blocked_range<int>& r) { f(r.begin(), r.end()); });
}

double conj_grad(const state& s) {
  const int n = s.n;
  double rho = reduce<double>(n, [&s](int lo, int hi) { return start_block(s, lo, hi); });
  for (int it = 0; it < cg_iterations; ++it) {
    const double d = reduce<double>(
        n, [&s](int lo, int hi) { return multiply_block(s, s.p, s.q, s.p, lo, hi); });
    const double alpha = rho / d;
    const double rho0 = rho;
    rho = reduce<double>(n, [&s, alpha](int lo, int hi) { return step_block(s, alpha, lo, hi); });
    const double beta = rho / rho0;
    loop(n, [&s, beta](int lo, int hi) { direction_block(s, beta, lo, hi); });
  }
  return std::sqrt(reduce<double>(n, [&s](int lo, int hi) { return residual_block(s, lo, hi); }));
}

/// NPB's outer loop.
answer solve(instance& in) {
  const state s = in.pointers();
  answer r;
  for (int it = 0; it < in.c.niter; ++it) {
    r.rnorm = conj_grad(s);
    const norms nm = reduce<norms>(s.n, [&s](int lo, int hi) { return norms_block(s, lo, hi); });
    r.zeta = in.c.shift + 1.0 / nm.xz;
    const double scale = 1.0 / std::sqrt(nm.zz);
    loop(s.n, [&s, scale](int lo, int hi) { normalize_block(s, scale, lo, hi); });
  }
  return r;
}

}  // namespace

bench::outcome cg_tbb(const bench::args& a) {
  return bench::measure(a.size, setup, solve, check);
}
