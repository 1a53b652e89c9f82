// fj, serial: the same loop calling an empty (but for its counter) out-of-line function.
#include "../../kernel.hpp"
#include "common.hpp"

namespace {

[[gnu::noinline]] void body(fj_kernel::slot* s) {
  ++s->runs;
}

}  // namespace

bench::outcome fj_serial(const bench::args& a) {
  const fj_kernel::shape s = fj_kernel::parse(a.size);
  std::vector<fj_kernel::slot> slots(s.tasks);
  bench::outcome out;
  const bench::stopwatch clock;
  for (std::size_t r = 0; r < s.rounds; ++r) {
    for (std::size_t i = 0; i < s.tasks; ++i)
      body(&slots[i]);
  }
  out.seconds = clock.seconds();
  fj_kernel::check(out, s, slots);
  return out;
}
