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
  const auto run = [&a](fj_rec_kernel::instance& in) {
    a.rt->run(rounds(in.slots.data(), in.s.tasks, in.s.rounds));
  };
  return bench::measure(a.size, fj_rec_kernel::setup, run, fj_rec_kernel::check);
}
