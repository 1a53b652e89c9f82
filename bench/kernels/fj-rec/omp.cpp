// fj-rec, OpenMP: one task per inner node's left half, the right half inline, taskwait.
#include <omp.h>

#include "../../kernel.hpp"
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
  const fj_rec_kernel::shape s = fj_rec_kernel::parse(a.size);
  std::vector<slot> slots(s.tasks);
  slot* base = slots.data();
  const std::size_t tasks = s.tasks;
  const std::size_t rounds = s.rounds;
  bench::outcome out;
  const bench::stopwatch clock;
#pragma omp parallel
#pragma omp single
  for (std::size_t r = 0; r < rounds; ++r)
    tree(base, 0, tasks);
  out.seconds = clock.seconds();
  fj_rec_kernel::check(out, s, slots);
  return out;
}
