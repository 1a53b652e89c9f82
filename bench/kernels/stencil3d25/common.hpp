// stencil3d25: LAWS's "25p", a 3-D Jacobi stencil on the radius-4 star: each point and the 4
// nearest points along each of the 6 axis directions (1 + 6 x 4 = 25 points), on an
// N0 x N1 x N2 grid, two grids, STEPS time steps, split over planes (stencil_common.hpp), a
// boundary 4 points wide. Each interior point becomes
//   0.34 c + sum over d = 1..4 of w_d (the 6 points at distance d),  w = 0.05, 0.03, 0.02, 0.01
// (weights >= 0, sum 1). Size "N0xN1xN2xSTEPS": small 40x12x12x3, default 8096x64x64x5 (LAWS's
// 6p/25p grid).
#pragma once

#include "../stencil_common.hpp"

namespace stencil3d25_kernel {

struct spec {
  static constexpr const char* name = "stencil3d25";
  static constexpr int dims = 3;
  static constexpr int radius = 4;

  /// Planes [lo, hi) (clipped to the interior) from `from` into `to`. Out of line (see
  /// stencil9).
  [[gnu::noinline]] static void planes(const stencil::problem& pr, const double* from, double* to,
                                       int lo, int hi) {
    constexpr double w[5] = {0.34, 0.05, 0.03, 0.02, 0.01};
    const std::size_t plane = pr.plane();
    const std::size_t row = static_cast<std::size_t>(pr.n2);
    if (lo < radius) lo = radius;
    if (hi > pr.n0 - radius) hi = pr.n0 - radius;
    for (int i = lo; i < hi; ++i) {
      for (int j = radius; j < pr.n1 - radius; ++j) {
        const std::size_t base = pr.at(i, j);
        for (int k = radius; k < pr.n2 - radius; ++k) {
          const std::size_t x = base + k;
          double v = w[0] * from[x];
          for (int d = 1; d <= radius; ++d) {
            const std::size_t dp = d * plane;
            const std::size_t dr = d * row;
            v += w[d] * (from[x - dp] + from[x + dp] + from[x - dr] + from[x + dr] + from[x - d] +
                         from[x + d]);
          }
          to[x] = v;
        }
      }
    }
  }
};

}  // namespace stencil3d25_kernel
