// The flow scheduler: per-worker ready queues with the OCR paper's ordering and stealing
// (locus/dataflow/flow_scheduler.hpp states the policy).
//
// Each queue is a ranked ext::shared_pool (locus/ext/pool.hpp, "Ranked pools"): its front is
// the owner's end (highest priority, then cheapest, then newest), its back the thieves' end
// (lowest priority, dearest, oldest). A rank is the task's priority (task_hint::priority)
// inverted in its high 32 bits and, in priority mode, the retrieval cost in its low 32 bits
// (saturated); in ready_queue::deque mode with every priority 0 every rank is equal, so the
// order is the deque's. An entry's tag is its task's node. flow_stats::cost_at_run adds, for a
// task its queue's owner takes, the rank's cost (priority mode: the retrieval cost for that
// worker, computed when the task entered the queue) or, in deque mode, the same cost computed
// at the take (it differs only if an input
// block's home moved while the task waited: a block written on another core meanwhile); for a
// stolen task, its cost for the thief.
//
// Liveness: each worker's pool is bound to that worker's idle domain (ext::bind_pool) when the
// queues are made, so a push wakes a sleeper of the domain, and a worker about to sleep re-reads
// every pool of its domain (the idle protocol of pool.hpp and docs/design/0003). acquire()
// looks at every queue of the place (and of the places it may steal from), the workers that
// share a domain; so a task in a queue is always seen by an awake worker, without keeping idle
// workers awake (no may_sleep of our own).
//
// One runtime: the pools are bound to the domains of the runtime whose worker first made them.
// A graph on another runtime with the same scheduler is refused (graph_create: attach()), and
// that runtime's workers look only through the built-in acquisition.
#include "locus/dataflow/flow_scheduler.hpp"

#include <array>
#include <atomic>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "flow_queues.hpp"
#include "locus/dataflow/node.hpp"
#include "locus/ext/core.hpp"
#include "locus/ext/pool.hpp"

namespace locus::dataflow {

namespace detail {
namespace {

/// Per-worker counters: written by the owner only (relaxed load and store), read by stats().
struct flow_counters {
  using counter = std::atomic<std::uint64_t>;
  counter pushed{0}, local_takes{0}, steal_attempts{0}, steals{0}, tasks_stolen{0}, cost_at_run{0};
  static void bump(counter& c, std::uint64_t by = 1) noexcept {
    c.store(c.load(std::memory_order_relaxed) + by, std::memory_order_relaxed);
  }
};

struct alignas(64) ready_queue_state {
  ext::shared_pool pool{ext::shared_pool::order::ranked};
  flow_counters counters;  ///< the owner's
};

/// A queue entry's rank from a task's priority and cost (rank_for), and the cost back.
[[nodiscard]] constexpr std::uint64_t queue_rank(std::uint16_t priority,
                                                 std::uint64_t cost) noexcept {
  constexpr std::uint64_t k_low = 0xffffffffu;
  return (std::uint64_t{0xffffu - priority} << 32) | (cost < k_low ? cost : k_low);
}
[[nodiscard]] constexpr std::uint64_t cost_of_rank(std::uint64_t rank) noexcept {
  return rank & 0xffffffffu;
}
static_assert(queue_rank(1, 0) < queue_rank(0, 0) && queue_rank(0, 0) < queue_rank(0, 1));
static_assert(queue_rank(1, ~std::uint64_t{0}) < queue_rank(0, 0));
static_assert(cost_of_rank(queue_rank(7, 12345)) == 12345);

[[nodiscard]] const edt_node& node_of(const ext::shared_pool::ranked_item& r) noexcept {
  return *reinterpret_cast<const edt_node*>(r.tag);
}

class flow_queues_impl final : public flow_queues {
 public:
  explicit flow_queues_impl(flow_options o) : m_opt(o) {}

  flow_options options() const noexcept override { return m_opt; }
  std::string_view name() const noexcept override { return "flow"; }

  void attach(ext::core_ref rt) override {
    if (!init(rt))
      throw std::logic_error(
          "locus::dataflow::graph: this flow_scheduler's ready queues serve another runtime; "
          "make one flow_scheduler per runtime (flow_scheduler::make)");
  }

  void push(ext::core_ref rt, unsigned to, std::uintptr_t item, const edt_node& n) override {
    // attach() made the queues for rt (graph_create), before any of its tasks could be ready.
    const ext::shared_pool::ranked_item r{{item, ext::work_item::k_from_mailbox},
                                          rank_for(n, rt, to),
                                          steal_weight(n, m_opt.steal),
                                          reinterpret_cast<std::uintptr_t>(&n)};
    (void)m_queues[to]->pool.push_ranked(r);  // unbounded: never full
    if (rt.is_current())
      flow_counters::bump(m_queues[ext::this_worker_index()]->counters.pushed);
    else
      m_pushed_outside.fetch_add(1, std::memory_order_relaxed);  // any thread: an RMW
  }

  bool acquire(ext::worker_ref w, ext::work_item& out) override {
    // Only the runtime the queues were made for has tasks in them (see the file's comment).
    if (!init(w.core())) return m_builtin->acquire(w, out);
    if (take_own(w, out)) return true;
    // Frames resumed by events, continuations of spawns inside bodies, mailboxes: SLAW's order.
    if (m_builtin->acquire(w, out)) return true;
    // The place's peers, nearest tier first (config::victims), then other places' workers when
    // cross-place stealing is on. Each group is visited once, from a random member on, so no
    // worker is every thief's first victim.
    for (const auto& tier : w.victim_tiers())
      if (steal_in(w, tier, out)) return true;
    for (unsigned p : w.remote_places())
      if (steal_in(w, w.place_workers(p), out)) return true;
    return false;
  }

  /// One look at every member of `group`, in order from a random start (wrapping round).
  bool steal_in(ext::worker_ref& w, const std::vector<unsigned>& group, ext::work_item& out) {
    const auto n = static_cast<std::uint32_t>(group.size());
    if (n == 0) return false;
    const std::uint32_t start = w.random_below(n);
    for (std::uint32_t k = 0; k < n; ++k) {
      const std::uint32_t i = start + k < n ? start + k : start + k - n;
      if (steal(w, group[i], out)) return true;
    }
    return false;
  }

  flow_stats stats() const noexcept {
    flow_stats s;
    if (m_runtime.load(std::memory_order_acquire) == 0) return s;
    for (const auto& q : m_queues) {
      const flow_counters& c = q->counters;
      s.pushed += c.pushed.load(std::memory_order_relaxed);
      s.local_takes += c.local_takes.load(std::memory_order_relaxed);
      s.steal_attempts += c.steal_attempts.load(std::memory_order_relaxed);
      s.steals += c.steals.load(std::memory_order_relaxed);
      s.tasks_stolen += c.tasks_stolen.load(std::memory_order_relaxed);
      s.cost_at_run += c.cost_at_run.load(std::memory_order_relaxed);
    }
    s.pushed += m_pushed_outside.load(std::memory_order_relaxed);
    return s;
  }

 private:
  /// The rank of task n in worker w's queue (lower comes out of the front first): its priority
  /// inverted in the high 32 bits, so a higher priority ranks lower; in priority mode its
  /// retrieval cost for w in the low 32 bits (saturated), else 0.
  [[nodiscard]] std::uint64_t rank_for(const edt_node& n, ext::core_ref rt,
                                       unsigned w) const noexcept {
    const std::uint64_t cost = m_opt.queue == ready_queue::priority ? retrieval_cost(n, rt, w) : 0;
    return queue_rank(n.priority, cost);
  }

  /// Makes the queues for `rt` once (one per worker, each bound to its worker's idle domain);
  /// false if they were made for another runtime. The acquire load pairs with the release
  /// store after the queues are made and bound (call_once also orders them for its callers).
  bool init(ext::core_ref rt) {
    const std::uint64_t mine = m_runtime.load(std::memory_order_acquire);
    if (mine != 0) [[likely]]
      return mine == rt.id();
    std::call_once(m_once, [&] {
      const unsigned workers = rt.num_workers();
      m_queues.reserve(workers);
      for (unsigned i = 0; i < workers; ++i) {
        m_queues.push_back(std::make_unique<ready_queue_state>());
        ext::bind_pool(rt, i, m_queues.back()->pool);  // before its first push
      }
      m_runtime.store(rt.id(), std::memory_order_release);
    });
    return m_runtime.load(std::memory_order_acquire) == rt.id();
  }

  bool take_own(ext::worker_ref w, ext::work_item& out) {
    ready_queue_state& q = *m_queues[w.index()];
    ext::shared_pool::ranked_item r;
    if (!q.pool.take_front(r)) return false;
    flow_counters::bump(q.counters.local_takes);
    const std::uint64_t cost = m_opt.queue == ready_queue::priority
                                   ? cost_of_rank(r.rank)
                                   : retrieval_cost(node_of(r), w.core(), w.index());
    flow_counters::bump(q.counters.cost_at_run, cost);
    out = r.item;
    return true;
  }

  /// Takes from the thieves' end of v's queue: one task, or tasks until half its weight. Runs
  /// the first, requeues the others in the own queue with their costs for this worker.
  bool steal(ext::worker_ref w, unsigned v, ext::work_item& out) {
    ext::shared_pool& victim = m_queues[v]->pool;
    if (victim.size_hint() == 0) return false;
    ready_queue_state& mine = *m_queues[w.index()];
    flow_counters::bump(mine.counters.steal_attempts);
    std::vector<ext::shared_pool::ranked_item> got;
    if (m_opt.steal == steal_mode::one) {
      ext::shared_pool::ranked_item r;
      if (victim.take_back(r)) got.push_back(r);
    } else {
      (void)victim.take_back_half(got);
    }
    if (got.empty()) return false;
    flow_counters::bump(mine.counters.steals);
    flow_counters::bump(mine.counters.tasks_stolen, got.size());
    const ext::core_ref rt = w.core();
    for (std::size_t i = 1; i < got.size(); ++i) {
      got[i].rank = rank_for(node_of(got[i]), rt, w.index());
      (void)mine.pool.push_ranked(got[i]);  // unbounded: never full
    }
    flow_counters::bump(mine.counters.cost_at_run,
                        retrieval_cost(node_of(got.front()), rt, w.index()));
    out = got.front().item;
    return true;
  }

  flow_options m_opt;
  std::shared_ptr<ext::acquisition> m_builtin = ext::slaw_acquisition();
  std::once_flag m_once;
  /// The id (ext::core_ref::id) of the runtime the queues were made for; 0 until then.
  std::atomic<std::uint64_t> m_runtime{0};
  std::vector<std::unique_ptr<ready_queue_state>> m_queues;
  /// Tasks pushed by threads that are not workers of the runtime (flow_stats::pushed).
  std::atomic<std::uint64_t> m_pushed_outside{0};
};

class flow_scheduler_impl final : public flow_scheduler {
 public:
  explicit flow_scheduler_impl(flow_options o)
      : m_queues(std::make_shared<flow_queues_impl>(o)),
        m_sched(std::make_shared<ext::scheduler>(ext::scheduler{.name = "flow",
                                                                .acquire = m_queues,
                                                                .spawn = nullptr,
                                                                .idle_domains = {},
                                                                .iterations = {}})) {}
  std::shared_ptr<const ext::scheduler> scheduler() const override { return m_sched; }
  flow_options options() const noexcept override { return m_queues->options(); }
  flow_stats stats() const noexcept override { return m_queues->stats(); }

 private:
  std::shared_ptr<flow_queues_impl> m_queues;
  std::shared_ptr<ext::scheduler> m_sched;
};

}  // namespace
}  // namespace detail

std::shared_ptr<flow_scheduler> flow_scheduler::make(flow_options o) {
  return std::make_shared<detail::flow_scheduler_impl>(o);
}

}  // namespace locus::dataflow
