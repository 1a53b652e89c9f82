// locus/runtime.hpp — the runtime: workers on a topology, grouped into places; run() tasks.
#pragma once

#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include "locus/config.hpp"
#include "locus/ext/accounting.hpp"  // locality_stats: the core reaches locality through ext/
#include "locus/stats.hpp"
#include "locus/task.hpp"
#include "locus/topology.hpp"

namespace locus {

class runtime;
namespace ext {
class phase_hooks;
class core_ref;
}  // namespace ext
namespace detail {
struct runtime_state;
void submit_root(runtime_state& rt, frame& root, finish_scope& scope, spawn_options where,
                 ext::phase_hooks* hooks);
void end_root(runtime_state& rt, ext::phase_hooks* hooks) noexcept;
}  // namespace detail

class runtime {
 public:
  /// Starts the workers: one per core of the topology unless cfg.workers says otherwise.
  /// Throws config_error for a bad configuration.
  explicit runtime(config cfg = {});
  /// Stops and joins the workers. No run() may be in progress.
  ~runtime();
  runtime(const runtime&) = delete;
  runtime& operator=(const runtime&) = delete;

  /// Runs `t` to completion on the workers and returns its value, or rethrows its exception
  /// (then the first exception of an async under it). Blocks the calling thread, which must
  /// not be a worker of a locus runtime. `where` may name a place for the root: at(p).
  /// `hooks` (locus/ext/core.hpp) lets an extension begin and end a phase around the run
  /// (locus/schedule/replay.hpp: traced and replayed phases); ordinary runs leave it null.
  template <class T>
  T run(task<T> t, spawn_options where = {}, ext::phase_hooks* hooks = nullptr) {
    if (!t.valid()) throw std::invalid_argument("locus::runtime::run: the task is empty");
    detail::run_signal signal;
    detail::finish_scope scope;
    scope.signal = &signal;
    detail::submit_root(*m_state, t.promise(), scope, where, hooks);
    {
      std::unique_lock lk(signal.mutex);
      signal.cv.wait(lk, [&] { return signal.done; });
    }
    detail::end_root(*m_state, hooks);
    if constexpr (std::is_void_v<T>) {
      t.promise().result();
      rethrow_scope(scope);
    } else if constexpr (std::is_reference_v<T>) {
      T value = t.promise().result();
      rethrow_scope(scope);
      return value;
    } else {
      T& value = t.promise().result();
      rethrow_scope(scope);
      return std::move(value);
    }
  }

  /// Counters of every worker since start or the last reset_stats(). Any thread, any time.
  ///  * Between runs (no run() in progress, and the last one returned on this thread or one
  ///    synchronized with it) the counts of what runs do (spawns, syncs, switches, peak stack
  ///    bytes) are exact. Idle workers still look for work for a while before they sleep, so
  ///    steal attempts (and the membarriers they run), sleeps and idle time go on moving.
  ///  * During a run it is a racy snapshot, but monotone: until the next reset_stats(), every
  ///    field is at least what any earlier stats() call returned.
  ///  * idle_ns includes the idle spell in progress: it grows while the runtime sits idle.
  ///  * peak_stack_bytes is the peak since the reset, never below the bytes held at the reset.
  [[nodiscard]] runtime_stats stats() const;
  /// Locality accounting since start or the last reset_stats() (config::accounting; empty when
  /// off): bytes by distance to their home, local share, straggler socket, modelled L3 misses.
  /// Exact between runs; a racy but consistent-per-counter snapshot during one.
  [[nodiscard]] locality_stats locality() const;
  /// Restart every counter from zero (and the stack peak from the bytes held now). Never
  /// lost to a worker's concurrent update: workers' counters are not written, a baseline is
  /// recorded. Any thread, any time; exact between runs (see stats()).
  void reset_stats();

  [[nodiscard]] unsigned num_workers() const noexcept;
  [[nodiscard]] unsigned num_places() const noexcept;
  /// The place of worker `w` (0 <= w < num_workers()).
  [[nodiscard]] unsigned place_of(unsigned w) const;
  /// The core of worker `w` (an index into topo().cores()), as config::bind laid it.
  [[nodiscard]] std::size_t core_of(unsigned w) const;
  /// Where the workers sit: the topology's line, then "N workers, bind B, P places (places
  /// SPEC)", then one line per worker (describe_workers in locus/topology.hpp).
  [[nodiscard]] std::string describe() const;
  [[nodiscard]] const topology& topo() const noexcept;
  /// The configuration in force: as given, with a scheduler's fixed choices applied (cilk:
  /// work-first, random victims, one place).
  [[nodiscard]] const config& cfg() const noexcept;
  /// The scheduler's name: "slaw", "cilk", or a custom scheduler's.
  [[nodiscard]] std::string_view scheduler_name() const noexcept;
  /// Workers asleep right now (an idle runtime sleeps: this reaches num_workers()).
  [[nodiscard]] unsigned sleeping_workers() const noexcept;

 private:
  friend class ext::core_ref;  // the extensions' door (locus/ext/core.hpp)
  static void rethrow_scope(detail::finish_scope& s) {
    if (s.exception.has()) std::rethrow_exception(s.exception.take());
  }
  std::unique_ptr<detail::runtime_state> m_state;
};

/// Queries about the calling thread.
namespace this_worker {
/// Index of the worker running the caller, or -1 off the runtime's threads.
[[nodiscard]] int index() noexcept;
/// Place of the worker running the caller, or -1.
[[nodiscard]] int place() noexcept;
}  // namespace this_worker

}  // namespace locus
