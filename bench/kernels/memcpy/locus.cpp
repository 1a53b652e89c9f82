// memcpy, locus: init and copy are two parallel_for loops over the blocks, of the same spawn
// structure. Each chunk declares the blocks it touches (locus/data.hpp), so locality accounting
// (--accounting) sees the init phase's first touch and the copy phase's accesses; the counters
// are reset between the phases, so a run's stats are the copy phase's.
//
// --schedule random (the paper's "Cilk first-touch"): the phases are scheduled independently,
// so a block's copy runs wherever stealing puts it. --schedule stows / stuws / relws (issue 8,
// the paper's Section II): the init phase is traced (schedule::run_traced) and every copy
// phase replays its steal tree in that mode (schedule::run_replayed), so each block is copied
// by the worker that first touched it. The replayed copy runs one phase per repetition
// (BYTES xREPS), as a template fits one phase's root spawn.
#include <locus/locus.hpp>
#include <locus/schedule/replay.hpp>

#include <array>
#include <optional>

#include "../../kernel.hpp"
#include "../locus_replay.hpp"
#include "common.hpp"

namespace {

using memcpy_kernel::instance;

/// The blocks [lo, hi) of both arrays: the source with `src`, the destination written.
std::array<locus::data_range, 2> blocks_of(const instance* in, std::size_t lo, std::size_t hi,
                                           locus::access src) {
  const std::size_t first = in->block_begin(lo);
  const std::size_t n = in->block_end(hi - 1) - first;
  return {locus::data_range::of(in->source.get() + first, n, src),
          locus::data_range::of(in->destination.get() + first, n, locus::access::write)};
}

locus::task<void> init(const instance* in) {
  co_await locus::parallel_for(
      std::size_t{0}, in->blocks(), std::size_t{1}, [in](std::size_t b) { in->init_block(b); },
      [in](std::size_t lo, std::size_t hi) { return blocks_of(in, lo, hi, locus::access::write); });
}

/// One copy phase.
locus::task<void> copy_once(const instance* in) {
  co_await locus::parallel_for(
      std::size_t{0}, in->blocks(), std::size_t{1}, [in](std::size_t b) { in->copy_block(b); },
      [in](std::size_t lo, std::size_t hi) { return blocks_of(in, lo, hi, locus::access::read); });
}

locus::task<void> copy(const instance* in) {
  for (unsigned r = 0; r < in->size.reps; ++r)
    co_await copy_once(in);
}

}  // namespace

bench::outcome memcpy_locus(const bench::args& a) {
  const bool replay = a.schedule != bench::schedule_mode::random;
  instance data;
  std::optional<locus::schedule::steal_tree> tree;  // the init phase's schedule (replay only)
  const auto setup = [&data](const std::string& size) -> instance& {
    data = memcpy_kernel::setup(size);
    return data;
  };
  const auto body = [&a, &tree, replay](instance& in) {
    if (!replay) {
      a.rt->run(copy(&in));
      return;
    }
    for (unsigned r = 0; r < in.size.reps; ++r)
      locus::schedule::run_replayed(*a.rt, copy_once(&in), *tree,
                                    bench::replay_mode_of(a.schedule));
  };
  // The init phase, untimed, on the runtime's workers, right before the timed copy phase;
  // traced when the copy replays it.
  const auto init_then_time = [&a, &data, &tree, replay](auto& timed) {
    if (replay) {
      tree.emplace(locus::schedule::run_traced(*a.rt, init(&data)).tree);
    } else {
      a.rt->run(init(&data));
    }
    a.rt->reset_stats();  // what follows is the copy phase's
    timed();
  };
  return bench::measure(a.size, setup, body, memcpy_kernel::check, init_then_time);
}
