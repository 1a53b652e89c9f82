// locus/runtime.hpp — the runtime: workers on a topology, grouped into places; run() tasks.
#pragma once

#include <memory>
#include <mutex>
#include <stdexcept>
#include <type_traits>

#include "locus/config.hpp"
#include "locus/stats.hpp"
#include "locus/task.hpp"
#include "locus/topology.hpp"

namespace locus {

namespace detail {
struct runtime_state;
void submit_root(runtime_state& rt, frame& root, std::uint32_t place);
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
  template <class T>
  T run(task<T> t, spawn_options where = {}) {
    if (!t.valid()) throw std::invalid_argument("locus::runtime::run: the task is empty");
    detail::run_signal signal;
    detail::finish_scope scope;
    scope.signal = &signal;
    detail::frame& root = t.promise();
    root.m_kind = detail::frame_kind::root;
    root.m_finish = &scope;
    detail::submit_root(*m_state, root, where.place);
    {
      std::unique_lock lk(signal.mutex);
      signal.cv.wait(lk, [&] { return signal.done; });
    }
    if constexpr (std::is_void_v<T>) {
      t.promise().result();
      rethrow_scope(scope);
    } else {
      T& value = t.promise().result();
      rethrow_scope(scope);
      return std::move(value);
    }
  }

  /// Counters of every worker since start or the last reset_stats().
  [[nodiscard]] runtime_stats stats() const;
  void reset_stats();

  [[nodiscard]] unsigned num_workers() const noexcept;
  [[nodiscard]] unsigned num_places() const noexcept;
  /// The place of worker `w` (0 <= w < num_workers()).
  [[nodiscard]] unsigned place_of(unsigned w) const;
  [[nodiscard]] const topology& topo() const noexcept;
  [[nodiscard]] const config& cfg() const noexcept;
  /// Workers asleep right now (an idle runtime sleeps: this reaches num_workers()).
  [[nodiscard]] unsigned sleeping_workers() const noexcept;

 private:
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
