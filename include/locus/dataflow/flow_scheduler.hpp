// locus/dataflow/flow_scheduler.hpp — the OCR paper's work-stealing heuristics for task graphs
// (../shared/papers/ocr-macro-dataflow-work-stealing.txt, sections III and IV), as a scheduler
// of the extension interface (locus/ext/scheduler.hpp).
//
//   auto flow = locus::dataflow::flow_scheduler::make({.steal = steal_mode::half_pessimistic,
//                                                       .queue = ready_queue::priority});
//   locus::config cfg;  cfg.custom_scheduler = flow->scheduler();
//   locus::runtime rt{cfg};
//   locus::dataflow::graph g(rt);   // its ready tasks now go to the flow queues
//
// Without it, a task that becomes ready goes on the core's deque of the enabling worker (or a
// place's mailbox) like a help-first child: cheap, the default. With it, every worker has a
// *ready queue* of data-driven tasks beside its deque, ordered first by the tasks' priorities
// (task_hint::priority, given to graph::task: the owner takes the highest, thieves the
// lowest; all 0 by default), then by the mode:
//   * ready_queue::deque — newest first for the owner, oldest first for thieves (the deque's
//     order, but with the stealing below);
//   * ready_queue::priority — ordered by *data-retrieval cost*: the bytes of the task's input
//     datablocks homed away from the queue's worker, each weighted by the topology distance of
//     its home (0 same core, 1 same L3, 2 same NUMA node, 3 same package, 4 another package),
//     computed when the task enters the queue (made ready, or moved by a steal) and not
//     updated while it waits. The owner takes the cheapest (most local, newest on ties);
//     thieves take from the other end, the most expensive for the victim (altruistic
//     stealing).
// Stealing (steal_mode) takes from the thieves' end of a victim's ready queue:
//   * one — one task;
//   * half_pessimistic / half_optimistic — tasks until their weights reach half the victim's
//     queue (at least one). A task's weight is 1 + the number of tasks it leads to: the tasks
//     it statically dominates (pessimistic) or all its descendants (optimistic), given as a
//     task_hint when it is created (graph::task); without a hint both are 0, so steal-half
//     takes half the tasks. The thief runs the first and keeps the rest in its own queue.
// A task made ready by a thread that is not one of the runtime's workers (an event satisfied by
// the main thread, or by locus::mpi's communication worker when a value from another rank
// arrives) goes to a ready queue too: near_data's worker, else the place's workers in turn.
// Victims are visited in the runtime's victim tiers (config::victims: hierarchical, nearest
// first, or random), then every other worker; each group once, from a random member on. Placement
// (graph_options::place) picks the queue: the enabling worker's, or near_data: that of the worker
// on the core that homes the task's largest input datablock.
//
// Cost: a ready task goes through a mutex-protected queue (a ranked ext::shared_pool, bound to
// its worker's idle domain: a push wakes a sleeper there) and the worker loop's acquisition
// (one look through find_work per task) instead of a deque push and pop; meant for tasks of
// microseconds and more (tiles), not fib-sized ones. Frames resumed by events, spawned
// children and mailboxes are scheduled as by SLAW (they go through the built-in acquisition
// after the own ready queue).
#pragma once

#include <cstdint>
#include <memory>

#include "locus/detail/enum_names.hpp"
#include "locus/ext/scheduler.hpp"

namespace locus::dataflow {

/// What a thief takes from a victim's ready queue.
enum class steal_mode : std::uint8_t {
  one,               ///< one task
  half_pessimistic,  ///< half the weight, a task weighing 1 + the tasks it dominates
  half_optimistic,   ///< half the weight, a task weighing 1 + all its descendants
};

/// How a worker's ready queue is ordered.
enum class ready_queue : std::uint8_t {
  deque,     ///< newest first for the owner, oldest first for thieves
  priority,  ///< by data-retrieval cost: cheapest for the owner, dearest for thieves
};

struct flow_options {
  steal_mode steal = steal_mode::one;
  ready_queue queue = ready_queue::deque;
};

/// Counters of the ready queues, summed over the workers since the scheduler was made.
struct flow_stats {
  std::uint64_t pushed = 0;          ///< tasks that entered a ready queue when made ready
  std::uint64_t local_takes = 0;     ///< tasks a worker took from its own ready queue
  std::uint64_t steal_attempts = 0;  ///< looks into a non-empty-looking victim queue
  std::uint64_t steals = 0;          ///< steals that took at least one task
  std::uint64_t tasks_stolen = 0;    ///< tasks those steals took
  /// Sum of the retrieval costs (bytes x distance, for the worker whose queue a task was taken
  /// from, as computed when it entered that queue) of the tasks run, in every queue mode: the
  /// scheduler's own estimate of the data it made workers fetch.
  std::uint64_t cost_at_run = 0;
};

/// A scheduler whose ready queues follow flow_options; install scheduler() in
/// config::custom_scheduler of one runtime (its queues are per worker of that runtime, made by
/// the first of its workers to look or the first graph: make one per runtime; a graph on a
/// second runtime throws std::logic_error). Graphs on a runtime with it use its queues.
class flow_scheduler {
 public:
  [[nodiscard]] static std::shared_ptr<flow_scheduler> make(flow_options o = {});
  virtual ~flow_scheduler() = default;
  /// The scheduler to install (locus::config::custom_scheduler).
  [[nodiscard]] virtual std::shared_ptr<const ext::scheduler> scheduler() const = 0;
  [[nodiscard]] virtual flow_options options() const noexcept = 0;
  [[nodiscard]] virtual flow_stats stats() const noexcept = 0;
};

/// Names for logs and command lines: "one", "half-pessimistic", "half-optimistic"; "deque",
/// "priority".
[[nodiscard]] const char* to_string(steal_mode m) noexcept;
[[nodiscard]] const char* to_string(ready_queue q) noexcept;
/// The name tables (locus/detail/enum_names.hpp): to_string, detail::parse_name, name_forms.
[[nodiscard]] std::span<const locus::detail::enum_name<steal_mode>> names_of(steal_mode) noexcept;
[[nodiscard]] std::span<const locus::detail::enum_name<ready_queue>> names_of(ready_queue) noexcept;

}  // namespace locus::dataflow
