// heat, locus: per time step, the interior rows are split in halves recursively; the first half
// is spawned, the second run inline, down to leaf_rows rows (Cilk's heat). Every task of the
// split declares its own data (locus_declared_rows.hpp, declared.hpp), halo rows included:
//   read  from[lo - 1, hi + 1)   write  to[lo, hi)
// so locality accounting (--accounting) sees every access and a scheduler that places by data
// (LAWS, CAB) sees what each task really reads, accounting on or off. Both grids come from
// locus's allocator (grid_buffer), untouched, and the setup first-touches them in tasks of the
// same decomposition, untimed (the first and last leaves also write the boundary rows, so the
// halo rows are homed): no page is written by the main thread. Under --schedule random each
// time step is a root of its own (bench::run_iterations).
//
// --schedule stows / stuws / relws (issue 8): the setup's first touch is traced
// (schedule::run_traced) and every time step is a phase of its own that replays that steal
// tree in the mode (schedule::run_replayed), so each step's rows run where they were first
// touched; --schedule random runs each step as a root of its own (bench::run_iterations), under
// the runtime's own scheduler.
// --schedule loop runs the paper's iterative RelWS locality loop (schedule::locality_loop) on
// the first touch and step 0 during setup (each redistribution into fresh grids), then
// replays its schedule under stows for every
// step; --schedule designed runs the first touch and every step under a designed block
// partition (worker w the w-th contiguous band of interior rows) under stuws.
#include <locus/locus.hpp>
#include <locus/schedule/replay.hpp>

#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "../../kernel.hpp"
#include "../iterative.hpp"
#include "../locus_declared_rows.hpp"
#include "../locus_replay.hpp"
#include "common.hpp"
#include "declared.hpp"

namespace {

using heat_kernel::instance;

/// Time step t: the spawn structure of first_touch's.
locus::task<void> step(instance* in, int t) {
  const heat_kernel::problem& pr = in->pr;
  const double* from = in->from(t);
  double* to = in->to(t);
  const auto leaf = [&pr, from, to](int lo, int hi) {
    heat_kernel::step_rows(pr, from, to, lo, hi);
  };
  const auto declare = [&pr, from, to](int lo, int hi) {
    return heat_kernel::step_ranges(pr, from, to, lo, hi);
  };
  co_await bench::rows_declared(1, pr.nx - 1, heat_kernel::leaf_rows, &leaf, &declare);
}

/// Rows [lo, hi) of the first touch: the initial value into `a`, zeros into `b`, and zeros
/// into both grids' boundary rows when [lo, hi) reaches them.
void init_rows(const heat_kernel::problem& pr, double* a, double* b, int lo, int hi) {
  heat_kernel::widen_to_boundary(pr, lo, hi);
  for (int i = lo; i < hi; ++i) {
    const bool interior_row = i > 0 && i < pr.nx - 1;
    const double sx = std::sin(i * pr.dx);
    for (int j = interior_row ? 1 : 0; j < (interior_row ? pr.ny - 1 : pr.ny); ++j) {
      a[static_cast<std::size_t>(i) * pr.ny + j] = interior_row ? sx * std::sin(j * pr.dy) : 0.0;
      b[static_cast<std::size_t>(i) * pr.ny + j] = 0.0;
    }
  }
}

/// Writes the initial value into `a` and zeros into `b`, in tasks: the pages are first
/// touched (and so homed) by the workers that will step them.
locus::task<void> first_touch(instance* in) {
  const heat_kernel::problem& pr = in->pr;
  double* a = in->g.a.data();
  double* b = in->g.b.data();
  const auto leaf = [&pr, a, b](int lo, int hi) { init_rows(pr, a, b, lo, hi); };
  const auto declare = [&pr, a, b](int lo, int hi) {
    return heat_kernel::first_touch_ranges(pr, a, b, lo, hi);
  };
  co_await bench::rows_declared(1, pr.nx - 1, heat_kernel::leaf_rows, &leaf, &declare);
}

/// Counts `d`'s ranges as touched by the running task (accounting; the designed schedule's
/// shares carry no declared data).
template <std::size_t N>
void touch_all(const bench::ranges<N>& d) {
  for (const locus::data_range& r : d.span())
    locus::touch(r.begin, r.bytes, r.mode);
}

/// The designed schedule of the first touch (t < 0) or of step t: worker w takes the w-th
/// band of interior rows.
locus::task<void> designed(instance* in, int t, unsigned workers) {
  const heat_kernel::problem* pr = &in->pr;
  double* a = in->g.a.data();
  double* b = in->g.b.data();
  auto share = [pr_ = pr, in, t, a, b](int lo, int hi) {
    const heat_kernel::problem& pr = *pr_;
    if (lo == hi) return;
    if (t >= 0) {
      touch_all(heat_kernel::step_ranges(pr, in->from(t), in->to(t), lo, hi));
      heat_kernel::step_rows(pr, in->from(t), in->to(t), lo, hi);
      return;
    }
    touch_all(heat_kernel::first_touch_ranges(pr, a, b, lo, hi));
    init_rows(pr, a, b, lo, hi);
  };
  return bench::block_partition(1, pr->nx - 1, workers, share);
}

}  // namespace

bench::outcome heat_locus(const bench::args& a) {
  const bool traced = a.schedule == bench::schedule_mode::traced;
  const bool replay = a.schedule != bench::schedule_mode::random && !traced;
  const bool design = a.schedule == bench::schedule_mode::designed;
  std::optional<locus::schedule::steal_tree> tree;  // the first touch's schedule (replay only)
  std::string loop_detail;                          // the loop mode's iterations and schedule size
  // The loop's redistributions write fresh grids (the paper's initializer copies the data;
  // rewriting the old grids would home nothing anew); the grids replaced stay allocated until
  // the run ends.
  std::vector<heat_kernel::grids> retired;
  // The instance lives here, not in measure()'s setup: the loop's and the designed phases'
  // tasks keep its address.
  instance in;
  const auto setup = [&](const std::string& size) -> instance& {
    const heat_kernel::problem pr = heat_kernel::parse(size);
    in = instance{pr, heat_kernel::untouched(*a.rt, pr)};
    if (a.schedule == bench::schedule_mode::loop) {
      // Step 0 reads grid a (which only the first touch writes) and writes b: running it as
      // the loop's kernel leaves the initial state the timed steps start from.
      bool first = true;
      const auto fresh_touch = [&] {
        if (!first) {
          retired.push_back(std::move(in.g));
          in.g = heat_kernel::untouched(*a.rt, in.pr);
        }
        first = false;
        return first_touch(&in);
      };
      auto r = locus::schedule::locality_loop(
          *a.rt, fresh_touch, [&in] { return step(&in, 0); }, bench::loop_options());
      loop_detail = bench::loop_detail(r);
      tree.emplace(std::move(r.schedule));
    } else if (design) {
      tree.emplace(locus::schedule::run_designed(*a.rt, designed(&in, -1, a.workers)).tree);
    } else if (replay) {
      tree.emplace(locus::schedule::run_traced(*a.rt, first_touch(&in)).tree);
    } else {
      a.rt->run(first_touch(&in));
    }
    a.rt->reset_stats();  // what follows is the kernel's
    return in;
  };
  const auto body = [&a, &tree, replay, design, traced](instance& g) {
    if (traced) {  // as random, one root per step, each recorded
      for (int t = 0; t < g.pr.nt; ++t)
        (void)locus::schedule::run_traced(*a.rt, step(&g, t));
      return;
    }
    if (!replay) {
      bench::run_iterations(*a.rt, static_cast<std::size_t>(g.pr.nt),
                            [&g](std::size_t t) { return step(&g, static_cast<int>(t)); });
      return;
    }
    for (int t = 0; t < g.pr.nt; ++t) {
      if (design) {
        (void)locus::schedule::run_designed(*a.rt, designed(&g, t, a.workers));
      } else {
        locus::schedule::run_replayed(*a.rt, step(&g, t), *tree, bench::replay_mode_of(a.schedule));
      }
    }
  };
  bench::outcome out = bench::measure(a.size, setup, body, heat_kernel::check);
  out.detail += loop_detail;
  return out;
}
