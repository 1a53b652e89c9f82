// locus/schedule/replay.hpp — record the schedule of a phase as a steal tree, and make a later
// phase follow one (constrained work stealing, papers/constrained-work-stealing.txt, sections
// IV-A to IV-C; docs/design/0008-steal-trees.md, "Recording" and "Replay").
//
//   locus::runtime rt{cfg};                          // any scheduler can be traced
//   auto [v, tree] = locus::schedule::run_traced(rt, init(data));
//
//   auto replay = locus::schedule::make_replay_scheduler();
//   cfg.custom_scheduler = replay->scheduler();      // replay needs its strategies installed
//   locus::runtime rr{cfg};
//   auto t = locus::schedule::run_traced(rr, init(data)).tree;         // random stealing
//   rr_value = locus::schedule::run_replayed(rr, kernel(data), t, replay_mode::stows);
//
// Recording is always available and paid at steals only: a runtime records while a traced
// phase runs (run_traced, or any run_*_traced), one record per steal; the spawn path only
// copies the frame's scheduling word, as it copies its level.
//
// Replay modes (the paper's):
//   stows  strict ordered: every continuation the template stole runs on the template's thief,
//          each worker runs its designated continuations in the template's order (waiting for
//          the next), nobody steals;
//   stuws  strict unordered: the same mapping, through a bounded donation buffer per worker,
//          taken in any order; nobody steals;
//   relws  relaxed: as stuws, but a worker with an empty buffer steals at random, and what it
//          steals goes on following the template below it.
// A template that does not fit the computation (deeper, shallower, other spawn counts, another
// worker count) is followed where it fits (Rules 4.1 and 4.2) and never hangs or crashes:
// spawns the template has no steal for stay with their worker; steals the computation never
// reaches are never waited for past the point where no worker has anything left to run.
#pragma once

#include <chrono>
#include <coroutine>
#include <cstdint>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "locus/detail/enum_names.hpp"
#include "locus/ext/core.hpp"
#include "locus/ext/scheduler.hpp"
#include "locus/runtime.hpp"
#include "locus/schedule/steal_tree.hpp"

namespace locus::schedule {

enum class replay_mode : std::uint8_t {
  stows,  ///< strict ordered
  stuws,  ///< strict unordered
  relws,  ///< relaxed
};

/// "stows", "stuws", "relws".
[[nodiscard]] std::string_view to_string(replay_mode m) noexcept;
/// The name table (locus/detail/enum_names.hpp): to_string, detail::parse_name, name_forms.
[[nodiscard]] std::span<const locus::detail::enum_name<replay_mode>> names_of(replay_mode) noexcept;

struct replay_options {
  /// Capacity of each worker's donation buffer (stuws, relws, designated schedules). A donor
  /// that finds it full keeps the continuation on its own deque (it runs where it was spawned,
  /// or is stolen under relws): a bounded buffer without a donor that spins, which two
  /// workers donating to each other could turn into a deadlock.
  unsigned buffer_capacity = 256;
};

/// What a replay did, for tests and reports (counts since the replayed phase began).
struct replay_report {
  std::uint64_t donations = 0;       ///< continuations or children handed to their worker
  std::uint64_t kept_full = 0;       ///< donations a full buffer refused (kept locally)
  std::uint64_t out_of_order = 0;    ///< stows: slots taken ahead of an unreached one
  std::uint64_t template_nodes = 0;  ///< nodes of the template, root included
  std::uint64_t reached_nodes = 0;   ///< template nodes whose steal point the run reached
  std::uint64_t random_steals = 0;   ///< relws: steals outside the template
};

/// The replay strategies (an acquisition and a spawn rule with placement, locus/ext). Install
/// scheduler() as config::custom_scheduler; between replayed phases it schedules as Cilk does
/// (work-first, random victims), so traced and ordinary runs work on the same runtime. One
/// replay_scheduler per runtime.
class replay_scheduler final : public ext::acquisition,
                               public ext::spawn_rule,
                               public std::enable_shared_from_this<replay_scheduler> {
 public:
  explicit replay_scheduler(replay_options options = {});
  ~replay_scheduler() override;
  replay_scheduler(const replay_scheduler&) = delete;
  replay_scheduler& operator=(const replay_scheduler&) = delete;

  /// The scheduler to install (config::custom_scheduler); named "replay".
  [[nodiscard]] std::shared_ptr<const ext::scheduler> scheduler();

  /// The report of the last replayed phase (after it returned).
  [[nodiscard]] replay_report report() const;

  // The strategy interface (locus/ext/scheduler.hpp).
  bool acquire(ext::worker_ref w, ext::work_item& out) override;
  [[nodiscard]] bool may_sleep(ext::worker_ref w) noexcept override;
  bool work_first(ext::worker_ref w, std::uint32_t level, std::uint32_t spawn_index) override;
  void place(ext::worker_ref w, ext::spawn_site& s) override;
  bool donate(ext::worker_ref w, unsigned to, ext::work_item item) override;
  [[nodiscard]] std::string_view name() const noexcept override { return "replay"; }
  /// The slot holds the steal-tree node that governs a frame.
  [[nodiscard]] bool uses_frame_slot() const noexcept override { return true; }

  struct state;  ///< src/schedule/replay.cpp
  [[nodiscard]] state& internals() noexcept { return *m_state; }

 private:
  // The parts the modes combine (src/schedule/replay.cpp).
  bool look(ext::worker_ref& w, struct plan* p, ext::work_item& out);
  bool take_slot(ext::worker_ref& w, struct plan& p, ext::work_item& out);
  bool take_slot_out_of_order(ext::worker_ref& w, struct plan& p, ext::work_item& out);
  bool steal_at_random(ext::worker_ref& w, struct plan& p, ext::work_item& out);
  std::unique_ptr<state> m_state;
  std::shared_ptr<ext::acquisition> m_random = ext::random_acquisition();
};

[[nodiscard]] std::shared_ptr<replay_scheduler> make_replay_scheduler(replay_options options = {});

/// A traced phase's result and its steal tree.
template <class T>
struct traced {
  T value;
  steal_tree tree;
};
template <>
struct traced<void> {
  steal_tree tree;
};

namespace detail {

/// The start and end of a traced, replayed or designed phase (runtime::run's hooks).
class phase final : public ext::phase_hooks {
 public:
  /// `replayer` null: a traced phase on any scheduler. Else the runtime's replay scheduler;
  /// `tmpl` the template (null: a designed phase, led by designate_after_next_spawn).
  phase(runtime& rt, bool trace, replay_scheduler* replayer, const steal_tree* tmpl,
        replay_mode mode);
  ~phase() = default;
  phase(const phase&) = delete;
  phase& operator=(const phase&) = delete;
  void start(ext::core_ref core, std::uintptr_t root, std::uint32_t place) override;
  void finish(ext::core_ref core) noexcept override;
  /// The phase's steal tree (a traced phase, after it returned). Throws std::runtime_error if
  /// the recording was incomplete.
  [[nodiscard]] steal_tree take_tree();

 private:
  void publish(ext::core_ref core, std::uintptr_t root, std::uint32_t place);
  runtime* m_rt;
  ext::core_ref m_core;  ///< set by start()
  ext::phase_info m_info;
  bool m_trace;
  replay_scheduler* m_replayer;
  const steal_tree* m_tmpl;
  replay_mode m_mode;
  bool m_started = false;
};

/// The runtime's replay scheduler, or std::logic_error naming `what`.
[[nodiscard]] replay_scheduler& replayer_of(runtime& rt, const char* what);

template <class T>
auto run_phase(runtime& rt, task<T>&& t, phase& ph, spawn_options where) {
  static_assert(!std::is_reference_v<T>, "traced phases return values, not references");
  if constexpr (std::is_void_v<T>) {
    rt.run(std::move(t), where, &ph);
    return traced<void>{ph.take_tree()};
  } else {
    T v = rt.run(std::move(t), where, &ph);
    return traced<T>{std::move(v), ph.take_tree()};
  }
}

/// designate_after_next_spawn's check and record (src/schedule/replay.cpp).
void designate(locus::detail::frame& f, unsigned worker);
/// may_be_stolen_below's answer for frame f (src/schedule/replay.cpp).
[[nodiscard]] bool steals_possible_below(const locus::detail::frame& f) noexcept;

struct may_be_stolen_awaiter {
  bool result = true;
  [[nodiscard]] bool await_ready() const noexcept { return false; }
  template <class P>
  bool await_suspend(std::coroutine_handle<P> h) noexcept {
    result = steals_possible_below(h.promise());
    return false;  // never suspends
  }
  [[nodiscard]] bool await_resume() const noexcept { return result; }
};

}  // namespace detail

/// Runs `t` on `rt` with recording on and returns its value and the phase's steal tree (the
/// paper's extractSchedulePrevious() for the phase's root spawn). Works on any scheduler. One
/// traced or replayed phase at a time per runtime (std::logic_error otherwise).
template <class T>
[[nodiscard]] traced<T> run_traced(runtime& rt, task<T> t, spawn_options where = {}) {
  detail::phase ph(rt, true, nullptr, nullptr, replay_mode::stows);
  return detail::run_phase(rt, std::move(t), ph, where);
}

/// Runs `t` following `tmpl` under `mode` (the paper's applyStOWS / applyStUWS / applyRelWS
/// before the phase's spawn). The runtime's scheduler must be a replay_scheduler
/// (std::logic_error otherwise); a template for another worker count is remapped (worker w runs
/// on w mod n, steal_tree::remap_workers); an invalid one is refused (steal_tree_error).
template <class T>
T run_replayed(runtime& rt, task<T> t, const steal_tree& tmpl, replay_mode mode) {
  detail::phase ph(rt, false, &detail::replayer_of(rt, "run_replayed"), &tmpl, mode);
  return rt.run(std::move(t), {}, &ph);
}

/// run_replayed with recording on: the steal tree of the replayed phase (relws's refined
/// schedule, for the iterative locality loop).
template <class T>
[[nodiscard]] traced<T> run_replayed_traced(runtime& rt, task<T> t, const steal_tree& tmpl,
                                            replay_mode mode) {
  detail::phase ph(rt, true, &detail::replayer_of(rt, "run_replayed_traced"), &tmpl, mode);
  return detail::run_phase(rt, std::move(t), ph, {});
}

/// Runs `t` under a user-designed schedule (the paper's Section IV-B): every
/// designate_after_next_spawn(w) in it sends the continuation after the frame's next spawn to
/// worker w; `mode` is stuws (nothing else moves) or relws (idle workers also steal); stows
/// needs an order a designation does not give (std::invalid_argument). Returns the designed
/// schedule as a steal tree, to replay or save.
template <class T>
[[nodiscard]] traced<T> run_designed(runtime& rt, task<T> t,
                                     replay_mode mode = replay_mode::stuws) {
  detail::phase ph(rt, true, &detail::replayer_of(rt, "run_designed"), nullptr, mode);
  return detail::run_phase(rt, std::move(t), ph, {});
}

/// co_await designate_after_next_spawn(w): the continuation after this frame's next spawn runs
/// on worker w (w == this worker: no effect). Valid only in a designed phase (run_designed)
/// and in a frame that heads its phase: the root, or a frame whose parent's continuation was
/// designated at this frame's spawn (the paper's validity rule: nested steals = nested spawns
/// - 1). Otherwise throws std::logic_error, with the frame's level and what is wrong; a worker
/// index out of range throws std::out_of_range.
struct designate_after_next_spawn {
  unsigned worker;
  [[nodiscard]] bool await_ready() const noexcept { return false; }
  template <class P>
  bool await_suspend(std::coroutine_handle<P> h) const {
    detail::designate(h.promise(), worker);
    return false;  // never suspends: resumes at once (a throw above propagates into the task)
  }
  void await_resume() const noexcept {}
};

/// What locality_loop did.
struct locality_loop_result {
  steal_tree schedule;                 ///< the schedule to replay under stows from now on
  unsigned iterations = 0;             ///< relws kernel iterations run
  std::vector<double> kernel_seconds;  ///< each relws kernel's wall time
  std::vector<double> idle_seconds;    ///< each relws kernel's idle time, all workers summed
};

struct locality_loop_options {
  unsigned max_iterations = 5;  ///< relws kernel iterations at most (>= 1)
  /// Stop when an iteration improves neither the kernel's time nor its idle time by at least
  /// this fraction of the previous iteration's.
  double min_gain = 0.02;
  /// Prune each refined schedule to its top (100 - prune_percent)% steal points in level
  /// order before it is used (the paper's pruneTree; 0: keep all). RelWS trees grow by the
  /// random steals of every iteration (docs/benchmarks-replay.md); pruning bounds them.
  unsigned prune_percent = 0;
};

/// The paper's iterative locality loop (Section V) as a helper. `init()` and `kernel()` return
/// the phases' tasks (task<void>); `init` must touch the data with the kernel's spawn
/// structure (a fork/join initializer), since it redistributes the data (first touch) along
/// the schedule. Traces init under the runtime's scheduler; then, each iteration: the kernel
/// under relws on the current schedule (traced: the refined schedule), init again under stows
/// on the refined schedule (the data follows it); until neither the kernel's time nor its idle
/// time improves by min_gain. Returns the schedule to replay the kernel with under stows. The
/// runtime's scheduler must be a replay_scheduler.
template <class Init, class Kernel>
[[nodiscard]] locality_loop_result locality_loop(runtime& rt, Init&& init, Kernel&& kernel,
                                                 locality_loop_options options = {}) {
  (void)detail::replayer_of(rt, "locality_loop");
  const auto idle_total = [&rt] {
    double s = 0;
    for (const auto& w : rt.stats().workers)
      s += static_cast<double>(w.idle_ns) * 1e-9;
    return s;
  };
  locality_loop_result out{run_traced(rt, init()).tree, 0, {}, {}};
  const unsigned max = options.max_iterations == 0 ? 1 : options.max_iterations;
  while (out.iterations < max) {
    const double idle0 = idle_total();
    const auto t0 = std::chrono::steady_clock::now();
    auto refined = run_replayed_traced(rt, kernel(), out.schedule, replay_mode::relws);
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double idle = idle_total() - idle0;
    ++out.iterations;
    const bool improved = out.kernel_seconds.empty() ||
                          secs < out.kernel_seconds.back() * (1.0 - options.min_gain) ||
                          idle < out.idle_seconds.back() * (1.0 - options.min_gain);
    out.kernel_seconds.push_back(secs);
    out.idle_seconds.push_back(idle);
    if (!improved) break;  // keep the schedule the data already follows
    if (options.prune_percent != 0) refined.tree = prune_tree(refined.tree, options.prune_percent);
    // Redistribute: the data follows the refined schedule (first touch under stows).
    run_replayed(rt, init(), refined.tree, replay_mode::stows);
    out.schedule = std::move(refined.tree);
  }
  return out;
}

/// Dynamic task coarsening (the paper's Section VI): `co_await may_be_stolen_below()` is false
/// when nothing this frame spawns from now on can run anywhere but here: under a strict replay
/// (stows, stuws) whose template has no steal point left in this frame or below it (a frame
/// outside the template included). Then the task may run a sequential kernel instead of
/// spawning. True everywhere else (no replay, relws, a designed phase, off a worker).
[[nodiscard]] inline detail::may_be_stolen_awaiter may_be_stolen_below() noexcept {
  return {};
}

}  // namespace locus::schedule
