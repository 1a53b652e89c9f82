// cilksort, serial: the recursion with every spawn replaced by a call.
#include "../../kernel.hpp"
#include "common.hpp"

namespace {

using cilksort_kernel::elem;
using cilksort_kernel::instance;
using cilksort_kernel::merge_args;

void merge(merge_args m) {
  m = m.normalised();
  if (cilksort_kernel::merge_leaf(m)) return;
  const auto [lo, hi] = cilksort_kernel::split_merge(m);
  merge(lo);
  merge(hi);
}

void sort(elem* a, elem* tmp, std::size_t n) {
  if (cilksort_kernel::sort_leaf(a, n)) return;
  const cilksort_kernel::sort_plan p(a, tmp, n);
  for (int q = 0; q < 4; ++q)
    sort(p.part(q), p.scratch(q), p.size(q));
  merge(p.pair_merge(0));
  merge(p.pair_merge(1));
  merge(p.final_merge());
}

}  // namespace

bench::outcome cilksort_serial(const bench::args& a) {
  const auto body = [](instance& in) { sort(in.data.data(), in.tmp.data(), in.data.size()); };
  return bench::measure(a.size, cilksort_kernel::setup, body, cilksort_kernel::check);
}
