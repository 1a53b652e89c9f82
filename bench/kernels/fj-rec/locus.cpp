// fj-rec, locus: spawn the left half, run the right half inline, sync.
#include <locus/locus.hpp>

#include "../../kernel.hpp"
#include "common.hpp"

namespace {

using fj_rec_kernel::slot;

locus::task<void> tree(slot* slots, std::size_t lo, std::size_t hi) {
  if (hi - lo == 1) {
    ++slots[lo].runs;
    co_return;
  }
  const std::size_t mid = lo + (hi - lo) / 2;
  co_await locus::spawn(tree(slots, lo, mid));
  co_await tree(slots, mid, hi);
  co_await locus::sync();
}

locus::task<void> rounds(slot* slots, std::size_t tasks, std::size_t count) {
  for (std::size_t r = 0; r < count; ++r)
    co_await tree(slots, 0, tasks);
}

}  // namespace

bench::outcome fj_rec_locus(const bench::args& a) {
  const fj_rec_kernel::shape s = fj_rec_kernel::parse(a.size);
  std::vector<slot> slots(s.tasks);
  bench::outcome out;
  const bench::stopwatch clock;
  a.rt->run(rounds(slots.data(), s.tasks, s.rounds));
  out.seconds = clock.seconds();
  fj_rec_kernel::check(out, s, slots);
  return out;
}
