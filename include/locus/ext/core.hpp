// locus/ext/core.hpp — what an extension may see of, and do with, a runtime: the one door.
//
// Extensions (steal-tree recording and replay, the dataflow layer, the locality model, the
// schedulers to come) reach a runtime only through the handles of locus/ext/: core_ref (this
// file: the runtime as a whole), worker_ref (scheduler.hpp: the worker a strategy runs on),
// task_ref (observer.hpp: a frame's scheduling header), shared_pool (pool.hpp), and the calls
// of ready.hpp (work that becomes runnable without a spawn). They never include src/ headers
// or name a worker's fields; the core never calls an extension by name, only the strategies
// and observers installed through these handles. tests/include_boundary.cmake fails the ctest
// run when either rule is broken (docs/design/0011-one-door.md).
//
// A core_ref is a pointer: cheap to copy, valid while its runtime lives, null when made from
// a thread that is no runtime's worker (current()). Its calls are safe from any thread unless
// a comment says otherwise; none of them is on the spawn, sync, push or pop paths.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "locus/detail/worker.hpp"
#include "locus/stats.hpp"
#include "locus/topology.hpp"

namespace locus {
class runtime;
class accountant;
}  // namespace locus

namespace locus::detail {
struct runtime_state;
}

namespace locus::ext {

class acquisition;
class spawn_rule;
class observer;
class shared_pool;
class core_ref;
class iteration_hooks;

/// What a phase is, as observers and extensions see it while it runs (core_ref::phase()).
struct phase_info {
  std::string_view kind;   ///< "traced", "replayed", "designed", ... (the extension's word)
  std::string_view mode;   ///< e.g. a replay mode ("stows"); empty if none
  bool recording = false;  ///< steal-tree recording is on for the phase
};

/// The start and end of a phase of runtime::run (locus/schedule/replay.hpp: traced, replayed
/// and designed phases). start() publishes the root item (instead of the core posting it to
/// place `place`'s pool) or throws having published nothing; finish() runs on run()'s thread
/// once the phase is done, before its result is read.
class phase_hooks {
 public:
  virtual void start(core_ref core, std::uintptr_t root_item, std::uint32_t place) = 0;
  virtual void finish(core_ref core) noexcept = 0;

 protected:
  ~phase_hooks() = default;
};

class core_ref {
 public:
  core_ref() noexcept = default;
  explicit core_ref(detail::runtime_state* s) noexcept : m_s(s) {}

  /// The core of runtime `r`.
  [[nodiscard]] static core_ref of(runtime& r) noexcept;
  /// The core whose worker the calling thread is; null off the workers.
  [[nodiscard]] static core_ref current() noexcept {
    detail::worker* w = detail::t_worker;
    return w != nullptr ? core_ref(&w->rt()) : core_ref{};
  }

  [[nodiscard]] explicit operator bool() const noexcept { return m_s != nullptr; }
  [[nodiscard]] bool operator==(const core_ref&) const noexcept = default;
  /// The opaque identity, for an extension that must store it untyped (a datablock).
  [[nodiscard]] void* raw() const noexcept { return m_s; }
  [[nodiscard]] static core_ref from_raw(void* p) noexcept {
    return core_ref(static_cast<detail::runtime_state*>(p));
  }
  /// A number unique to this runtime among those the process made (an address may be reused
  /// after a runtime is destroyed; this is not). 0 for a null core_ref.
  [[nodiscard]] std::uint64_t id() const noexcept;
  /// A flag that stays true while the runtime exists and is cleared (release) by ~runtime once
  /// its workers have stopped: for state that may outlive the runtime (a dataflow graph's),
  /// which reads it (acquire) before it would reach the runtime from outside its workers.
  [[nodiscard]] std::shared_ptr<const std::atomic<bool>> liveness() const noexcept;
  /// Whether the calling thread is one of this runtime's workers.
  [[nodiscard]] bool is_current() const noexcept {
    detail::worker* w = detail::t_worker;
    return w != nullptr && &w->rt() == m_s;
  }

  // The machine and the workers on it.
  [[nodiscard]] unsigned num_workers() const noexcept;
  [[nodiscard]] unsigned num_places() const noexcept;
  [[nodiscard]] unsigned place_of(unsigned worker) const noexcept;
  /// Workers of place p, in index order.
  [[nodiscard]] const std::vector<unsigned>& place_workers(unsigned p) const noexcept;
  [[nodiscard]] const topology& topo() const noexcept;
  /// Index into topo().cores() of worker w's core.
  [[nodiscard]] std::size_t core_of(unsigned worker) const noexcept;
  /// Per worker, its core's index (what core_of returns, as one vector).
  [[nodiscard]] const std::vector<std::size_t>& cores_of_workers() const noexcept;
  /// Topology distance between two workers' cores.
  [[nodiscard]] distance between_workers(unsigned a, unsigned b) const noexcept;

  // The strategies and services installed in it.
  /// The locality accountant (config::accounting), or null when accounting is off.
  [[nodiscard]] accountant* accounting() const noexcept;
  [[nodiscard]] acquisition* acquisition_strategy() const noexcept;
  /// The custom spawn rule, or null (the built-in policy).
  [[nodiscard]] spawn_rule* spawn_strategy() const noexcept;
  /// The scheduler's iteration hooks (locus/iterate.hpp), or null.
  [[nodiscard]] iteration_hooks* iteration_strategy() const noexcept;
  /// Keep an ended iteration's record for runtime::stats() (locus::iterate, after its run:
  /// never during one, the lock it takes is outside what the record measures).
  void record_iteration(iteration_stats r) const;

  // Work and sleepers.
  /// Place p's shared pool (its mailbox: roots, remote spawns, frames sent home).
  [[nodiscard]] shared_pool& place_pool(unsigned p) const noexcept;
  /// Push `item` into place p's pool and wake one sleeper of its idle domain. Throws
  /// std::bad_alloc if the pool cannot grow.
  void post(unsigned place, std::uintptr_t item) const;
  /// Wake every sleeping worker (one load per idle domain when nobody sleeps).
  void wake_all() const noexcept;
  /// Wake one sleeper of worker w's idle domain (the workers that sleep with it: its place,
  /// or the runtime with cross-place stealing), or every sleeper of it (`all`).
  void wake_domain_of(unsigned worker, bool all = false) const noexcept;
  // Idle domains (docs/design/0003): the workers that sleep and wake together. One per place,
  // one for all with cross-place stealing, or the scheduler's (ext::scheduler::idle_domains).
  [[nodiscard]] unsigned num_idle_domains() const noexcept;
  [[nodiscard]] unsigned idle_domain_of(unsigned worker) const noexcept;
  /// The workers of domain d, in index order.
  [[nodiscard]] const std::vector<unsigned>& domain_workers(unsigned d) const noexcept;
  /// Wake worker `worker` if it is parked (true); false if it is awake or about to park, in
  /// which case it re-reads its strategy (acquisition::may_sleep) and its domain's pools before
  /// it blocks: publish what it must see (seq_cst) before calling this.
  bool wake_worker(unsigned worker) const noexcept;
  /// Wake one parked worker of domain d, or every one (`all`).
  void wake_domain(unsigned d, bool all = false) const noexcept;
  /// Workers of domain d running a task now (a racy hint; 0: the domain is quiet).
  [[nodiscard]] unsigned domain_active(unsigned d) const noexcept;
  /// Workers running a task now (a racy hint, worker_ref::active_workers).
  [[nodiscard]] unsigned active_workers() const noexcept;

  // Phases. One at a time per runtime.
  /// Begin a phase described by `info` (which must outlive it); false if one is running.
  /// Observers see phase_event::begin.
  [[nodiscard]] bool begin_phase(const phase_info* info) const noexcept;
  /// End the phase begun by begin_phase (observers see phase_event::end).
  void end_phase() const noexcept;
  /// The phase running now, or null. Acquire: its info is visible to whoever sees it.
  [[nodiscard]] const phase_info* phase() const noexcept;

  // Observers (observer.hpp). Added, never removed: an observer that is done disables itself.
  /// The observer installed under `key`, made by `make` and installed now if there is none.
  /// Any thread; a worker that picks up work published after this returns sees it.
  std::shared_ptr<observer> install_once(const void* key,
                                         const std::function<std::shared_ptr<observer>()>& make);
  /// The observer installed under `key`, or null.
  [[nodiscard]] observer* find(const void* key) const noexcept;

  // The per-frame strategy slot (task_ref::slot, spawn_site's parent_slot / child_slot): 32
  // bits every frame carries and inherits, with one owner per runtime (docs/design/0011,
  // "Per-frame state"). The custom spawn rule owns it from the start if it says so
  // (spawn_rule::uses_frame_slot); any other extension that would write it (an observer
  // through task_ref::set) claims it first. Two owners cannot be combined: the second claim
  // throws. The phase half of the scheduling word (steal-tree recording) is not the slot.
  /// Claims the slot for `owner` (named `who` in messages). Again for the same owner: nothing.
  /// Throws std::logic_error naming both when another owner holds it. Any thread.
  void claim_frame_slot(const void* owner, std::string_view who) const;
  /// The name of the slot's owner, or empty while nobody owns it.
  [[nodiscard]] std::string frame_slot_owner() const;

 private:
  detail::runtime_state* m_s = nullptr;
};

/// The calling worker's index and place (valid only on a worker: core_ref::current()).
[[nodiscard]] inline unsigned this_worker_index() noexcept {
  return detail::t_worker->index();
}
[[nodiscard]] inline unsigned this_worker_place() noexcept {
  return detail::t_worker->place();
}

}  // namespace locus::ext
