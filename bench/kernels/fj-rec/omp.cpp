// fj-rec, OpenMP: one task per inner node's left half, the right half inline, taskwait.
#include <omp.h>

#include "../../kernel.hpp"
#include "../omp_single.hpp"
#include "common.hpp"

namespace {

using fj_rec_kernel::slot;

void tree(slot* slots, std::size_t lo, std::size_t hi) {
  if (hi - lo == 1) {
    ++slots[lo].runs;
    return;
  }
  const std::size_t mid = lo + (hi - lo) / 2;
#pragma omp task firstprivate(slots, lo, mid)
  tree(slots, lo, mid);
  tree(slots, mid, hi);
#pragma omp taskwait
}

}  // namespace

bench::outcome fj_rec_omp(const bench::args& a) {
  const auto run = [](fj_rec_kernel::instance& in) {
    bench::omp_single([&in] { fj_rec_kernel::rounds(in, tree); });
  };
  return bench::measure(a.size, fj_rec_kernel::setup, run, fj_rec_kernel::check);
}
