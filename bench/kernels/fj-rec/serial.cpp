// fj-rec, serial: the same binary recursion, with plain calls.
#include "../../kernel.hpp"
#include "common.hpp"

namespace {

using fj_rec_kernel::slot;

[[gnu::noinline]] void tree(slot* slots, std::size_t lo, std::size_t hi) {
  if (hi - lo == 1) {
    ++slots[lo].runs;
    return;
  }
  const std::size_t mid = lo + (hi - lo) / 2;
  tree(slots, lo, mid);
  tree(slots, mid, hi);
}

}  // namespace

bench::outcome fj_rec_serial(const bench::args& a) {
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
