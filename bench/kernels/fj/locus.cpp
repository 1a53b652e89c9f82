// fj, locus: each round spawns N empty tasks from one frame and syncs.
#include <locus/locus.hpp>

#include "../../kernel.hpp"
#include "common.hpp"

namespace {

locus::task<void> body(fj_kernel::slot* s) {
  ++s->runs;
  co_return;
}

locus::task<void> rounds(fj_kernel::slot* slots, std::size_t tasks, std::size_t count) {
  for (std::size_t r = 0; r < count; ++r) {
    for (std::size_t i = 0; i < tasks; ++i)
      co_await locus::spawn(body(slots + i));
    co_await locus::sync();
  }
}

}  // namespace

bench::outcome fj_locus(const bench::args& a) {
  const auto run = [&a](fj_kernel::instance& in) {
    a.rt->run(rounds(in.slots.data(), in.s.tasks, in.s.rounds));
  };
  return bench::measure(a.size, fj_kernel::setup, run, fj_kernel::check);
}
