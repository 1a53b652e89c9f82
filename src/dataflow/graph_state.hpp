// The graph's shared state and its task counts, as graph.cpp (the readiness protocol) and
// counts.cpp (the counting) share them: private to src/dataflow. docs/design/0010-dataflow.md,
// "Graph completion", states the protocol.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <vector>

#include "flow_queues.hpp"
#include "locus/dataflow/graph.hpp"
#include "locus/detail/promise.hpp"
#include "locus/ext/core.hpp"

namespace locus::dataflow::detail {

/// The graph's shared state: lives while the graph object or any unfinished task does.
struct graph_state {
  graph_state() = default;
  graph_state(const graph_state&) = delete;
  graph_state& operator=(const graph_state&) = delete;
  /// A failure nobody was told of (no wait() or co_await rethrew it) goes to the error report
  /// (report_unobserved, graph.cpp): a failure is never silent.
  ~graph_state();

  /// Three counts in one word, so that a task's bookkeeping is one read-modify-write of one
  /// shared line (every worker touches it):
  ///  * alive (bit 63): the graph object exists;
  ///  * pending (bits 32..62): tasks created and not finished (ran, skipped or cancelled); the
  ///    graph is done at zero;
  ///  * in flight (bits 0..31): tasks fired (ready or running) and not finished. After a failure
  ///    the graph is done when this reaches zero: nothing of it runs, and nothing of it can
  ///    become ready except through a satisfy from outside, whose task is then skipped.
  /// The state is freed by whoever brings the word to zero (the object gone, nothing pending):
  /// tasks hold no reference of their own, so a task costs no other shared update. A finisher
  /// that makes the graph done while the object is alive holds the mutex across its update
  /// and its notification, and the object's release takes the mutex before clearing `alive`,
  /// so the state cannot be freed under a notifier (task_done).
  std::atomic<std::uint64_t> counts{k_alive};
  std::atomic<bool> failed{false};
  locus::detail::exception_slot error;  ///< first exception wins
  /// A wait() or co_await rethrew the failure (relaxed: read by the state's destructor, which
  /// the last update of `counts` orders after every rethrow).
  std::atomic<bool> observed{false};
  /// Tasks that became ready after the failure (or after the runtime was destroyed) and were
  /// not run (graph::skipped). Relaxed: a statistic, read after the graph is done.
  std::atomic<std::uint64_t> skipped{0};
  ext::core_ref rt;  ///< the runtime the graph's tasks run on
  /// The runtime's liveness (ext::core_ref::liveness): a task that becomes ready from outside the
  /// runtime's workers after ~runtime is skipped, not pushed into freed memory.
  std::shared_ptr<const std::atomic<bool>> rt_alive;
  placement place;
  flow_queues* flow = nullptr;  ///< the runtime's flow scheduler's ready queues, if it has one
  /// The next worker of a place to get a task made ready outside the workers (fire(): the
  /// flow scheduler's queues), a turn counter; relaxed: only spreads them.
  std::atomic<unsigned> outside_turn{0};
  /// Waiters: a thread in wait() (cv) or frames in co_await g. The condition is re-checked
  /// under the mutex, and a finisher that makes it true notifies under the mutex, so no
  /// wake-up is lost.
  std::mutex mutex;
  std::condition_variable cv;
  std::vector<locus::detail::frame*> frames;
  /// Output-event edges (edt::done(), graph.cpp): the records of this graph's tasks, their
  /// successor lists and marks are read and written under this mutex only. Ordinary events and
  /// tasks whose done() is never called never take it.
  std::mutex out_mutex;
  std::uint64_t out_epoch = 0;  ///< the cycle search's visit mark, under out_mutex

  static constexpr std::uint64_t k_alive = std::uint64_t{1} << 63;
};

inline constexpr std::uint64_t k_alive = graph_state::k_alive;
inline constexpr std::uint64_t k_one_pending = std::uint64_t{1} << 32, k_one_flying = 1;
inline constexpr std::uint64_t pending_of(std::uint64_t c) noexcept {
  return (c & ~k_alive) >> 32;
}
inline constexpr std::uint64_t flying_of(std::uint64_t c) noexcept {
  return c & 0xffffffffu;
}

/// Whether a graph whose word reads `c` is done: nothing pending, or after a failure nothing in
/// flight.
[[nodiscard]] bool done_at(std::uint64_t c, const graph_state& g) noexcept;
[[nodiscard]] bool graph_is_done(const graph_state& g) noexcept;
/// A body of g threw `e`: kept if first; `failed` is set before the task's final update.
void graph_fail(graph_state& g, std::exception_ptr e) noexcept;
/// Counts `p` tasks created and `f` fired in g (from this worker's debt, this thread's credits,
/// or the word).
void count_tasks(graph_state& g, std::uint64_t p, std::uint64_t f) noexcept;
/// A task left the graph: it ran or was skipped (`fired`), or was cancelled before it fired;
/// `extra`: credits its body left over. May wake g's waiters or free g.
void task_finished(graph_state& g, bool fired, std::uint64_t extra) noexcept;
/// Installs on `rt` (once) the observer that pays a worker's debt of task counts when its
/// deque runs empty (counts.cpp). Before any task of a graph on `rt` runs.
void install_debt_observer(ext::core_ref rt);
/// Runs task n's plain body with this thread's credits for its graph; returns the units left
/// over (task_finished's `extra`). A body's exception is caught and recorded (graph_fail), and
/// `threw` set.
[[nodiscard]] std::uint64_t call_with_credits(edt_node* n, edt_args& in, bool& threw) noexcept;

}  // namespace locus::dataflow::detail
