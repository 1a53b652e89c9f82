// heat, locus: per time step, the interior rows are split in halves recursively; the first half
// is spawned, the second run inline, down to leaf_rows rows (Cilk's heat). Each step's root
// declares the rows it reads and writes (locus/data.hpp): its leaves inherit exactly their
// rows, so locality accounting (--accounting) sees every access. The setup first-touches both
// grids in tasks of the same decomposition, untimed.
//
// --schedule stows / stuws / relws (issue 8): the setup's first touch is traced
// (schedule::run_traced) and every time step is a phase of its own that replays that steal
// tree in the mode (schedule::run_replayed), so each step's rows run where they were first
// touched; --schedule random runs all steps in one task, under the runtime's own scheduler.
#include <locus/locus.hpp>
#include <locus/schedule/replay.hpp>

#include <array>
#include <cmath>
#include <optional>

#include "../../kernel.hpp"
#include "../locus_replay.hpp"
#include "../locus_rows.hpp"
#include "common.hpp"

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
  const std::array<locus::data_range, 2> data{
      bench::rows_of(from, pr.ny, 1, pr.nx - 1, locus::access::read),
      bench::rows_of(to, pr.ny, 1, pr.nx - 1, locus::access::write)};
  auto rows = locus::with_data(bench::split_rows(1, pr.nx - 1, heat_kernel::leaf_rows, &leaf), data,
                               bench::row_split<double>(pr.ny));
  co_await std::move(rows);
}

locus::task<void> solve(instance* in) {
  for (int t = 0; t < in->pr.nt; ++t)
    co_await step(in, t);
}

/// Writes the initial value into `a` and zeros into `b`, interior rows, in tasks: the pages
/// are first touched (and so homed) by the workers that will step them.
locus::task<void> first_touch(instance* in) {
  const heat_kernel::problem& pr = in->pr;
  double* a = in->g.a.data();
  double* b = in->g.b.data();
  const auto leaf = [&pr, a, b](int lo, int hi) {
    for (int i = lo; i < hi; ++i) {
      const double sx = std::sin(i * pr.dx);
      for (int j = 1; j < pr.ny - 1; ++j) {
        a[static_cast<std::size_t>(i) * pr.ny + j] = sx * std::sin(j * pr.dy);
        b[static_cast<std::size_t>(i) * pr.ny + j] = 0.0;
      }
    }
  };
  const std::array<locus::data_range, 2> data{
      bench::rows_of(a, pr.ny, 1, pr.nx - 1, locus::access::write),
      bench::rows_of(b, pr.ny, 1, pr.nx - 1, locus::access::write)};
  auto init = locus::with_data(bench::split_rows(1, pr.nx - 1, heat_kernel::leaf_rows, &leaf), data,
                               bench::row_split<double>(pr.ny));
  co_await std::move(init);
}

}  // namespace

bench::outcome heat_locus(const bench::args& a) {
  const bool replay = a.schedule != bench::schedule_mode::random;
  std::optional<locus::schedule::steal_tree> tree;  // the first touch's schedule (replay only)
  const auto setup = [&a, &tree, replay](const std::string& size) {
    instance in = heat_kernel::setup(size);
    if (replay) {
      tree.emplace(locus::schedule::run_traced(*a.rt, first_touch(&in)).tree);
    } else {
      a.rt->run(first_touch(&in));
    }
    a.rt->reset_stats();  // what follows is the kernel's
    return in;
  };
  const auto body = [&a, &tree, replay](instance& in) {
    if (!replay) {
      a.rt->run(solve(&in));
      return;
    }
    for (int t = 0; t < in.pr.nt; ++t)
      locus::schedule::run_replayed(*a.rt, step(&in, t), *tree, bench::replay_mode_of(a.schedule));
  };
  return bench::measure(a.size, setup, body, heat_kernel::check);
}
