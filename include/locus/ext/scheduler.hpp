// locus/ext/scheduler.hpp — the extension face: a scheduler as three small strategies.
//
// A locus scheduler decides three things (DESIGN.md, "Scheduling policy is three small
// strategies"; docs/design/0006-scheduler-strategies.md):
//   (a) the spawn rule: at a spawn, does the child run now (work-first: the parent's
//       continuation becomes stealable) or go on the deque (help-first)?
//   (b) the placement: where stealable work goes: the spawning worker's own deque, another
//       worker (a donation), a place's pool, or a shared pool the strategy owns
//       (locus/ext/pool.hpp);
//   (c) the acquisition: where an idle worker looks for work, in what order.
// The built-in schedulers are combinations of built-in strategies:
//   slaw — SLAW's adaptive spawn rule (INT, F, S), own-deque placement, SLAW's acquisition:
//          peers of the own place nearest first, the place's mailbox, then (when allowed)
//          other places. Workers grouped into places (one per socket by default).
//   cilk — work-first spawns, own-deque placement, victims uniformly at random among all
//          workers, one place.
// A scheduler made elsewhere (steal-tree replay, LAWS, CAB, the dataflow queues) supplies its
// own strategies through config::custom_scheduler and reaches the workers only through
// worker_ref below and the rest of locus/ext/ (core.hpp, observer.hpp, pool.hpp, ready.hpp),
// never through a worker's fields.
//
// Invariants every strategy keeps (the core relies on them):
//   * an item obtained by acquire() is run exactly once: an acquisition hands an item either
//     to the caller (true) or leaves it where it was; it never drops or duplicates one;
//   * acquire() does not block: it looks and returns (the worker loop spins, yields and
//     sleeps; a strategy that holds work back must leave it visible to some awake worker,
//     docs/design/0003);
//   * the spawn rule is called on the spawning worker's thread with the spawning frame; it
//     reads, it does not change the frame.
// Cost: the built-in spawn rules are inline in the spawn (one predictable branch on the
// worker's mode selects a custom rule); acquisition is a virtual call per look when idle.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "locus/ext/core.hpp"
#include "locus/ext/observer.hpp"
#include "locus/stats.hpp"

namespace locus {
struct cab_params;
}

namespace locus::ext {

class shared_pool;

/// An item of work: a tagged frame or runnable pointer as the deques and mailboxes hold it
/// (detail/frame.hpp). Opaque to strategies: they move items, they do not look inside (one that
/// does must test detail::is_runnable first: a runnable has no frame).
struct work_item {
  std::uintptr_t bits = 0;
  /// Index of the worker whose deque it came from; k_from_mailbox for a mailbox.
  unsigned from = k_from_mailbox;
  static constexpr unsigned k_from_mailbox = 0xffffffffu;
};

/// What a strategy may see of, and do with, the worker it runs on. Cheap to copy.
class worker_ref {
 public:
  worker_ref(detail::worker& w, detail::runtime_state& rt) noexcept : m_w(&w), m_rt(&rt) {}
  /// The calling thread's worker; valid only on a worker (core_ref::current() is not null).
  [[nodiscard]] static worker_ref current() noexcept {
    detail::worker* w = detail::t_worker;
    return worker_ref(*w, w->rt());
  }
  /// The runtime this worker belongs to.
  [[nodiscard]] core_ref core() const noexcept { return core_ref(m_rt); }

  [[nodiscard]] unsigned index() const noexcept;
  [[nodiscard]] unsigned place() const noexcept;
  [[nodiscard]] unsigned num_workers() const noexcept;
  [[nodiscard]] unsigned num_places() const noexcept;
  [[nodiscard]] const topology& topo() const noexcept;
  /// Index into topo().cores() of worker w's core.
  [[nodiscard]] std::size_t core_of(unsigned w) const noexcept;
  /// Workers of place p, in index order.
  [[nodiscard]] const std::vector<unsigned>& place_workers(unsigned p) const noexcept;
  /// This worker's peers in its place, in tiers nearest first (the victims option decides:
  /// hierarchical gives same-L3, same-socket, rest; random gives one tier).
  [[nodiscard]] const std::vector<std::vector<unsigned>>& victim_tiers() const noexcept;
  /// Other places, nearest first, when cross-place stealing is on; else empty.
  [[nodiscard]] const std::vector<unsigned>& remote_places() const noexcept;
  /// A uniform random number in [0, n) from this worker's generator (n > 0).
  [[nodiscard]] std::uint32_t random_below(std::uint32_t n) noexcept;

  /// Try to take the oldest item of worker `victim`'s deque (counted as a steal attempt).
  bool steal_from(unsigned victim, work_item& out) noexcept;
  /// Try to take the oldest item of place p's mailbox (counted as a mailbox take).
  bool take_mail(unsigned p, work_item& out);
  /// Try to take the oldest item of a strategy's pool (not counted: the strategy counts).
  bool take_from(shared_pool& pool, work_item& out);

  /// From acquire() only (this worker's own thread): spawn with the scheduler's custom rule
  /// (true, the default) or with the built-in work-first rule, inline and free of the custom
  /// rule's out-of-line call (false). A strategy whose rule matters only at times switches
  /// each worker before it hands the worker work that needs the rule.
  void use_custom_spawn_rule(bool custom) noexcept;

  /// Workers running a task right now (not looking for work, not asleep), over the whole
  /// runtime. A racy hint: a worker that just took an item still counts as looking for a
  /// moment. Zero means no task runs that could produce more work, unless one is being taken.
  [[nodiscard]] unsigned active_workers() const noexcept;
  /// Wake every sleeping worker of the runtime (a load per member of each idle domain).
  /// A strategy that hands work to one worker wakes that worker instead (wake_worker).
  void wake_sleepers() noexcept;
  /// Wake worker `w` if it is parked (core_ref::wake_worker: publish first, seq_cst).
  bool wake_worker(unsigned w) noexcept;
  /// This worker's idle domain (core_ref::idle_domain_of).
  [[nodiscard]] unsigned idle_domain() const noexcept;

 private:
  detail::worker* m_w;
  detail::runtime_state* m_rt;
};

/// (c) Where an idle worker looks. One object per runtime, called by every worker: it must be
/// safe to call concurrently (the built-ins keep no state of their own).
class acquisition {
 public:
  virtual ~acquisition() = default;
  /// Look once for work for worker `w`; true and `out` set if found.
  virtual bool acquire(worker_ref w, work_item& out) = 0;
  /// Asked before an idle worker goes to sleep (after its spin and yield rounds): false keeps
  /// it awake, looking. A strategy that hands work to particular workers returns false while
  /// such work may arrive, or wakes them (worker_ref::wake_sleepers) when it does.
  [[nodiscard]] virtual bool may_sleep(worker_ref /*w*/) noexcept { return true; }
  [[nodiscard]] virtual std::string_view name() const noexcept = 0;
};

/// One spawn as a custom spawn rule sees and decides it (spawn_rule::place).
struct spawn_site {
  static constexpr unsigned k_keep = 0xffffffffu;
  // In: where the spawn is.
  std::uint32_t level = 0;        ///< the spawning frame's depth
  std::uint32_t spawn_index = 0;  ///< the index the child gets among the frame's children
  /// The child (not started): its declared data through ext::declared_data_of (ext/data.hpp).
  task_ref child;
  /// The spawning frame (running on this worker): its declared data, whole (the parts already
  /// handed to children are not subtracted; children take them in spawn order, Eq. 1).
  task_ref parent;
  // In and out: the strategy slot of the spawning frame and of the child after the spawn
  // (both start as the spawning frame's; the frames keep what the rule leaves here). A slot is
  // 32 bits every frame carries and inherits from its parent; the rule owns their meaning
  // (replay: the steal-tree node that governs the frame). Written before the stealable part
  // is published, so whoever runs a frame next reads its slot.
  // One value is reserved: a frame whose slot is k_builtin is no longer the rule's. Its spawns
  // take the built-in work-first path inline, place() is not called for them, and its
  // children inherit the slot, so a whole subtree leaves the rule at the cost of one compare
  // per spawn (replay gives it to a child the template does not reach below).
  static constexpr std::uint32_t k_builtin = 0xffffffffu;
  std::uint32_t parent_slot = 0;
  std::uint32_t child_slot = 0;
  // Out: the decision.
  bool work_first = true;  ///< run the child now; the parent's continuation is stealable
  /// (b) placement, in this order: a pool (to_pool), a place's pool (to_place), a worker
  /// (donate_to: spawn_rule::donate decides), else the own deque. Each applies to the
  /// stealable part: the continuation when work_first, else the child. A full pool or a
  /// refused donation falls back to the own deque.
  unsigned donate_to = k_keep;
  unsigned to_place = k_keep;      ///< a place index: its pool (core_ref::place_pool)
  shared_pool* to_pool = nullptr;  ///< a pool the strategy owns (bound: its domain is woken)
};

/// (a) A spawn rule that is not one of the built-in policies, and (b) the placement of the
/// work it makes stealable. Called at every spawn whose options do not fix the policy, on the
/// spawning worker, out of line.
class spawn_rule {
 public:
  virtual ~spawn_rule() = default;
  /// True: run the child now (work-first). `level` is the spawning frame's depth and
  /// `spawn_index` the index the child gets among the frame's children.
  virtual bool work_first(worker_ref w, std::uint32_t level, std::uint32_t spawn_index) = 0;
  /// The whole decision: the spawn rule, the frames' slots and the placement. The default
  /// asks work_first() and keeps the work on the own deque and the slots as they are.
  virtual void place(worker_ref w, spawn_site& s) {
    s.work_first = work_first(w, s.level, s.spawn_index);
  }
  /// Placement by donation: `item` (the continuation or the child place() chose to donate)
  /// goes to worker `to`, which must get it from its acquisition. Return false to refuse (a
  /// full buffer): the core then pushes it on the donor's own deque, as if kept. The item is
  /// handed over exactly once; after a true return, its frame may already run elsewhere.
  virtual bool donate(worker_ref /*w*/, unsigned /*to*/, work_item /*item*/) { return false; }
  [[nodiscard]] virtual std::string_view name() const noexcept = 0;
  /// True if the rule gives the frames' strategy slots a meaning (writes spawn_site's
  /// parent_slot / child_slot): it then owns the slot of its runtime from the start, and
  /// another extension's claim (core_ref::claim_frame_slot) is refused. A rule that answers
  /// false must leave both slots as they come.
  [[nodiscard]] virtual bool uses_frame_slot() const noexcept { return false; }
};

/// Per worker, the idle domain it sleeps in (dense ids 0..k-1), from the topology, each
/// worker's core (an index into topo.cores()) and place (core_ref::idle_domain_of).
using domain_function = std::function<std::vector<unsigned>(const topology& topo,
                                                            const std::vector<std::size_t>& core_of,
                                                            const std::vector<unsigned>& place_of)>;

/// One iteration of locus::iterate (locus/iterate.hpp), as measured by iterate and completed
/// by the scheduler's iteration_hooks (the type and its fields: locus/stats.hpp).
using iteration_record = iteration_stats;

/// A scheduler that follows iterations (LAWS): locus::iterate calls begin before each
/// iteration's run and end after it, on the thread that calls iterate, never during a run.
class iteration_hooks {
 public:
  virtual ~iteration_hooks() = default;
  virtual void begin(core_ref core, std::size_t index) = 0;
  /// Complete `r` with the scheduler's fields and learn from it (Algorithm 1). Throws what
  /// the iteration did wrong (a range outside the root's: std::invalid_argument).
  virtual void end(core_ref core, iteration_record& r) = 0;
};

/// A scheduler: a name and its strategies. A null spawn_rule keeps the built-in policy of
/// config::policy (inline, the fast path) and the own-deque placement (spawn(t, at(p)) goes
/// to p's mailbox); a custom spawn rule also places (spawn_rule::place and donate: steal-tree
/// replay donates continuations to designated workers).
struct scheduler {
  std::string_view name;
  std::shared_ptr<acquisition> acquire;
  std::shared_ptr<spawn_rule> spawn;  ///< null: the built-in policy
  /// Null: one idle domain per place (one for all with cross-place stealing). Else the
  /// scheduler's; each place must lie inside one domain (config_error otherwise).
  domain_function idle_domains;
  /// Null: iterations are measured but nobody schedules by them.
  std::shared_ptr<iteration_hooks> iterations;
};

/// Whether a program is memory-bound enough for a locality scheduler (LAWS, CAB) to pay off,
/// judged from what the tasks declared (locus/data.hpp). Neither paper gives a rule; this is
/// locus's (docs/design/0017-laws.md): memory-bound when the tasks declared data and, on
/// average, at least k_min_bytes_per_task bytes (4 lines) per task spawned under the root that
/// declared it. Otherwise cpu-bound: plain stealing does as well and costs less.
enum class workload : std::uint8_t { undecided, memory_bound, cpu_bound };
inline constexpr std::size_t k_min_bytes_per_task = 256;
[[nodiscard]] constexpr workload classify_workload(std::size_t declared_bytes,
                                                   std::size_t tasks) noexcept {
  if (declared_bytes == 0) return workload::cpu_bound;
  if (tasks == 0) return workload::memory_bound;
  return declared_bytes / tasks >= k_min_bytes_per_task ? workload::memory_bound
                                                        : workload::cpu_bound;
}
[[nodiscard]] std::string_view to_string(workload w) noexcept;

/// The built-in acquisitions.
[[nodiscard]] std::shared_ptr<acquisition> slaw_acquisition();
[[nodiscard]] std::shared_ptr<acquisition> random_acquisition();

/// LAWS with its default options (scheduler_kind::laws, LOCUS_SCHEDULER=laws). Defined in
/// src/laws/ (an extension: the core names it only through this declaration, as it does the
/// tracing observer); locus/laws.hpp makes one with options.
[[nodiscard]] std::shared_ptr<const scheduler> laws_scheduler();

/// CAB with the configuration's parameters (scheduler_kind::cab, LOCUS_SCHEDULER=cab and
/// LOCUS_CAB). Defined in src/cab/, as laws_scheduler is in src/laws/; locus/cab.hpp makes one
/// with options (make_cab_scheduler).
[[nodiscard]] std::shared_ptr<const scheduler> cab_scheduler(const cab_params& p);

}  // namespace locus::ext
