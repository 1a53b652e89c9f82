// cg, OpenMP: every vector loop is a static loop over blocks of rows (NPB-OMP's scheme),
// with reduction clauses for the sums.
#include <algorithm>
#include <cmath>

#include "../../kernel.hpp"
#include "common.hpp"

namespace {

using namespace cg_kernel;

[[nodiscard]] int blocks(int n) {
  return (n + block_rows - 1) / block_rows;
}
[[nodiscard]] int block_end(int b, int n) {
  return std::min(n, (b + 1) * block_rows);
}

double conj_grad(const state& s) {
  const int n = s.n;
  const int nb = blocks(n);
  double rho = 0;
#pragma omp parallel for schedule(static) reduction(+ : rho)
  for (int b = 0; b < nb; ++b)
    rho += start_block(s, b * block_rows, block_end(b, n));
  for (int it = 0; it < cg_iterations; ++it) {
    double d = 0;
#pragma omp parallel for schedule(static) reduction(+ : d)
    for (int b = 0; b < nb; ++b)
      d += multiply_block(s, s.p, s.q, s.p, b * block_rows, block_end(b, n));
    const double alpha = rho / d;
    const double rho0 = rho;
    rho = 0;
#pragma omp parallel for schedule(static) reduction(+ : rho)
    for (int b = 0; b < nb; ++b)
      rho += step_block(s, alpha, b * block_rows, block_end(b, n));
    const double beta = rho / rho0;
#pragma omp parallel for schedule(static)
    for (int b = 0; b < nb; ++b)
      direction_block(s, beta, b * block_rows, block_end(b, n));
  }
  double sum = 0;
#pragma omp parallel for schedule(static) reduction(+ : sum)
  for (int b = 0; b < nb; ++b)
    sum += residual_block(s, b * block_rows, block_end(b, n));
  return std::sqrt(sum);
}

/// NPB's outer loop.
answer solve(instance& in) {
  const state s = in.pointers();
  const int n = s.n;
  const int nb = blocks(n);
  answer r;
  for (int it = 0; it < in.c.niter; ++it) {
    r.rnorm = conj_grad(s);
    double xz = 0;
    double zz = 0;
#pragma omp parallel for schedule(static) reduction(+ : xz, zz)
    for (int b = 0; b < nb; ++b) {
      const norms nm = norms_block(s, b * block_rows, block_end(b, n));
      xz += nm.xz;
      zz += nm.zz;
    }
    r.zeta = in.c.shift + 1.0 / xz;
    const double scale = 1.0 / std::sqrt(zz);
#pragma omp parallel for schedule(static)
    for (int b = 0; b < nb; ++b)
      normalize_block(s, scale, b * block_rows, block_end(b, n));
  }
  return r;
}

}  // namespace

bench::outcome cg_omp(const bench::args& a) {
  return bench::measure(a.size, setup, solve, check);
}
