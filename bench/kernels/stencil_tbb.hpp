// bench/kernels/stencil_tbb.hpp — the oneTBB version of a stencil kernel (stencil_common.hpp),
// one template; bench/kernels/<name>/tbb.cpp instantiate it. Per time step, parallel_for over
// the interior planes with simple_partitioner, split down to leaf_planes planes as the locus
// version's tree.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

#include "../kernel.hpp"
#include "stencil_common.hpp"

namespace stencil {

template <class Spec>
bench::outcome run_tbb(const bench::args& a) {
  const auto body = [](instance& in) {
    const problem& pr = in.pr;
    for (int t = 0; t < pr.steps; ++t) {
      const double* from = in.from(t);
      double* to = in.to(t);
      tbb::parallel_for(
          tbb::blocked_range<int>(pr.radius, pr.n0 - pr.radius, leaf_planes),
          [&pr, from, to](const tbb::blocked_range<int>& r) {
            Spec::planes(pr, from, to, r.begin(), r.end());
          },
          tbb::simple_partitioner());
    }
  };
  return bench::measure(a.size, setup<Spec>, body, check<Spec>);
}

}  // namespace stencil
