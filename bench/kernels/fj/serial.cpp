// fj, serial: the same loop calling an empty (but for its counter) out-of-line function.
#include "../../kernel.hpp"
#include "common.hpp"

namespace {

[[gnu::noinline]] void body(fj_kernel::slot* s) {
  ++s->runs;
}

}  // namespace

bench::outcome fj_serial(const bench::args& a) {
  const auto run = [](fj_kernel::instance& in) {
    for (std::size_t r = 0; r < in.s.rounds; ++r) {
      for (std::size_t i = 0; i < in.s.tasks; ++i)
        body(&in.slots[i]);
    }
  };
  return bench::measure(a.size, fj_kernel::setup, run, fj_kernel::check);
}
