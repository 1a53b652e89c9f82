// memcpy, oneTBB: both phases are a parallel_for over the same blocks with the
// static_partitioner, which splits the range evenly over the arena's threads in a fixed way,
// so the copy of a block mostly runs on the thread that initialised it (oneTBB's closest
// match to OpenMP's static schedule; random stealing would not keep the placement).
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

#include "../../kernel.hpp"
#include "common.hpp"

namespace {

template <class F>
void over_blocks(const memcpy_kernel::instance& in, F per_block) {
  tbb::parallel_for(
      tbb::blocked_range<std::size_t>(0, in.blocks(), 1),
      [&](const tbb::blocked_range<std::size_t>& r) {
        for (std::size_t b = r.begin(); b < r.end(); ++b)
          per_block(b);
      },
      tbb::static_partitioner());
}

void copy(const memcpy_kernel::instance& in) {
  for (unsigned r = 0; r < in.size.reps; ++r)
    over_blocks(in, [&in](std::size_t b) { in.copy_block(b); });
}

}  // namespace

bench::outcome memcpy_tbb(const bench::args& a) {
  memcpy_kernel::instance data;
  const auto setup = [&data](const std::string& size) -> memcpy_kernel::instance& {
    data = memcpy_kernel::setup(size);
    return data;
  };
  // The init phase, untimed, on the arena's threads, right before the timed copy phase.
  const auto init_then_time = [&data](auto& timed) {
    over_blocks(data, [](std::size_t) {});  // starts the arena's workers before the init runs
    over_blocks(data, [&](std::size_t b) { data.init_block(b); });
    timed();
  };
  return bench::measure(a.size, setup, copy, memcpy_kernel::check, init_then_time);
}
