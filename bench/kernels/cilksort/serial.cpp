// cilksort, serial: the recursion with every spawn replaced by a call.
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
  merge(lo);
  merge(hi);
}

void sort(elem* a, elem* tmp, std::size_t n) {
  if (n < cilksort_kernel::k_quick_size) {
    cilksort_kernel::seq_quick(a, a + n);
    return;
  }
  std::size_t s[5];
  for (int q = 0; q <= 4; ++q)
    s[q] = cilksort_kernel::quarter_start(n, q);
  for (int q = 0; q < 4; ++q)
    sort(a + s[q], tmp + s[q], s[q + 1] - s[q]);
  merge({a + s[0], a + s[1], a + s[1], a + s[2], tmp + s[0]});
  merge({a + s[2], a + s[3], a + s[3], a + s[4], tmp + s[2]});
  merge({tmp + s[0], tmp + s[2], tmp + s[2], tmp + s[4], a});
}

}  // namespace

bench::outcome cilksort_serial(const bench::args& a) {
  const auto body = [](instance& in) { sort(in.data.data(), in.tmp.data(), in.data.size()); };
  return bench::measure(a.size, cilksort_kernel::setup, body, cilksort_kernel::check);
}
