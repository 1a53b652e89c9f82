// cilksort, OpenMP: the four quarter sorts, the two pairwise merges and the two sides of a
// split merge are tasks (the last of each group inline), each group closed by taskwait.
#include <omp.h>

#include "../../kernel.hpp"
#include "../omp_single.hpp"
#include "common.hpp"

namespace {

using cilksort_kernel::elem;
using cilksort_kernel::instance;
using cilksort_kernel::merge_args;

void merge(merge_args m) {
  m = m.normalised();
  if (cilksort_kernel::merge_leaf(m)) return;
  const auto halves = cilksort_kernel::split_merge(m);
  const merge_args first = halves.first;
#pragma omp task firstprivate(first)
  merge(first);
  merge(halves.second);
#pragma omp taskwait
}

void sort(elem* a, elem* tmp, std::size_t n) {
  if (cilksort_kernel::sort_leaf(a, n)) return;
  const cilksort_kernel::sort_plan p(a, tmp, n);
  for (int q = 0; q < 3; ++q) {
    elem* part = p.part(q);
    elem* scratch = p.scratch(q);
    const std::size_t len = p.size(q);
#pragma omp task firstprivate(part, scratch, len)
    sort(part, scratch, len);
  }
  sort(p.part(3), p.scratch(3), p.size(3));
#pragma omp taskwait
  const merge_args left = p.pair_merge(0);
#pragma omp task firstprivate(left)
  merge(left);
  merge(p.pair_merge(1));
#pragma omp taskwait
  merge(p.final_merge());
}

}  // namespace

bench::outcome cilksort_omp(const bench::args& a) {
  const auto body = [](instance& in) {
    bench::omp_single([&in] { sort(in.data.data(), in.tmp.data(), in.data.size()); });
  };
  return bench::measure(a.size, cilksort_kernel::setup, body, cilksort_kernel::check);
}
