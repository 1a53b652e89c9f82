// bench/kernels/irregular.hpp — how the "-ir" kernels (heat-ir, sor-ir) make rows cost unequal
// work.
//
// LAWS (Table 1) lists irregular variants of its benchmarks without defining them beyond "their
// execution DAGs are irregular". Here the task tree stays the same (the same halving of the
// same rows, so the declared data and its split are exact) and the work per row differs:
// interior row i of rows [1, n - 1) is updated r(i) times per step, with
//   r(i) = 1 + floor(4 (i - 1) / (n - 2))          (1, 2, 3, 4 over the four quarters)
// so the last quarter of the grid costs four times the first: a static split of rows (OpenMP
// static, or LAWS's even split of the data over four sockets) leaves the quarters unequally
// loaded, and only stealing evens them out. The repetitions do not change the result's
// dependence on the order of rows, so each -ir kernel is still verified bit for bit.
#pragma once

namespace bench {

/// r(i): how many times interior row i (1 <= i < n - 1) of an n-row grid is updated per step.
[[nodiscard]] constexpr int row_repeats(int i, int n) noexcept {
  return 1 + static_cast<int>(4LL * (i - 1) / (n - 2));
}

}  // namespace bench
