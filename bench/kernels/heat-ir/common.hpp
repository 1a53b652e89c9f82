// heat-ir: heat (heat/common.hpp) with unequal row costs: per time step, interior row i is
// updated bench::row_repeats(i, nx) times (irregular.hpp: 1 to 4 by quarters of the grid). The
// update is a Jacobi step (it reads the other buffer only), so repeating it writes the same
// values again: the result is heat's, bit for bit, and heat's verification applies unchanged
// (the exact solution, and equality with heat's serial run). Size "NXxNYxNT" as heat's: small
// 130x64x4, default 8096x1024x50 (LAWS's grid).
#pragma once

#include "../heat/common.hpp"
#include "../irregular.hpp"

namespace heat_ir_kernel {

/// Rows [lo, hi) (clipped to the interior), row i stepped row_repeats(i) times. Out of line:
/// inlined into a coroutine, gcc keeps the pointers in the frame and does not vectorise.
[[gnu::noinline]] inline void step_rows(const heat_kernel::problem& pr, const double* from,
                                        double* to, int lo, int hi) {
  if (lo < 1) lo = 1;
  if (hi > pr.nx - 1) hi = pr.nx - 1;
  for (int i = lo; i < hi; ++i) {
    const int r = bench::row_repeats(i, pr.nx);
    for (int rep = 0; rep < r; ++rep)
      heat_kernel::step_rows(pr, from, to, i, i + 1);
  }
}

}  // namespace heat_ir_kernel
