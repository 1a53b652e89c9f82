// fj-rec, oneTBB: a task_group per inner node; the left half is a task, the right runs inline.
#include <tbb/task_group.h>

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
  tbb::task_group g;
  g.run([slots, lo, mid] { tree(slots, lo, mid); });
  tree(slots, mid, hi);
  g.wait();
}

}  // namespace

bench::outcome fj_rec_tbb(const bench::args& a) {
  const fj_rec_kernel::shape s = fj_rec_kernel::parse(a.size);
  std::vector<slot> slots(s.tasks);
  bench::outcome out;
  const bench::stopwatch clock;
  for (std::size_t r = 0; r < s.rounds; ++r)
    tree(slots.data(), 0, s.tasks);
  out.seconds = clock.seconds();
  fj_rec_kernel::check(out, s, slots);
  return out;
}
