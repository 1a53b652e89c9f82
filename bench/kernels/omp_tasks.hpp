// bench/kernels/omp_tasks.hpp — the omp-tasks runtime's loop: OpenMP tasks in the shape of the
// locus kernels' recursive split (locus_rows.hpp), the task-parallel baseline beside omp's
// `parallel for schedule(static)`.
#pragma once

#include "omp_single.hpp"

namespace bench {

/// Halves [lo, hi) down to at most `leaf` indices, the first half an `omp task`, the second
/// run by this thread, and calls f(lo, hi) there; waits for its tasks. Call inside a parallel
/// region's single (omp_tasks_for does).
template <class F>
void omp_split(long lo, long hi, long leaf, const F& f) {
  if (hi - lo <= leaf) {
    f(lo, hi);
    return;
  }
  const long mid = lo + (hi - lo) / 2;
#pragma omp task firstprivate(lo, mid, leaf) shared(f)
  omp_split(lo, mid, leaf, f);
  omp_split(mid, hi, leaf, f);
#pragma omp taskwait
}

/// One parallel region running omp_split(lo, hi, leaf, f) from one thread; the team takes the
/// tasks (untied placement: any thread, as random work stealing).
template <class F>
void omp_tasks_for(long lo, long hi, long leaf, const F& f) {
  omp_single([&] { omp_split(lo, hi, leaf, f); });
}

/// omp_split's reduction: the sum (operator+) of f(lo, hi) over the leaves, combined along the
/// split tree (the locus kernels' parallel_reduce tree, so the sums match theirs bit for bit).
template <class T, class F>
T omp_split_reduce(long lo, long hi, long leaf, const F& f) {
  if (hi - lo <= leaf) return f(lo, hi);
  const long mid = lo + (hi - lo) / 2;
  T left{};
#pragma omp task firstprivate(lo, mid, leaf) shared(f, left)
  left = omp_split_reduce<T>(lo, mid, leaf, f);
  const T right = omp_split_reduce<T>(mid, hi, leaf, f);
#pragma omp taskwait
  return left + right;
}

/// One parallel region computing omp_split_reduce(lo, hi, leaf, f) from one thread.
template <class T, class F>
T omp_tasks_reduce(long lo, long hi, long leaf, const F& f) {
  return omp_single([&] { return omp_split_reduce<T>(lo, hi, leaf, f); });
}

}  // namespace bench
