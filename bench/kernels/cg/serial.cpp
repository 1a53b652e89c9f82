// cg, serial: NPB's outer loop and conj_grad, every loop over all rows at once.
#include <cmath>

#include "../../kernel.hpp"
#include "common.hpp"

namespace {

using namespace cg_kernel;

/// One conj_grad call: 25 CG iterations on A z = x; returns NPB's ||x - A z||.
double conj_grad(const state& s) {
  const int n = s.n;
  double rho = start_block(s, 0, n);
  for (int it = 0; it < cg_iterations; ++it) {
    const double d = multiply_block(s, s.p, s.q, s.p, 0, n);
    const double alpha = rho / d;
    const double rho0 = rho;
    rho = step_block(s, alpha, 0, n);
    direction_block(s, rho / rho0, 0, n);
  }
  return std::sqrt(residual_block(s, 0, n));
}

/// NPB's outer loop.
answer solve(instance& in) {
  const state s = in.pointers();
  answer r;
  for (int it = 0; it < in.c.niter; ++it) {
    r.rnorm = conj_grad(s);
    const norms nm = norms_block(s, 0, s.n);
    r.zeta = in.c.shift + 1.0 / nm.xz;
    normalize_block(s, 1.0 / std::sqrt(nm.zz), 0, s.n);
  }
  return r;
}

}  // namespace

bench::outcome cg_serial(const bench::args& a) {
  return bench::measure(a.size, setup, solve, check);
}
