// stencil3d6: LAWS's "6p", a 3-D Jacobi stencil on the 6 face neighbours of each point plus the
// point itself (the 7-point star with its centre), on an N0 x N1 x N2 grid, two grids, STEPS
// time steps, split over planes (stencil_common.hpp). Each interior point becomes
//   0.4 c + 0.1 (its 6 face neighbours)
// (weights >= 0, sum 1). Size "N0xN1xN2xSTEPS": small 40x12x12x4, default 8096x64x64x10 (LAWS's
// 6p/25p grid).
#pragma once

#include "../stencil_common.hpp"

namespace stencil3d6_kernel {

struct spec {
  static constexpr const char* name = "stencil3d6";
  static constexpr int dims = 3;
  static constexpr int radius = 1;

  /// Planes [lo, hi) (clipped to the interior) from `from` into `to`. Out of line (see
  /// stencil9).
  [[gnu::noinline]] static void planes(const stencil::problem& pr, const double* from, double* to,
                                       int lo, int hi) {
    const std::size_t plane = pr.plane();
    const std::size_t row = static_cast<std::size_t>(pr.n2);
    if (lo < 1) lo = 1;
    if (hi > pr.n0 - 1) hi = pr.n0 - 1;
    for (int i = lo; i < hi; ++i) {
      for (int j = 1; j < pr.n1 - 1; ++j) {
        const std::size_t base = pr.at(i, j);
        for (int k = 1; k < pr.n2 - 1; ++k) {
          const std::size_t x = base + k;
          to[x] = 0.4 * from[x] + 0.1 * (from[x - plane] + from[x + plane] + from[x - row] +
                                         from[x + row] + from[x - 1] + from[x + 1]);
        }
      }
    }
  }
};

}  // namespace stencil3d6_kernel
