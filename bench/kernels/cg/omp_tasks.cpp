// cg, OpenMP tasks: every vector loop split in halves over rows down to block_rows rows, each
// half an `omp task`, the sums combined along the split tree (omp_tasks_reduce: the locus
// version's parallel_reduce tree, so its sums match locus's bit for bit); one parallel region
// per loop.
#include <cmath>

#include "../../kernel.hpp"
#include "../omp_tasks.hpp"
#include "common.hpp"

namespace {

using namespace cg_kernel;

/// sum of f(lo, hi) over the blocks of rows.
template <class T, class F>
T reduce(const state& s, const F& f) {
  return bench::omp_tasks_reduce<T>(0, s.n, block_rows, [&f](long lo, long hi) {
    return f(static_cast<int>(lo), static_cast<int>(hi));
  });
}

/// f(lo, hi) over the blocks of rows.
template <class F>
void each(const state& s, const F& f) {
  bench::omp_tasks_for(0, s.n, block_rows,
                       [&f](long lo, long hi) { f(static_cast<int>(lo), static_cast<int>(hi)); });
}

double conj_grad(const state& s) {
  double rho = reduce<double>(s, [&s](int lo, int hi) { return start_block(s, lo, hi); });
  for (int it = 0; it < cg_iterations; ++it) {
    const double d = reduce<double>(
        s, [&s](int lo, int hi) { return multiply_block(s, s.p, s.q, s.p, lo, hi); });
    const double alpha = rho / d;
    const double rho0 = rho;
    rho = reduce<double>(s, [&s, alpha](int lo, int hi) { return step_block(s, alpha, lo, hi); });
    const double beta = rho / rho0;
    each(s, [&s, beta](int lo, int hi) { direction_block(s, beta, lo, hi); });
  }
  return std::sqrt(reduce<double>(s, [&s](int lo, int hi) { return residual_block(s, lo, hi); }));
}

/// NPB's outer loop.
answer solve(instance& in) {
  const state s = in.pointers();
  answer r;
  for (int it = 0; it < in.c.niter; ++it) {
    r.rnorm = conj_grad(s);
    const norms nm = reduce<norms>(s, [&s](int lo, int hi) { return norms_block(s, lo, hi); });
    r.zeta = in.c.shift + 1.0 / nm.xz;
    const double scale = 1.0 / std::sqrt(nm.zz);
    each(s, [&s, scale](int lo, int hi) { normalize_block(s, scale, lo, hi); });
  }
  return r;
}

}  // namespace

bench::outcome cg_omp_tasks(const bench::args& a) {
  return bench::measure(a.size, setup, solve, check);
}
