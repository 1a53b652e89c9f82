// A graph's task counts: the word's updates, per-thread credits and per-worker debt, and the
// wake-up of waiters (src/dataflow/graph_state.hpp; docs/design/0010-dataflow.md, "Graph
// completion").
#include <mutex>
#include <utility>
#include <vector>

#include "graph_state.hpp"
#include "locus/ext/observer.hpp"
#include "locus/ext/ready.hpp"

namespace locus::dataflow::detail {

bool done_at(std::uint64_t c, const graph_state& g) noexcept {
  return pending_of(c) == 0 || (flying_of(c) == 0 && g.failed.load(std::memory_order_acquire));
}

bool graph_is_done(const graph_state& g) noexcept {
  return done_at(g.counts.load(std::memory_order_acquire), g);
}

void graph_fail(graph_state& g, std::exception_ptr e) noexcept {
  g.error.offer(std::move(e));
  // Before this task's in-flight decrement (task_done), so the last decrementer sees it.
  g.failed.store(true, std::memory_order_release);
}

namespace {

/// Counts reserved by the plain body running on this thread, for its graph (`g`, null when no
/// plain body runs): tasks it creates and fires take their pending and in-flight units from
/// here, so a body that makes many tasks updates the shared word once per k_reserve of them.
/// The body's own units stay in the word while it runs, so the word over-counts (never
/// under-counts) and the graph cannot look done early; the units left over go back with the
/// task's final update (task_done's `extra`).
struct credits {
  graph_state* g = nullptr;
  std::uint64_t pending = 0, flying = 0;
};
constinit thread_local credits t_credits;
constexpr std::uint64_t k_reserve = 16;

/// Finished tasks' units not yet subtracted from their graph's word, on this worker: a task
/// that ran here adds its units to this *debt* instead of updating the shared word. The debt is
/// an over-count already in the word, so counting a new task of the same graph on this worker
/// takes its units from the debt first (count_tasks()), and the debt is paid (one update) when it
/// reaches k_debt tasks, when a task of another graph ends here, and when the worker's deque
/// runs empty, before it looks for work elsewhere (the core asks the debt observer,
/// install_debt_observer, which pays). Until then the word over-counts, so the graph cannot
/// look done early, and the state stays alive (its pending count is not zero); every path to
/// idleness pays, so the graph's completion is delayed at most until this worker runs out of
/// local work. `g` is null whenever `units` is zero (a dangling g must never be paid).
struct debt {
  graph_state* g = nullptr;
  std::uint64_t units = 0;
};
constinit thread_local debt t_debt;
constexpr std::uint64_t k_debt = 64;

}  // namespace

/// Counts `p` tasks created and `f` fired in g: from this worker's debt for g, else from this
/// thread's credits when a body of g runs here, else in the word. Relaxed: the task is
/// published afterwards (a release push, or a mailbox lock), so its finisher's decrement comes
/// later in the word's modification order.
void count_tasks(graph_state& g, std::uint64_t p, std::uint64_t f) noexcept {
  debt& d = t_debt;
  if (d.g == &g && pending_of(d.units) >= p && flying_of(d.units) >= f) {
    d.units -= p * k_one_pending + f * k_one_flying;
    if (d.units == 0) d.g = nullptr;
    return;
  }
  credits& c = t_credits;
  if (c.g == &g) {
    if (c.pending < p || c.flying < f) [[unlikely]] {
      g.counts.fetch_add(k_reserve * (k_one_pending + k_one_flying), std::memory_order_relaxed);
      c.pending += k_reserve;
      c.flying += k_reserve;
    }
    c.pending -= p;
    c.flying -= f;
    return;
  }
  g.counts.fetch_add(p * k_one_pending + f * k_one_flying, std::memory_order_relaxed);
}

namespace {

/// Subtracts `by` (pending and in-flight units) from the word; wakes the waiters if that makes
/// the graph done, frees the state if it was the last thing holding it.
void update_done(graph_state& g, std::uint64_t by) noexcept {
  std::unique_lock lk(g.mutex, std::defer_lock);
  // acquire on every load of the word (and acq_rel on the CAS): the update that makes the graph
  // done sees every other task's effects, and `failed` read after a load that includes the
  // failing task's own decrement is true (it was stored before that decrement).
  std::uint64_t c = g.counts.load(std::memory_order_acquire);
  std::uint64_t after = 0;
  for (;;) {
    after = c - by;
    if (!lk.owns_lock() && (after & k_alive) != 0 && done_at(after, g)) {
      lk.lock();  // this update may make the graph done: notify under the mutex (see above)
      c = g.counts.load(std::memory_order_acquire);
      continue;
    }
    if (g.counts.compare_exchange_weak(c, after, std::memory_order_acq_rel,
                                       std::memory_order_acquire))
      break;
  }
  if (lk.owns_lock()) {
    std::vector<locus::detail::frame*> frames;
    if (done_at(after, g)) {
      frames.swap(g.frames);
      g.cv.notify_all();
    }
    const ext::core_ref rt = g.rt;
    lk.unlock();  // nothing of g is touched after this: the object may go and free it
    for (locus::detail::frame* f : frames)
      ext::make_runnable(rt, f->m_place, locus::detail::continuation_item(f, true), false);
    return;
  }
  if (after == 0) {
    // The object is gone and this was its last task. graph_release cleared the alive bit under
    // the mutex and may not have unlocked it yet: take it once, so that unlock (the object's
    // last touch of g) is over before g is freed.
    { const std::lock_guard barrier(g.mutex); }
    delete &g;
  }
}

bool pay_debt() noexcept {
  debt& d = t_debt;
  if (d.units == 0) {
    d.g = nullptr;
    return false;
  }
  graph_state& g = *d.g;
  const std::uint64_t units = d.units;
  d = {};
  update_done(g, units);  // may make a waiting frame runnable on this worker's deque
  return true;
}

/// Pays this worker's debt when its deque runs empty (ext/observer.hpp, before_idle).
class debt_observer final : public ext::observer {
 public:
  bool before_idle(ext::worker_ref& /*w*/) noexcept override { return pay_debt(); }
};
constexpr char k_debt_observer_key = 0;

}  // namespace

void install_debt_observer(ext::core_ref rt) {
  (void)rt.install_once(&k_debt_observer_key, [] { return std::make_shared<debt_observer>(); });
}

/// A task left the graph: it ran or was skipped (`fired`), or was cancelled before it fired.
/// `extra`: credits its body left over, returned in the same update. A task that ran on a
/// worker goes into the worker's debt (above).
void task_finished(graph_state& g, bool fired, std::uint64_t extra) noexcept {
  const std::uint64_t by = k_one_pending + (fired ? k_one_flying : 0) + extra;
  if (!fired || !g.rt.is_current()) {
    update_done(g, by);
    return;
  }
  debt& d = t_debt;
  if (d.g != &g) {
    pay_debt();
    d.g = &g;
  }
  d.units += by;
  if (pending_of(d.units) >= k_debt) pay_debt();
}

/// Runs a plain body with this thread's credits (see `credits`) and returns what it left.
std::uint64_t call_with_credits(edt_node* n, edt_args& in, bool& threw) noexcept {
  struct scope {
    credits saved;
    explicit scope(graph_state* g) noexcept : saved(std::exchange(t_credits, credits{g})) {}
    ~scope() { t_credits = saved; }
  } s(n->g);
  std::uint64_t left = 0;
  try {
    n->ops->call(n->body(), in);
  } catch (...) {
    left = t_credits.pending * k_one_pending + t_credits.flying * k_one_flying;
    t_credits.pending = t_credits.flying = 0;
    threw = true;
    graph_fail(*n->g, std::current_exception());  // before the task's final update (task_done)
  }
  return left + t_credits.pending * k_one_pending + t_credits.flying * k_one_flying;
}

}  // namespace locus::dataflow::detail
