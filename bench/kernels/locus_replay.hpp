// bench/kernels/locus_replay.hpp — the locus kernels' side of locus-bench's --schedule axis:
// the replay mode a value asks for, a runner for the phases of a kernel that replays its
// setup's steal tree (or the locality loop's, or runs designed phases), the locality loop's
// setup for kernels whose phases change their data, and a designed block partition (the
// paper's Section IV-B).
#pragma once

#include <locus/locus.hpp>
#include <locus/schedule/replay.hpp>

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>
#include <vector>

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

/// The options of the loop mode: the paper's defaults (at most 5 RelWS iterations, stop when
/// neither time nor idle time improves by 2%), or, with LOCUS_BENCH_LOOP_FIXED=N in the
/// environment, exactly N iterations (no convergence test: for measuring how the refined
/// schedules grow).
/// Parsed like every LOCUS_* variable (src/config.cpp): unset or empty means the default;
/// anything but an integer from 1 to 1000 is a locus::config_error naming the variable and
/// the value.
[[nodiscard]] inline locus::schedule::locality_loop_options loop_options() {
  locus::schedule::locality_loop_options o;
  const char* fixed = std::getenv("LOCUS_BENCH_LOOP_FIXED");
  if (fixed == nullptr || *fixed == '\0') return o;
  const std::string_view v(fixed);
  unsigned n = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (ec != std::errc{} || end != v.data() + v.size() || n == 0 || n > 1000)
    throw locus::make_config_error("LOCUS_BENCH_LOOP_FIXED", v, "an integer from 1 to 1000");
  o.max_iterations = n;
  o.min_gain = -1e12;  // every iteration counts as an improvement
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

/// The loop mode's setup for a kernel whose phases change its data (fdtd, floyd, cg, scan):
/// runs schedule::locality_loop with `init()` (the first touch, a task writing the initial
/// values along the kernel's decomposition) and `kernel()` (one timed phase), `renew()`
/// replacing the data with freshly allocated arrays before every redistribution but the
/// first (the paper's initializer copies the data; rewriting old arrays would home nothing
/// anew: renew must keep the old ones allocated until the run ends, so no later allocation
/// reuses their pages). The loop's trial kernels change the data, and the last one may run
/// after the last redistribution (when the loop stops for want of gain), so init() runs once
/// more, in place, along the schedule the data follows (stows): the timed run starts from the
/// initial values and the homes stay where the loop put them. Appends loop_detail to
/// `detail`; returns the schedule to replay under stows.
template <class Renew, class Init, class Kernel>
[[nodiscard]] locus::schedule::steal_tree loop_setup(locus::runtime& rt, Renew&& renew, Init&& init,
                                                     Kernel&& kernel, std::string& detail) {
  bool first = true;
  const auto fresh_init = [&] {
    if (!first) renew();
    first = false;
    return init();
  };
  auto r = locus::schedule::locality_loop(rt, fresh_init, kernel, loop_options());
  locus::schedule::run_replayed(rt, init(), r.schedule, locus::schedule::replay_mode::stows);
  detail += loop_detail(r);
  return std::move(r.schedule);
}

/// Declares `ranges` for the running task (accounting; a designed share declares its own).
inline void touch_all(std::span<const locus::data_range> ranges) {
  for (const locus::data_range& r : ranges)
    locus::touch(r.begin, r.bytes, r.mode);
}

/// The phases of a kernel run under any --schedule: setup() runs the setup phase (traced when
/// replayed), or setup_loop() the locality loop (loop) and designed() a designed phase
/// (designed: setup and timed phases alike); phase() a timed phase (replaying the setup's or
/// the loop's steal tree in the mode), whole() the timed computation in one run when nothing
/// replays (traced under traced).
class replayed_phases {
 public:
  explicit replayed_phases(const args& a) : m_rt(a.rt), m_mode(a.schedule) {}

  /// Whether the phases replay (every mode but random and traced; designed runs designed()).
  [[nodiscard]] bool replay() const noexcept {
    return m_mode != schedule_mode::random && m_mode != schedule_mode::traced;
  }
  [[nodiscard]] bool loop() const noexcept { return m_mode == schedule_mode::loop; }
  [[nodiscard]] bool design() const noexcept { return m_mode == schedule_mode::designed; }
  /// What the loop mode adds to the run's detail (empty otherwise).
  [[nodiscard]] const std::string& detail() const noexcept { return m_detail; }

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

  /// The loop mode's setup (loop_setup): the timed phases replay its schedule under stows.
  template <class Renew, class Init, class Kernel>
  void setup_loop(Renew&& renew, Init&& init, Kernel&& kernel) {
    m_tree.emplace(loop_setup(*m_rt, renew, init, kernel, m_detail));
  }

  /// A designed phase (schedule::run_designed under stuws): `t` must head it (a
  /// block_partition itself, not a task that calls one).
  void designed(locus::task<void> t) { (void)locus::schedule::run_designed(*m_rt, std::move(t)); }

  /// A timed phase: follows the setup's schedule (after setup() or setup_loop()).
  template <class T>
  T phase(locus::task<T> t) {
    if (!replay()) return m_rt->run(std::move(t));
    return locus::schedule::run_replayed(*m_rt, std::move(t), *m_tree, replay_mode_of(m_mode));
  }

 private:
  locus::runtime* m_rt;
  schedule_mode m_mode;
  std::optional<locus::schedule::steal_tree> m_tree;
  std::string m_detail;
};

namespace detail {

template <class Share>
locus::task<void> run_share(const Share* share, unsigned w, int lo, int hi) {
  if constexpr (std::is_invocable_v<const Share&, unsigned, int, int>) {
    (*share)(w, lo, hi);
  } else {
    (*share)(lo, hi);
  }
  co_return;
}

/// block_partition's default prologue: none.
struct no_prologue {
  void operator()() const noexcept {}
};

}  // namespace detail

/// A designed schedule (run under schedule::run_designed): [lo, hi) cut into `workers`
/// contiguous shares, share w run by worker w as one task calling share(lo_w, hi_w) (or
/// share(w, lo_w, hi_w), for a share that files a partial result by worker). The root first
/// calls prologue() (work every share needs done first, e.g. floyd's pivot copy), then
/// designates the continuation after spawning share w to worker w + 1, so (work-first) share
/// w runs where the root's continuation was: worker w. Designations are valid only in the
/// frame heading the phase: pass this task itself to run_designed (not a task that calls it).
template <class Share, class Prologue = detail::no_prologue>
locus::task<void> block_partition(int lo, int hi, unsigned workers, Share share,
                                  Prologue prologue = {}) {
  prologue();
  const long n = hi - lo;
  for (unsigned w = 0; w < workers; ++w) {
    const int a = lo + static_cast<int>(n * w / workers);
    const int b = lo + static_cast<int>(n * (w + 1) / workers);
    if (w + 1 < workers) {
      const locus::schedule::designate_after_next_spawn to{w + 1};
      co_await to;
    }
    co_await locus::spawn(detail::run_share(&share, w, a, b));
  }
  co_await locus::sync();
}

/// A designed loop over [0, n) (cg's and scan's loops under --schedule designed): worker w
/// runs map(lo, hi) on its share, declaring declare(lo, hi) (a bench::ranges) when counting.
/// A map that returns a value makes it a reduction: the shares' results are summed in worker
/// order (the same sum for the same worker count; not parallel_reduce's tree).
template <class Map, class Declare, class T = std::invoke_result_t<const Map&, int, int>>
T designed_loop(locus::runtime& rt, int n, unsigned workers, const Map& map,
                const Declare& declare) {
  if constexpr (std::is_void_v<T>) {
    const auto share = [&map, &declare](int lo, int hi) {
      if (lo == hi) return;
      if (locus::accounting_active()) touch_all(declare(lo, hi).span());
      map(lo, hi);
    };
    (void)locus::schedule::run_designed(rt, block_partition(0, n, workers, share));
  } else {
    std::vector<T> part(workers, T{});
    const auto share = [&part, &map, &declare](unsigned w, int lo, int hi) {
      if (lo == hi) return;
      if (locus::accounting_active()) touch_all(declare(lo, hi).span());
      part[w] = map(lo, hi);
    };
    (void)locus::schedule::run_designed(rt, block_partition(0, n, workers, share));
    T sum{};
    for (const T& p : part)
      sum = sum + p;
    return sum;
  }
}

}  // namespace bench
