// locus/laws.hpp — LAWS (Chen, Guo, Guan, ICS'14): locality-aware work stealing for iterative
// divide-and-conquer programs on several sockets (docs/design/0017-laws.md).
//
//   locus::config cfg;
//   cfg.scheduler = locus::scheduler_kind::laws;          // or LOCUS_SCHEDULER=laws
//   // or, with options: cfg.custom_scheduler = locus::make_laws_scheduler({...});
//   locus::runtime rt(cfg);
//   auto per_iteration = locus::iterate(rt, steps, [&](std::size_t i) { return step(i); });
//
// What it does, from the tasks' declared data (locus/data.hpp) and the topology only:
//  * allocation (Eq. 1): the data of the iteration's root (the first task that declares data)
//    is split into M equal parts, M the sockets that have workers; a task belongs to the socket
//    holding most of its first range's bytes (straddling: the larger share, the lower socket
//    on a tie). Tasks at or above the CF level go parent-first into their socket's CF pool;
//  * first iteration: every task with data goes through its socket's pool, taken only by that
//    socket's workers, and no worker takes work from another socket (first touch homes each
//    part where it will be used);
//  * packing (Eq. 2): S_alpha is a task's declared bytes (its subtree's, Eq. 1 splits them),
//    or with laws_options::footprint = misses the first iteration's modelled private-level
//    misses summed over its subtree; CF roots are the tasks of the deepest spawn depth where
//    S_alpha <= S_c (the socket's L3) < S_parent, never above the socket level (the shallowest
//    depth with a task inside one part); from the second iteration Algorithm 1 moves that depth
//    down while the iteration's cost strictly improves, else up, and keeps the best;
//  * three-level stealing (from the second iteration): a worker steals from its socket peers;
//    the socket's head (its lowest-numbered worker) takes, only while no worker of its socket
//    runs a task (one CF subtree at a time per socket), from its socket's pool of tasks above
//    the CF roots, then from its CF pool, then a whole CF subtree (never a task above one) from
//    another socket's CF pool holding two or more; a CF root pushed into a CF pool that holds
//    one already wakes a parked head of another socket that has nothing of its own;
//  * an iteration whose data lies inside the previous one's (GE) keeps the previous parts
//    (laws_options::keep_parts), so tasks follow the first iteration's homes;
//  * a program that declares no data, or too little per task (ext::classify_workload), is
//    cpu-bound after its first iteration: plain random stealing, spawns off the LAWS rule.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "locus/ext/accounting.hpp"
#include "locus/ext/scheduler.hpp"
#include "locus/locality/data_range.hpp"

namespace locus {

/// What Algorithm 1 minimises: an iteration's cost.
enum class laws_cost : std::uint8_t {
  wall_time,       ///< iteration_record::time_ns (the paper's makespan; noisy when shared)
  modelled_misses  ///< iteration_record::l3_misses (needs config::accounting)
};

/// What S_alpha (Eq. 2) is made of.
enum class laws_footprint : std::uint8_t {
  declared,  ///< the task's declared bytes (works with accounting off; the default)
  misses     ///< the model's private-level misses of the first iteration (needs accounting
             ///< with a private level: config_error otherwise)
};

struct laws_options {
  laws_cost cost = laws_cost::wall_time;
  laws_footprint footprint = laws_footprint::declared;
  /// Overrides `cost` when set: any cost of an iteration (tests use a synthetic one).
  std::function<double(const ext::iteration_record&)> cost_function;
  /// S_c in bytes; 0: one socket's L3 from the topology (l3 bytes times L3 groups per socket).
  std::size_t cache_bytes = 0;
  /// Run Algorithm 1 (else keep the initial packing).
  bool tune = true;
  /// Where Eq. 1's parts come from when an iteration's root lies inside the previous one's
  /// (GE: pivot k's active rows inside pivot 0's): the previous root's parts, so that each
  /// task goes to the socket whose part, first-touched in the first iteration, holds most of
  /// its data (true: follows the homes); or the iteration's own root split evenly (false: the
  /// paper's Eq. 1 per iteration, balanced but away from the homes as the root shrinks). An
  /// iteration whose root is not inside the previous one's starts its own parts either way.
  bool keep_parts = true;
  /// Whether a CF root pushed into a CF pool that already holds one wakes a parked head of
  /// another socket with nothing of its own (it may then take a whole CF subtree across), or
  /// only the pool's own head is ever woken (false).
  bool wake_idle_heads = true;
};

/// laws_options from a LOCUS_LAWS-style string: "cost=time|misses,tune=0|1,parts=keep|each,
/// cache=SIZE,footprint=declared|misses,wake=idle|own" (any subset, comma-separated; SIZE in bytes,
/// or with KiB/MiB/GiB). Throws config_error naming `what`, the value and the expected form.
/// scheduler_kind::laws reads LOCUS_LAWS through this when it makes its scheduler (unset or empty:
/// the defaults).
[[nodiscard]] laws_options parse_laws_options(std::string_view value, std::string_view what);

/// A LAWS scheduler for one runtime (config::custom_scheduler). Throws config_error when a
/// second runtime is made with the same object.
[[nodiscard]] std::shared_ptr<const ext::scheduler> make_laws_scheduler(laws_options o = {});

namespace laws {

/// Which of `parts` equal parts (Eq. 1 over `root`) holds most of `r`'s bytes (ties: the
/// lower part), and whether r lies inside that one part. Throws std::invalid_argument if r is
/// not inside root or parts == 0.
struct owner {
  unsigned part = 0;
  bool whole = false;  ///< r is inside one part
  /// r lies in one part but for at most a quarter of its bytes: a task's halo rows (heat reads
  /// one row past each end of its block) do not make it straddle. The socket level is learned
  /// from this (docs/design/0017, "Halo rows").
  bool mostly_whole = false;
};
[[nodiscard]] owner owner_of(const data_range& root, const data_range& r, unsigned parts);

/// Eq. 2 over the tasks of one iteration as the accountant reported them (ext::task_footprint:
/// level, position, own private-miss bytes M_alpha): subtree[i] = S_alpha of tasks[i], its own
/// M plus those of the tasks whose positions lie inside its position (its subtree: children's
/// positions nest in their parent's; leaves must not nest in each other). cf_depth: the deepest
/// level holding a task with S_alpha <= cache_bytes whose parent (the task one level up whose
/// position holds it) has S_parent > cache_bytes; -1 if none: then all_fit or none_fit says
/// why (or neither, for a tree without parent links).
struct footprint_packing {
  int cf_depth = -1;
  bool all_fit = false;
  bool none_fit = false;
  std::vector<std::uint64_t> subtree;
};
[[nodiscard]] footprint_packing pack_by_footprint(std::span<const ext::task_footprint> tasks,
                                                  std::size_t cache_bytes);

/// Algorithm 1 over packing offsets (levels below (+) or above (-) the initial CF depth), in
/// [lowest, highest] (lowest <= 0 <= highest: the socket level and the leaves bound it).
/// current() is the offset to run next; record() takes that run's cost. It runs 0, then
/// +1, +2, ... while the cost strictly falls; if +1 did not improve on 0 it runs -1, -2, ...
/// while the cost strictly falls; then it is done and current() is the best offset seen.
class packing_search {
 public:
  packing_search() = default;
  packing_search(int lowest, int highest);
  [[nodiscard]] int current() const noexcept { return m_current; }
  [[nodiscard]] bool done() const noexcept { return m_state == state::done; }
  [[nodiscard]] int best() const noexcept { return m_best; }
  void record(double cost) noexcept;

 private:
  enum class state : std::uint8_t { initial, down, up, done };
  int m_lowest = 0, m_highest = 0;
  int m_current = 0, m_best = 0;
  double m_best_cost = 0;
  state m_state = state::done;
};

}  // namespace laws
}  // namespace locus
