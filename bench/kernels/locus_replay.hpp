// bench/kernels/locus_replay.hpp — the locus kernels' side of locus-bench's --schedule axis:
// the replay mode a value asks for, a runner for the phases of a kernel that replays its
// setup's steal tree, and a designed block partition (the paper's Section IV-B).
#pragma once

#include <locus/locus.hpp>
#include <locus/schedule/replay.hpp>

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "../kernel.hpp"

namespace bench {

/// The replay mode a --schedule value's timed phases follow (random has none: callers check
/// it first; loop replays its schedule strictly, designed runs under stuws).
[[nodiscard]] inline locus::schedule::replay_mode replay_mode_of(schedule_mode m) {
  switch (m) {
    case schedule_mode::stuws:
    case schedule_mode::designed:
      return locus::schedule::replay_mode::stuws;
    case schedule_mode::relws:
      return locus::schedule::replay_mode::relws;
    default:
      return locus::schedule::replay_mode::stows;
  }
}

/// The phases of a kernel run under --schedule random, traced, stows, stuws or relws: setup()
/// runs the setup phase (traced when replayed), phase() a timed phase (replaying the setup's
/// steal tree in the mode), whole() the timed computation in one run when nothing replays
/// (traced under traced).
class replayed_phases {
 public:
  explicit replayed_phases(const args& a) : m_rt(a.rt), m_mode(a.schedule) {}

  /// Whether the phases replay (every mode but random and traced).
  [[nodiscard]] bool replay() const noexcept {
    return m_mode != schedule_mode::random && m_mode != schedule_mode::traced;
  }

  /// The whole timed computation when nothing replays: an ordinary run, or a traced one.
  template <class T>
  T whole(locus::task<T> t) {
    if (m_mode != schedule_mode::traced) return m_rt->run(std::move(t));
    auto r = locus::schedule::run_traced(*m_rt, std::move(t));
    if constexpr (!std::is_void_v<T>) return std::move(r.value);
  }

  /// The setup phase (the first touch), traced when the timed phases replay it.
  template <class T>
  T setup(locus::task<T> t) {
    if (!replay()) return m_rt->run(std::move(t));
    auto r = locus::schedule::run_traced(*m_rt, std::move(t));
    m_tree.emplace(std::move(r.tree));
    if constexpr (!std::is_void_v<T>) return std::move(r.value);
  }

  /// A timed phase: follows the setup's schedule (after setup()).
  template <class T>
  T phase(locus::task<T> t) {
    if (!replay()) return m_rt->run(std::move(t));
    return locus::schedule::run_replayed(*m_rt, std::move(t), *m_tree, replay_mode_of(m_mode));
  }

 private:
  locus::runtime* m_rt;
  schedule_mode m_mode;
  std::optional<locus::schedule::steal_tree> m_tree;
};

/// The options of the loop mode: the paper's defaults (at most 5 RelWS iterations, stop when
/// neither time nor idle time improves by 2%), or, with LOCUS_BENCH_LOOP_FIXED=N in the
/// environment, exactly N iterations (no convergence test: for measuring how the refined
/// schedules grow).
[[nodiscard]] inline locus::schedule::locality_loop_options loop_options() {
  locus::schedule::locality_loop_options o;
  if (const char* fixed = std::getenv("LOCUS_BENCH_LOOP_FIXED")) {
    const long n = std::strtol(fixed, nullptr, 10);
    if (n > 0) {
      o.max_iterations = static_cast<unsigned>(n);
      o.min_gain = -1e12;  // every iteration counts as an improvement
    }
  }
  return o;
}

/// What the loop mode adds to a run's detail: iterations, and the size of the schedule it
/// settled on (nodes, KiB per worker: the paper's steal-tree memory table).
[[nodiscard]] inline std::string loop_detail(const locus::schedule::locality_loop_result& r) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "; loop iterations %u, schedule %zu nodes, %.3f KiB/worker",
                r.iterations, r.schedule.size(), r.schedule.memory().kib_per_worker());
  return buf;
}

namespace detail {

template <class Share>
locus::task<void> run_share(const Share* share, int lo, int hi) {
  (*share)(lo, hi);
  co_return;
}

}  // namespace detail

/// A designed schedule (run under schedule::run_designed): [lo, hi) cut into `workers`
/// contiguous shares, share w run by worker w as one task calling share(lo_w, hi_w). The root
/// designates the continuation after spawning share w to worker w + 1, so (work-first) share
/// w runs where the root's continuation was: worker w. Designations are valid only in the
/// frame heading the phase: pass this task itself to run_designed (not a task that calls it).
template <class Share>
locus::task<void> block_partition(int lo, int hi, unsigned workers, Share share) {
  const long n = hi - lo;
  for (unsigned w = 0; w < workers; ++w) {
    const int a = lo + static_cast<int>(n * w / workers);
    const int b = lo + static_cast<int>(n * (w + 1) / workers);
    if (w + 1 < workers) {
      const locus::schedule::designate_after_next_spawn to{w + 1};
      co_await to;
    }
    co_await locus::spawn(detail::run_share(&share, a, b));
  }
  co_await locus::sync();
}

}  // namespace bench
