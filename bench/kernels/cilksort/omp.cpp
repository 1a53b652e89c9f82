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
  if (m.sequential()) {
    cilksort_kernel::seq_merge(m.lo1, m.hi1, m.lo2, m.hi2, m.dest);
    return;
  }
  const auto halves = cilksort_kernel::split_merge(m);
  const merge_args first = halves.first;
#pragma omp task firstprivate(first)
  merge(first);
  merge(halves.second);
#pragma omp taskwait
}

void sort(elem* a, elem* tmp, std::size_t n) {
  if (n < cilksort_kernel::k_quick_size) {
    cilksort_kernel::seq_quick(a, a + n);
    return;
  }
  std::size_t s[5];
  for (int q = 0; q <= 4; ++q)
    s[q] = cilksort_kernel::quarter_start(n, q);
  for (int q = 0; q < 3; ++q) {
    elem* part = a + s[q];
    elem* scratch = tmp + s[q];
    const std::size_t len = s[q + 1] - s[q];
#pragma omp task firstprivate(part, scratch, len)
    sort(part, scratch, len);
  }
  sort(a + s[3], tmp + s[3], s[4] - s[3]);
#pragma omp taskwait
  const merge_args left{a + s[0], a + s[1], a + s[1], a + s[2], tmp + s[0]};
#pragma omp task firstprivate(left)
  merge(left);
  merge({a + s[2], a + s[3], a + s[3], a + s[4], tmp + s[2]});
#pragma omp taskwait
  merge({tmp + s[0], tmp + s[2], tmp + s[2], tmp + s[4], a});
}

}  // namespace

bench::outcome cilksort_omp(const bench::args& a) {
  const auto body = [](instance& in) {
    bench::omp_single([&in] { sort(in.data.data(), in.tmp.data(), in.data.size()); });
  };
  return bench::measure(a.size, cilksort_kernel::setup, body, cilksort_kernel::check);
}
