// cilksort, oneTBB: the four quarter sorts, the two pairwise merges and the two sides of a
// split merge run as tasks of a task_group (the last of each group inline).
#include <tbb/task_group.h>

#include "../../kernel.hpp"
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
  const auto [lo, hi] = cilksort_kernel::split_merge(m);
  tbb::task_group g;
  g.run([lo = lo] { merge(lo); });
  merge(hi);
  g.wait();
}

void sort(elem* a, elem* tmp, std::size_t n) {
  if (n < cilksort_kernel::k_quick_size) {
    cilksort_kernel::seq_quick(a, a + n);
    return;
  }
  std::size_t s[5];
  for (int q = 0; q <= 4; ++q)
    s[q] = cilksort_kernel::quarter_start(n, q);
  tbb::task_group g;
  for (int q = 0; q < 3; ++q)
    g.run([=] { sort(a + s[q], tmp + s[q], s[q + 1] - s[q]); });
  sort(a + s[3], tmp + s[3], s[4] - s[3]);
  g.wait();
  g.run([=] { merge({a + s[0], a + s[1], a + s[1], a + s[2], tmp + s[0]}); });
  merge({a + s[2], a + s[3], a + s[3], a + s[4], tmp + s[2]});
  g.wait();
  merge({tmp + s[0], tmp + s[2], tmp + s[2], tmp + s[4], a});
}

}  // namespace

bench::outcome cilksort_tbb(const bench::args& a) {
  const auto body = [](instance& in) { sort(in.data.data(), in.tmp.data(), in.data.size()); };
  return bench::measure(a.size, cilksort_kernel::setup, body, cilksort_kernel::check);
}
