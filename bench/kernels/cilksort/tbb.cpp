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
  if (cilksort_kernel::merge_leaf(m)) return;
  const auto [lo, hi] = cilksort_kernel::split_merge(m);
  tbb::task_group g;
  g.run([lo = lo] { merge(lo); });
  merge(hi);
  g.wait();
}

void sort(elem* a, elem* tmp, std::size_t n) {
  if (cilksort_kernel::sort_leaf(a, n)) return;
  const cilksort_kernel::sort_plan p(a, tmp, n);
  tbb::task_group g;
  for (int q = 0; q < 3; ++q)
    g.run([p, q] { sort(p.part(q), p.scratch(q), p.size(q)); });
  sort(p.part(3), p.scratch(3), p.size(3));
  g.wait();
  g.run([p] { merge(p.pair_merge(0)); });
  merge(p.pair_merge(1));
  g.wait();
  merge(p.final_merge());
}

}  // namespace

bench::outcome cilksort_tbb(const bench::args& a) {
  const auto body = [](instance& in) { sort(in.data.data(), in.tmp.data(), in.data.size()); };
  return bench::measure(a.size, cilksort_kernel::setup, body, cilksort_kernel::check);
}
