// sor-ir: sor (sor/common.hpp) with unequal row costs: in each half-sweep, the points of the
// sweep's colour in interior row i are relaxed bench::row_repeats(i, n) times in a row
// (irregular.hpp: 1 to 4 by quarters of the grid). A point of one colour reads only itself and
// points of the other colour, which the half-sweep does not change, so the repetitions of a
// row still do not depend on any other row of the same colour: any order of rows gives the
// same bits. Size "NxITERS" as sor's: small 130x4, default 2000x50.
//
// Verification: bit-for-bit equality with a plain reference written independently of the
// row kernel (every point of every row, the wrong colour skipped), computed once per size.
#pragma once

#include <string>
#include <vector>

#include "../irregular.hpp"
#include "../sor/common.hpp"

namespace sor_ir_kernel {

/// Relaxes the points of `colour` in interior rows [lo, hi) (clipped), row i r(i) times.
[[gnu::noinline]] inline void sweep_rows(double* g, int n, int colour, int lo, int hi) {
  if (lo < 1) lo = 1;
  if (hi > n - 1) hi = n - 1;
  for (int i = lo; i < hi; ++i) {
    const int r = bench::row_repeats(i, n);
    for (int rep = 0; rep < r; ++rep)
      sor_kernel::sweep_rows(g, n, colour, i, i + 1);
  }
}

/// The plain reference.
[[nodiscard]] inline std::vector<double> solve_reference(const sor_kernel::problem& pr) {
  std::vector<double> g = sor_kernel::initial(pr);
  const std::size_t n = pr.n;
  for (int it = 0; it < pr.iters; ++it) {
    for (std::size_t colour = 0; colour < 2; ++colour) {
      for (std::size_t i = 1; i + 1 < n; ++i) {
        const int r = bench::row_repeats(static_cast<int>(i), pr.n);
        for (int rep = 0; rep < r; ++rep) {
          for (std::size_t j = 1; j + 1 < n; ++j) {
            if ((i + j) % 2 == colour) g[i * n + j] = sor_kernel::relax(g.data(), i * n + j, n);
          }
        }
      }
    }
  }
  return g;
}

/// Compares the grid with the reference bit for bit.
inline void check(bench::outcome& out, const sor_kernel::instance& in) {
  const std::vector<double>& ref =
      bench::cached_reference(in.pr.size, [&in] { return sor_ir_kernel::solve_reference(in.pr); });
  std::size_t differ = 0;
  double sum = 0;
  for (std::size_t k = 0; k < ref.size(); ++k) {
    if (std::memcmp(&in.g[k], &ref[k], sizeof(double)) != 0) ++differ;
    sum += in.g[k];
  }
  out.verified = differ == 0;
  char buf[96];
  std::snprintf(buf, sizeof buf, "sum=%.12e", sum);
  out.detail = buf;
  if (differ != 0)
    out.detail += "; " + std::to_string(differ) + " points differ from the reference";
}

}  // namespace sor_ir_kernel
