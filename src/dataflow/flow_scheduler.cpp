// The flow scheduler: per-worker ready queues with the OCR paper's ordering and stealing
// (locus/dataflow/flow_scheduler.hpp states the policy).
//
// Each queue is a std::set under its own mutex, ordered by (cost ascending, sequence number
// descending): begin() is the owner's end (cheapest, then newest), the last element the
// thieves' end. In ready_queue::deque mode every cost is 0, so the order is the deque's.
// `size` mirrors the set's size for lock-free looks (may_sleep, skipping empty victims); it is
// written under the mutex and read relaxed, a hint only: an item is taken under the mutex.
//
// Liveness: a task enters worker v's queue only from a running worker of v's place (the graph
// posts tasks made ready off the workers, or for another place, to a mailbox instead). The idle
// protocol keeps a thief of that place awake while one of its workers is active, may_sleep
// keeps idle workers of the place awake while one of its queues holds a task, and acquire()
// looks at every queue of the place (and of the places it may steal from); so an awake thief
// finds the task.
#include "locus/dataflow/flow_scheduler.hpp"

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

#include "flow_queues.hpp"
#include "locus/ext/core.hpp"

namespace locus::dataflow {

namespace detail {
namespace {

struct entry {
  std::uint64_t key;   ///< the order: the cost in ready_queue::priority, else 0
  std::uint64_t seq;   ///< newer entries have larger numbers
  std::uint64_t cost;  ///< retrieval cost for the queue's worker (flow_stats::cost_at_run)
  std::uintptr_t item;
  const edt_node* node;  ///< valid while queued (the task has not run)
  std::uint32_t weight;
  bool operator<(const entry& o) const noexcept { return key != o.key ? key < o.key : seq > o.seq; }
};

/// Per-worker counters: written by the owner only (relaxed load and store), read by stats().
struct flow_counters {
  using counter = std::atomic<std::uint64_t>;
  counter pushed{0}, local_takes{0}, steal_attempts{0}, steals{0}, tasks_stolen{0}, cost_at_run{0};
  static void bump(counter& c, std::uint64_t by = 1) noexcept {
    c.store(c.load(std::memory_order_relaxed) + by, std::memory_order_relaxed);
  }
};

struct alignas(64) ready_queue_state {
  std::mutex m;
  std::set<entry> tasks;
  std::uint64_t weight = 0;  ///< sum of the tasks' weights, under m
  std::uint64_t next_seq = 0;
  std::atomic<std::size_t> size{0};
  flow_counters counters;  ///< the owner's

  void insert(const entry& e) {
    tasks.insert(e);
    weight += e.weight;
    size.store(tasks.size(), std::memory_order_relaxed);
  }
  entry take(std::set<entry>::iterator it) {
    const entry e = *it;
    tasks.erase(it);
    weight -= e.weight;
    size.store(tasks.size(), std::memory_order_relaxed);
    return e;
  }
};

class flow_queues_impl final : public flow_queues {
 public:
  explicit flow_queues_impl(flow_options o) : m_opt(o) {}

  flow_options options() const noexcept override { return m_opt; }
  std::string_view name() const noexcept override { return "flow"; }

  void push(ext::core_ref rt, unsigned to, std::uintptr_t item, const edt_node& n) override {
    init(rt.num_workers());
    const std::uint64_t cost = retrieval_cost(n, rt, to);
    const std::uint32_t weight = steal_weight(n, m_opt.steal);
    ready_queue_state& q = *m_queues[to];
    {
      std::lock_guard lk(q.m);
      q.insert(
          {m_opt.queue == ready_queue::priority ? cost : 0, q.next_seq++, cost, item, &n, weight});
    }
    if (rt.is_current()) flow_counters::bump(m_queues[ext::this_worker_index()]->counters.pushed);
  }

  bool acquire(ext::worker_ref w, ext::work_item& out) override {
    init(w.num_workers());
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

  bool may_sleep(ext::worker_ref w) noexcept override {
    if (!m_ready.load(std::memory_order_acquire)) return true;
    for (unsigned v : w.place_workers(w.place()))
      if (m_queues[v]->size.load(std::memory_order_relaxed) != 0) return false;
    return true;
  }

  flow_stats stats() const noexcept {
    flow_stats s;
    if (!m_ready.load(std::memory_order_acquire)) return s;
    for (const auto& q : m_queues) {
      const flow_counters& c = q->counters;
      s.pushed += c.pushed.load(std::memory_order_relaxed);
      s.local_takes += c.local_takes.load(std::memory_order_relaxed);
      s.steal_attempts += c.steal_attempts.load(std::memory_order_relaxed);
      s.steals += c.steals.load(std::memory_order_relaxed);
      s.tasks_stolen += c.tasks_stolen.load(std::memory_order_relaxed);
      s.cost_at_run += c.cost_at_run.load(std::memory_order_relaxed);
    }
    return s;
  }

 private:
  void init(unsigned workers) {
    if (m_ready.load(std::memory_order_acquire)) [[likely]]
      return;
    std::call_once(m_once, [&] {
      m_queues.reserve(workers);
      for (unsigned i = 0; i < workers; ++i)
        m_queues.push_back(std::make_unique<ready_queue_state>());
      m_ready.store(true, std::memory_order_release);
    });
  }

  bool take_own(ext::worker_ref w, ext::work_item& out) {
    ready_queue_state& q = *m_queues[w.index()];
    if (q.size.load(std::memory_order_relaxed) == 0) return false;
    entry e;
    {
      std::lock_guard lk(q.m);
      if (q.tasks.empty()) return false;
      e = q.take(q.tasks.begin());
    }
    flow_counters::bump(q.counters.local_takes);
    flow_counters::bump(q.counters.cost_at_run, e.cost);
    out = {e.item, ext::work_item::k_from_mailbox};
    return true;
  }

  /// Takes from the thieves' end of v's queue: one task, or tasks until half its weight. Runs
  /// the first, requeues the others in the own queue with their costs for this worker.
  bool steal(ext::worker_ref w, unsigned v, ext::work_item& out) {
    ready_queue_state& q = *m_queues[v];
    if (q.size.load(std::memory_order_relaxed) == 0) return false;
    ready_queue_state& mine = *m_queues[w.index()];
    flow_counters::bump(mine.counters.steal_attempts);
    std::vector<entry> got;
    {
      std::lock_guard lk(q.m);
      if (q.tasks.empty()) return false;
      const std::uint64_t half = q.weight / 2;
      std::uint64_t taken = 0;
      do {
        got.push_back(q.take(std::prev(q.tasks.end())));
        taken += got.back().weight;
      } while (m_opt.steal != steal_mode::one && !q.tasks.empty() && taken < half);
    }
    flow_counters::bump(mine.counters.steals);
    flow_counters::bump(mine.counters.tasks_stolen, got.size());
    const ext::core_ref rt = w.core();
    const std::uint64_t run_cost = retrieval_cost(*got.front().node, rt, w.index());
    if (got.size() > 1) {
      std::lock_guard lk(mine.m);
      for (std::size_t i = 1; i < got.size(); ++i) {
        entry e = got[i];
        e.cost = retrieval_cost(*e.node, rt, w.index());
        e.key = m_opt.queue == ready_queue::priority ? e.cost : 0;
        e.seq = mine.next_seq++;
        mine.insert(e);
      }
    }
    flow_counters::bump(mine.counters.cost_at_run, run_cost);
    out = {got.front().item, ext::work_item::k_from_mailbox};
    return true;
  }

  flow_options m_opt;
  std::shared_ptr<ext::acquisition> m_builtin = ext::slaw_acquisition();
  std::once_flag m_once;
  std::atomic<bool> m_ready{false};
  std::vector<std::unique_ptr<ready_queue_state>> m_queues;
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

const char* to_string(steal_mode m) noexcept {
  switch (m) {
    case steal_mode::one:
      return "one";
    case steal_mode::half_pessimistic:
      return "half-pessimistic";
    case steal_mode::half_optimistic:
      return "half-optimistic";
  }
  return "?";
}

const char* to_string(ready_queue q) noexcept {
  return q == ready_queue::priority ? "priority" : "deque";
}

}  // namespace locus::dataflow
