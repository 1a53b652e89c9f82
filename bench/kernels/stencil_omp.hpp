// bench/kernels/stencil_omp.hpp — the OpenMP version of a stencil kernel (stencil_common.hpp),
// one template; bench/kernels/<name>/omp.cpp (built with OpenMP) instantiate it. Per time step,
// a static loop over the interior planes (the papers' baseline).
#pragma once

#include "../kernel.hpp"
#include "stencil_common.hpp"

namespace stencil {

template <class Spec>
bench::outcome run_omp(const bench::args& a) {
  const auto body = [](instance& in) {
    const problem& pr = in.pr;
    for (int t = 0; t < pr.steps; ++t) {
      const double* from = in.from(t);
      double* to = in.to(t);
#pragma omp parallel for schedule(static)
      for (int i = pr.radius; i < pr.n0 - pr.radius; ++i)
        Spec::planes(pr, from, to, i, i + 1);
    }
  };
  return bench::measure(a.size, setup<Spec>, body, check<Spec>);
}

}  // namespace stencil
