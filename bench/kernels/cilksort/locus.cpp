// cilksort, locus: the four quarter sorts, the two pairwise merges and the two sides of a split
// merge are spawned (the last of each group runs inline), each group closed by a sync.
#include <locus/locus.hpp>

#include "../../kernel.hpp"
#include "common.hpp"

namespace {

using cilksort_kernel::elem;
using cilksort_kernel::instance;
using cilksort_kernel::merge_args;

locus::task<void> merge(merge_args in) {
  // A new variable, not `in = in.normalised()`: gcc 12 at -O0 builds the returned aggregate in
  // place over the coroutine's copy of the parameter, reading fields it already overwrote.
  const merge_args m = in.normalised();
  if (m.sequential()) {
    cilksort_kernel::seq_merge(m.lo1, m.hi1, m.lo2, m.hi2, m.dest);
    co_return;
  }
  const auto halves = cilksort_kernel::split_merge(m);
  co_await locus::spawn(merge(halves.first));
  co_await merge(halves.second);
  co_await locus::sync();
}

locus::task<void> sort(elem* a, elem* tmp, std::size_t n) {
  if (n < cilksort_kernel::k_quick_size) {
    cilksort_kernel::seq_quick(a, a + n);
    co_return;
  }
  std::size_t s[5];
  for (int q = 0; q <= 4; ++q)
    s[q] = cilksort_kernel::quarter_start(n, q);
  for (int q = 0; q < 3; ++q)
    co_await locus::spawn(sort(a + s[q], tmp + s[q], s[q + 1] - s[q]));
  co_await sort(a + s[3], tmp + s[3], s[4] - s[3]);
  co_await locus::sync();
  co_await locus::spawn(merge({a + s[0], a + s[1], a + s[1], a + s[2], tmp + s[0]}));
  co_await merge({a + s[2], a + s[3], a + s[3], a + s[4], tmp + s[2]});
  co_await locus::sync();
  co_await merge({tmp + s[0], tmp + s[2], tmp + s[2], tmp + s[4], a});
}

}  // namespace

bench::outcome cilksort_locus(const bench::args& a) {
  const auto body = [&a](instance& in) {
    a.rt->run(sort(in.data.data(), in.tmp.data(), in.data.size()));
  };
  return bench::measure(a.size, cilksort_kernel::setup, body, cilksort_kernel::check);
}
