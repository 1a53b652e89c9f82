// bench/kernels/omp_single.hpp — how every task-parallel OpenMP kernel starts its computation.
#pragma once

#include <type_traits>

namespace bench {

/// Runs f() on one thread of a new parallel region and returns what it returns. The rest of
/// the team runs the tasks f creates, and the region's closing barrier waits for all of them,
/// so every task has finished when this returns.
template <class F>
auto omp_single(F&& f) {
  using result = std::invoke_result_t<F&>;
  if constexpr (std::is_void_v<result>) {
#pragma omp parallel
#pragma omp single
    f();
  } else {
    result r{};
#pragma omp parallel
#pragma omp single
    r = f();
    return r;
  }
}

}  // namespace bench
