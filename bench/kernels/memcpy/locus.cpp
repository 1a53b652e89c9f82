// memcpy, locus: the random work stealing baseline (the paper's "Cilk first-touch"): init and
// copy are two independent parallel_for loops over the blocks, so a block's copy runs wherever
// stealing puts it. The constrained version replays the init phase's steal tree for the copy
// (issue 8) once the scheduler records and replays steal trees.
#include <locus/locus.hpp>

#include "../../kernel.hpp"
#include "common.hpp"

namespace {

locus::task<void> init(const memcpy_kernel::instance* in) {
  co_await locus::parallel_for(std::size_t{0}, in->blocks(), std::size_t{1},
                               [in](std::size_t b) { in->init_block(b); });
}

locus::task<void> copy(const memcpy_kernel::instance* in) {
  for (unsigned r = 0; r < in->size.reps; ++r) {
    co_await locus::parallel_for(std::size_t{0}, in->blocks(), std::size_t{1},
                                 [in](std::size_t b) { in->copy_block(b); });
  }
}

}  // namespace

bench::outcome memcpy_locus(const bench::args& a) {
  memcpy_kernel::instance data;
  const auto setup = [&data](const std::string& size) -> memcpy_kernel::instance& {
    data = memcpy_kernel::setup(size);
    return data;
  };
  const auto body = [&a](memcpy_kernel::instance& in) { a.rt->run(copy(&in)); };
  // The init phase, untimed, on the runtime's workers, right before the timed copy phase.
  const auto init_then_time = [&a, &data](auto& timed) {
    a.rt->run(init(&data));
    timed();
  };
  return bench::measure(a.size, setup, body, memcpy_kernel::check, init_then_time);
}
