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
// (BYTES xREPS), as a template fits one phase's root spawn. --schedule loop runs the paper's
// iterative RelWS locality loop (schedule::locality_loop) on init and one copy phase before
// the clock starts (each redistribution into freshly allocated arrays, as the paper's
// initializer copies the data), and replays the schedule it settles on under stows;
// --schedule designed
// runs init and every copy phase under a designed block partition (worker w the w-th
// contiguous share of the blocks) under stuws.
#include <locus/locus.hpp>
#include <locus/schedule/replay.hpp>

#include <array>
#include <optional>
#include <string>
#include <vector>

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

/// Declares blocks [lo, hi) of both arrays (accounting), the source with `src`.
void touch_blocks(const instance* in, std::size_t lo, std::size_t hi, locus::access src) {
  for (const locus::data_range& r : blocks_of(in, lo, hi, src))
    locus::touch(r.begin, r.bytes, r.mode);
}

/// The designed schedule: worker w initialises (copy: copies) the w-th share of the blocks.
locus::task<void> designed(const instance* in, unsigned workers, bool init) {
  auto share = [in, init](int lo, int hi) {
    const auto a = static_cast<std::size_t>(lo);
    const auto b = static_cast<std::size_t>(hi);
    if (a == b) return;
    touch_blocks(in, a, b, init ? locus::access::write : locus::access::read);
    for (std::size_t k = a; k < b; ++k)
      init ? in->init_block(k) : in->copy_block(k);
  };
  return bench::block_partition(0, static_cast<int>(in->blocks()), workers, share);
}

}  // namespace

bench::outcome memcpy_locus(const bench::args& a) {
  const bool traced = a.schedule == bench::schedule_mode::traced;
  const bool replay = a.schedule != bench::schedule_mode::random && !traced;
  instance data;
  std::optional<locus::schedule::steal_tree> tree;  // the init phase's schedule (replay only)
  const auto setup = [&data](const std::string& size) -> instance& {
    data = memcpy_kernel::setup(size);
    return data;
  };
  const bool design = a.schedule == bench::schedule_mode::designed;
  const auto body = [&a, &tree, replay, design, traced](instance& in) {
    if (traced) {
      (void)locus::schedule::run_traced(*a.rt, copy(&in));
      return;
    }
    if (!replay) {
      a.rt->run(copy(&in));
      return;
    }
    for (unsigned r = 0; r < in.size.reps; ++r) {
      if (design) {
        (void)locus::schedule::run_designed(*a.rt, designed(&in, a.workers, false));
      } else {
        locus::schedule::run_replayed(*a.rt, copy_once(&in), *tree,
                                      bench::replay_mode_of(a.schedule));
      }
    }
  };
  // The init phase, untimed, on the runtime's workers, right before the timed copy phase;
  // traced when the copy replays it (loop: the whole locality loop, which ends with the data
  // where its schedule puts the copy).
  std::string loop_detail;  // the loop mode's iterations and schedule size
  // The loop's redistributions: the paper's fork/join initializer copies the data into fresh
  // memory, whose first touch follows the refined schedule (rewriting the old arrays would
  // home nothing anew). The arrays replaced stay allocated until the run ends, so no later
  // allocation reuses their pages (and their homes, in the accounting model).
  std::vector<instance> retired;
  const auto init_then_time = [&](auto& timed) {
    if (a.schedule == bench::schedule_mode::loop) {
      bool first = true;
      const auto fresh_init = [&] {
        if (!first) {
          retired.push_back(std::move(data));
          data = memcpy_kernel::setup(a.size);
        }
        first = false;
        return init(&data);
      };
      auto r = locus::schedule::locality_loop(
          *a.rt, fresh_init, [&data] { return copy_once(&data); }, bench::loop_options());
      loop_detail = bench::loop_detail(r);
      tree.emplace(std::move(r.schedule));
    } else if (design) {
      tree.emplace(locus::schedule::run_designed(*a.rt, designed(&data, a.workers, true)).tree);
    } else if (replay) {
      tree.emplace(locus::schedule::run_traced(*a.rt, init(&data)).tree);
    } else {
      a.rt->run(init(&data));
    }
    a.rt->reset_stats();  // what follows is the copy phase's
    timed();
  };
  bench::outcome out = bench::measure(a.size, setup, body, memcpy_kernel::check, init_then_time);
  out.detail += loop_detail;
  return out;
}
