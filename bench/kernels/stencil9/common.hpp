// stencil9: a 9-point 2-D Jacobi stencil (LAWS's "9p") on an N0 x N1 grid, two grids, STEPS
// time steps, split over rows (stencil_common.hpp). Each interior point becomes
//   0.5 c + 0.1 (its 4 edge neighbours) + 0.025 (its 4 corner neighbours)
// (weights >= 0, sum 1). Size "N0xN1xSTEPS": small 130x64x4, default 8096x1024x20 (LAWS's
// Heat/SOR grid).
#pragma once

#include "../stencil_common.hpp"

namespace stencil9_kernel {

struct spec {
  static constexpr const char* name = "stencil9";
  static constexpr int dims = 2;
  static constexpr int radius = 1;

  /// Rows [lo, hi) (clipped to the interior) from `from` into `to`. Out of line: inlined into
  /// a coroutine, gcc keeps the pointers in the frame and does not vectorise (docs/benchmarks.md).
  [[gnu::noinline]] static void planes(const stencil::problem& pr, const double* from, double* to,
                                       int lo, int hi) {
    const int n1 = pr.n1;
    if (lo < 1) lo = 1;
    if (hi > pr.n0 - 1) hi = pr.n0 - 1;
    for (int i = lo; i < hi; ++i) {
      const double* up = from + static_cast<std::size_t>(i - 1) * n1;
      const double* mid = up + n1;
      const double* down = mid + n1;
      double* out = to + static_cast<std::size_t>(i) * n1;
      for (int j = 1; j < n1 - 1; ++j) {
        out[j] = 0.5 * mid[j] + 0.1 * (up[j] + down[j] + mid[j - 1] + mid[j + 1]) +
                 0.025 * (up[j - 1] + up[j + 1] + down[j - 1] + down[j + 1]);
      }
    }
  }
};

}  // namespace stencil9_kernel
