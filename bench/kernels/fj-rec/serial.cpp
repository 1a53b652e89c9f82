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
  const auto run = [](fj_rec_kernel::instance& in) { fj_rec_kernel::rounds(in, tree); };
  return bench::measure(a.size, fj_rec_kernel::setup, run, fj_rec_kernel::check);
}
