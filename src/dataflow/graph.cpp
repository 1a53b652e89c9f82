// Data-driven tasks: allocation, the readiness protocol, the runner and teardown.
// docs/design/0010-dataflow.md states the protocol and why it is correct. Output events and
// their cycle check are in output.cpp; the graph object (creation, waiting, the failure report)
// in graph_object.cpp.
#include "locus/dataflow/graph.hpp"

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "flow_queues.hpp"
#include "graph_state.hpp"
#include "locus/data.hpp"
#include "locus/detail/pool.hpp"
#include "locus/ext/ready.hpp"
#include "locus/locality/accountant.hpp"
#include "slots.hpp"

namespace locus::dataflow::detail {

void throw_error(const std::string& what) {
  throw dataflow_error(what);
}

void empty_handle(const char* what) {
  throw_error(std::string(what) + ": an empty handle (default-constructed or moved from)");
}

namespace {

/// `a` a power of two.
constexpr std::size_t round_up(std::size_t n, std::size_t a) {
  return (n + a - 1) & ~(a - 1);
}

/// Teardown work (a finished or cancelled task) is queued per thread and drained by the
/// outermost caller: destroying a body drops event handles, which can abandon events, which
/// cancels the tasks waiting on them, and so on down a chain. A loop, not a recursion per
/// graph level (a chain of 10^6 cancelled tasks must not overflow the stack).
struct teardown_item {
  edt_node* n;
  bool fired;
  bool ok;              ///< the body ran and returned (the output event fires)
  std::uint64_t extra;  ///< see task_done
};
thread_local std::vector<teardown_item>* t_teardown = nullptr;

void teardown_one(teardown_item it) noexcept {
  edt_node* n = it.n;
  graph_state& g = *n->g;
  // g outlives this unfinished task's task_done; after it, n->g may dangle (node_release
  // does not read it).
  n->ops->destroy(n->body());
  finish_output(n, it.ok);
  task_finished(g, it.fired, it.extra);
  // The unfinished task's hold; a task that fired also drops the slots' hold here (every slot
  // was notified: its count reached zero unclaimed). A cancelled task's slots' hold goes with
  // its last notification (count_notified).
  node_release(n, it.fired ? 2 : 1);
}

void teardown(edt_node* n, bool fired, bool ok, std::uint64_t extra = 0) noexcept {
  if (t_teardown != nullptr) {
    t_teardown->push_back({n, fired, ok, extra});  // bad_alloc here terminates (noexcept)
    return;
  }
  std::vector<teardown_item> queue;
  t_teardown = &queue;
  teardown_one({n, fired, ok, extra});
  while (!queue.empty()) {
    const teardown_item it = queue.back();
    queue.pop_back();
    teardown_one(it);
  }
  t_teardown = nullptr;
}

/// Fails g with a dataflow_error "locus::dataflow: <why>", unless it failed already.
void fail_with(graph_state& g, const std::string& why) noexcept {
  if (g.failed.load(std::memory_order_relaxed)) return;
  try {
    graph_fail(g, std::make_exception_ptr(dataflow_error("locus::dataflow: " + why)));
  } catch (...) {
    graph_fail(g, std::current_exception());
  }
}

/// The task can never fire (an input was abandoned, or its last handle went with a slot still
/// unassigned). If no notification fired it first, this call owns its teardown.
void cancel(edt_node* n, const char* why) noexcept {
  const std::uint32_t before = n->state.fetch_or(edt_node::k_claimed, std::memory_order_acq_rel);
  if ((before & edt_node::k_claimed) != 0 || (before & ~edt_node::k_claimed) == 0) return;
  fail_with(*n->g, std::string("a task was cancelled: ") + why);
  teardown(n, false, false, 0);
}

/// The place a ready task goes to: the enabling worker's, or that of the worker whose core
/// holds most of its input datablocks' bytes (placement::near_data).
std::uint32_t place_for(const edt_node& n) noexcept {
  graph_state& g = *n.g;
  const std::uint32_t here = ext::ready_place(g.rt);
  if (g.place != placement::near_data || g.rt.num_places() == 1) return here;
  const int w = data_worker(n, g.rt);
  return w < 0 ? here : g.rt.place_of(static_cast<unsigned>(w));
}

/// Locality accounting (config::accounting): a task accesses the datablocks of its slots, each
/// with the mode its dependence declared, counted before its body runs (like a task's declared
/// data ranges, locus/data.hpp).
void account_inputs(const edt_node& n) {
  for (std::uint32_t i = 0; i < n.nslots; ++i)
    if (const datablock* b = block_of(n, i); b != nullptr && b->size() != 0)
      block_accessed(b->core());  // at the block's home: where() and the count agree
}

/// The locality accounting of a task about to run; an exception fails the graph.
void account_or_fail(const edt_node& n, graph_state& g) noexcept {
  try {
    account_inputs(n);
  } catch (...) {
    graph_fail(g, std::current_exception());
  }
}

/// A plain body's task runs as a runnable item (detail/frame.hpp): the worker loop calls this,
/// with no coroutine frame around the body. Nothing in it throws (call_with_credits catches the
/// body's exception), and it returns before the worker takes other work.
void run_plain(locus::detail::runnable* r) noexcept {
  edt_node* n = static_cast<edt_node*>(r);
  graph_state& g = *n->g;
  std::uint64_t extra = 0;
  bool ran = false;
  // After a failure, tasks that still become ready are skipped (their outputs stay unset).
  if (!g.failed.load(std::memory_order_relaxed)) [[likely]] {
    if (g.rt.accounting() != nullptr) [[unlikely]]
      account_or_fail(*n, g);
    edt_args in(n);
    bool threw = false;
    extra = call_with_credits(n, in, threw);
    ran = !threw;
  } else {
    g.skipped.fetch_add(1, std::memory_order_relaxed);
  }
  teardown(n, true, ran, extra);
}

/// A coroutine body's task runs in this runner, a detached frame: the body may spawn, sync and
/// suspend, and move between workers meanwhile, so it reserves no credits.
locus::task<void> run_edt(edt_node* n) {
  graph_state& g = *n->g;
  bool ran = false;
  if (!g.failed.load(std::memory_order_relaxed)) {
    if (g.rt.accounting() != nullptr) [[unlikely]]
      account_or_fail(*n, g);
    edt_args in(n);
    try {
      co_await n->ops->start(n->body(), in);
      ran = true;
    } catch (...) {
      graph_fail(g, std::current_exception());
    }
  } else {
    g.skipped.fetch_add(1, std::memory_order_relaxed);
  }
  teardown(n, true, ran, 0);
}

/// The item that runs task n in place `place`: the node itself for a plain body; a runner frame
/// for a coroutine body. The runner's frame comes from this worker's frame stack (the heap off
/// the workers). Its lifetime does not nest with the frames this worker makes meanwhile; the
/// frame stack handles that (holes, remote frees), at the price of a stacklet pinned by a frame
/// that waits long in a deque.
std::uintptr_t ready_item(edt_node* n, std::uint32_t place) {
  if (n->ops->call != nullptr) [[likely]]
    return locus::detail::runnable_item(n);
  locus::detail::frame& f = run_edt(n).release().promise();
  ext::make_detached(f, place);
  return locus::detail::fresh_item(&f);
}

/// fire()'s every other case: a flow scheduler, near_data placement, or a thread that is not
/// one of the runtime's workers. Out of line so that the common case below keeps a small frame
/// (its prologue saved six registers for these paths; docs/benchmarks-dataflow.md 2026-11-27e).
[[gnu::noinline]] void fire_elsewhere(edt_node* n, graph_state& g, bool here) {
  if (g.flow != nullptr && here) {
    // A flow scheduler's ready queue: the enabling worker's, or near_data's worker if it is in
    // this worker's place (else the place's pool below, which wakes a sleeper of that place).
    unsigned to = ext::this_worker_index();
    if (g.place == placement::near_data) {
      const int d = data_worker(*n, g.rt);
      if (d >= 0) to = static_cast<unsigned>(d);
    }
    if (g.rt.place_of(to) == ext::this_worker_place()) {
      g.flow->push(g.rt, to, ready_item(n, ext::this_worker_place()), *n);
      return;
    }
  }
  // From outside the runtime's workers: the runtime may be gone (a satisfy after ~runtime).
  // Then the task is skipped here, counted in flight and finished at once, and the graph fails
  // with the reason. (A satisfy racing with ~runtime itself is the caller's race.)
  if (!g.rt_alive->load(std::memory_order_acquire)) [[unlikely]] {
    g.skipped.fetch_add(1, std::memory_order_relaxed);
    fail_with(g, "a task became ready after its runtime was destroyed; it was not run");
    teardown(n, true, false, 0);
    return;
  }
  const std::uint32_t place = place_for(*n);
  // From outside (a communication worker satisfying an import, the main thread) with a flow
  // scheduler: a ready queue too, so that priorities and the queue's order hold for these
  // tasks as for the others (before 2026-11-27d they went to the place's pool and waited
  // there until the ready queues were empty). near_data's worker if it is in that place, else
  // the place's workers in turn (a place has at least one: runtime.cpp makes it from them).
  if (g.flow != nullptr && !here) {
    const std::vector<unsigned>& ws = g.rt.place_workers(place);
    const int d = g.place == placement::near_data ? data_worker(*n, g.rt) : -1;
    const unsigned to =
        d >= 0 && g.rt.place_of(static_cast<unsigned>(d)) == place
            ? static_cast<unsigned>(d)
            : ws[g.outside_turn.fetch_add(1, std::memory_order_relaxed) % ws.size()];
    g.flow->push(g.rt, to, ready_item(n, place), *n);
    return;
  }
  ext::make_runnable(g.rt, place, ready_item(n, place), true);
}

/// Every slot was notified and no cancel claimed the task: make it runnable. `counted`: the
/// caller already counted it in flight.
void fire(edt_node* n, bool counted = false) {
  graph_state& g = *n->g;
  if (!counted) count_tasks(g, 0, 1);
  const bool here = g.rt.is_current();
  if (g.flow == nullptr && g.place == placement::enabling_worker && here) [[likely]] {
    // The common case, make_runnable's own-deque branch with its tests already known: this
    // worker's deque, in its place. Release: publishes the node (see ext/ready.hpp).
    ext::push_own(ready_item(n, ext::this_worker_place()), true);
    return;
  }
  fire_elsewhere(n, g, here);
}

}  // namespace

namespace {
/// `k` slots of n were notified (an event fired or was abandoned, an inlet was satisfied or
/// dropped, or the last handle went with k slots unassigned, which can never be notified).
/// The decrement that reaches zero unclaimed fires the task; the one that reaches zero with
/// the claimed bit set is the last notification of a cancelled task and drops the slots' hold
/// (the ownership rule, docs/design/0010 "Lifetime of a cancelled task"). Before its
/// decrement the caller may use n (its slot is still counted, so the slots' hold is held);
/// after it, only if it holds something else.
void count_notified(edt_node* n, std::uint32_t k) noexcept {
  // acq_rel: release publishes what this notifier saw (an event's value, acquired in the
  // event's exchange, or an inlet's store) to the thread that fires; acquire, if last, sees
  // the other slots'. For a cancelled task: the last one, which may free the node, sees every
  // other notifier's use of it (and node_release's acq_rel orders the rest).
  const std::uint32_t before = n->state.fetch_sub(k, std::memory_order_acq_rel);
  if (before == k) {
    try {
      fire(n);
    } catch (...) {
      std::terminate();  // the frame or the mailbox could not be allocated
    }
  } else if (before == (edt_node::k_claimed | k)) [[unlikely]] {
    node_release(n);
  }
}
}  // namespace

void slot_notify(waiter* w, bool fired) noexcept {
  auto* s = static_cast<slot*>(w);
  edt_node* n = s->owner;  // s lives inside n: its registration holds the slots' hold
  if (!fired)
    cancel(n,
           "an event it depends on was abandoned (every handle that could satisfy it was "
           "destroyed first)");
  count_notified(n, 1);
}

namespace {
[[noreturn]] void too_large(const std::string& what) {
  throw_error("locus::dataflow::graph::task: " + what);
}
}  // namespace

edt_node* node_allocate(graph_state& g, std::uint32_t nslots, std::size_t body_bytes,
                        std::size_t body_align) {
  if (nslots >= edt_node::k_claimed) [[unlikely]]
    too_large(std::to_string(nslots) + " slots is too many");
  // edt_node::body_of_type computes the same alignment from the body's type.
  const std::size_t align = std::max({alignof(edt_node), alignof(slot), body_align});
  if (align > 0x8000) [[unlikely]]  // edt_node::align is 16 bits
    too_large("a body aligned to " + std::to_string(align) +
              " bytes is too aligned (at most 32768)");
  const std::size_t body_at = edt_node::body_offset(align);  // = edt_node::body()
  const std::size_t slots_at = round_up(body_at + body_bytes, alignof(slot));
  const std::size_t total = slots_at + sizeof(slot) * nslots;
  if (total > 0xffffffffu) [[unlikely]]
    too_large("a task of " + std::to_string(total) + " bytes is too large");
  // The calling thread's pool unless the body needs more than 16-byte alignment.
  char* mem = static_cast<char*>(align <= 16 ? locus::detail::pool_allocate(total)
                                             : ::operator new(total, std::align_val_t(align)));
  auto* n = ::new (mem) edt_node;
  n->state.store(nslots, std::memory_order_relaxed);
  // The handle graph::task returns, the unfinished task's own hold, and the slots' hold (while
  // some slot may still be notified: see count_notified).
  n->refs.store(edt_node::k_handle + 3, std::memory_order_relaxed);
  n->nslots = nslots;
  n->bytes = static_cast<std::uint32_t>(total);
  n->align = static_cast<std::uint16_t>(align);
  n->g = &g;
  n->ops = nullptr;
  n->out.store(0, std::memory_order_relaxed);
  n->run = &run_plain;  // used only if the body is plain (ready_item)
  assert(n->slots() == reinterpret_cast<slot*>(mem + slots_at));
  for (std::uint32_t i = 0; i < nslots; ++i) {
    slot* s = ::new (static_cast<void*>(n->slots() + i)) slot;
    s->owner = n;
    s->notify = &slot_notify;
  }
  return n;
}

namespace {
void node_destroy(edt_node* n) noexcept {
  const std::size_t align = n->align, bytes = n->bytes;
  for (std::uint32_t i = 0; i < n->nslots; ++i) {
    if (!n->slots()[i].holds_value && n->slots()[i].ev != nullptr) n->slots()[i].ev->release();
    n->slots()[i].~slot();
  }
  free_output(*n);
  n->~edt_node();
  if (align <= 16) {
    locus::detail::pool_free(n, bytes);
  } else {
    ::operator delete(static_cast<void*>(n), std::align_val_t(align));
  }
}

/// How many slots have no dependence. Called by the last handle's holder: every other
/// handle's add_dependence happened before its drop (acq_rel on `refs`), and no new one can
/// come, so these slots are never notified.
std::uint32_t unassigned(const edt_node& n) noexcept {
  std::uint32_t k = 0;
  for (std::uint32_t i = 0; i < n.nslots; ++i)
    if (!n.slots()[i].assigned.load(std::memory_order_relaxed)) ++k;
  return k;
}
}  // namespace

void node_free_unstarted(edt_node* n) noexcept {
  n->refs.store(1, std::memory_order_relaxed);
  node_release(n, 1);
}

void node_start(edt_node* n, const body_ops* ops) {
  n->ops = ops;
  // A task without slots is pending and in flight at once: one update (or none, from credits).
  const bool now = n->nslots == 0;
  count_tasks(*n->g, 1, now ? 1 : 0);
  if (now) fire(n, true);
}

void node_release(edt_node* n, std::uint64_t k) noexcept {
  // acq_rel: the thread that frees sees every holder's use of the node.
  if (n->refs.fetch_sub(k, std::memory_order_acq_rel) == k) node_destroy(n);
}

void node_drop_handle(edt_node* n) noexcept {
  // A CAS drops a handle and its hold while other handles remain. Once the handle count reads
  // 1, it is the last one (only a holder can copy it), stable: the slots are checked with this
  // handle's hold still keeping the node alive (a task whose slots are all assigned may fire
  // and finish meanwhile), then one read-modify-write drops both.
  std::uint64_t c = n->refs.load(std::memory_order_acquire);
  while ((c >> 32) != 1) {
    if (n->refs.compare_exchange_weak(c, c - edt_node::k_handle - 1, std::memory_order_acq_rel,
                                      std::memory_order_acquire))
      return;  // holders > handles > 1 before: not the last holder
  }
  // A slot without a dependence means the task can never fire: it is unfinished, so its own
  // hold keeps the node (and the graph) alive through the cancel. Such slots are never
  // notified, so they are counted here (after a cancel through an input too), and this
  // handle's hold keeps the node alive through that.
  if (const std::uint32_t k = unassigned(*n); k != 0) {
    cancel(n, "its last handle was destroyed while a slot had no dependence");
    count_notified(n, k);
  }
  if ((n->refs.fetch_sub(edt_node::k_handle + 1, std::memory_order_acq_rel) & 0xffffffffu) == 1)
    node_destroy(n);
}

void throw_slot_misuse(slot_misuse m, const char* what, std::uint32_t i, std::uint32_t nslots) {
  const std::string at = std::string(what) + ": ";
  switch (m) {
    case slot_misuse::empty:
      throw_error(at + "an empty task handle");
    case slot_misuse::range:
      throw_error(at + "slot " + std::to_string(i) + " is out of range: the task has " +
                  std::to_string(nslots) + " slots");
    case slot_misuse::cancelled:
      throw_error(at + "the task was cancelled");
    case slot_misuse::fired:
      throw_error(at + "the task already fired (every slot was satisfied)");
    case slot_misuse::assigned:
      break;
  }
  throw_error(at + "slot " + std::to_string(i) + " already has a dependence (or an inlet)");
}

void node_claim_inlet(edt_node* n, std::uint32_t i, const void* type) {
  check_slot(n, i, "locus::dataflow::edt::inlet");
  slot& s = claim_slot(n, i, "locus::dataflow::edt::inlet");
  // Plain stores: the body reads them after the task fired, which comes after the inlet's
  // satisfy (acq_rel on `state`), which comes after the inlet was handed over from here.
  s.holds_value = true;
  s.value_type = type;
  s.mode = locus::access::read;
  n->refs.fetch_add(1, std::memory_order_relaxed);  // the inlet's hold (a holder makes it)
}

void inlet_satisfied(edt_node* n) noexcept {
  // The inlet's value was stored in its slot: count_notified's acq_rel publishes it to the
  // thread that fires, as for an event's value. The inlet's hold keeps n alive across the
  // count: once it is not the last, another satisfier may fire n and n may finish on another
  // worker.
  count_notified(n, 1);
  node_release(n);
}

void inlet_abandoned(edt_node* n) noexcept {
  cancel(n, "an inlet was destroyed before it was satisfied");
  count_notified(n, 1);
  node_release(n);
}

void inlet_empty() {
  throw_error(
      "locus::dataflow::inlet::satisfy: the inlet is empty (already satisfied, moved from, or "
      "default-constructed); an inlet is satisfied once");
}

// The path of every ordinary dependence: the helpers are forced inline, so it costs what one
// body would (a call per helper cost about 30 instructions per dependence).
void node_add_dependence(edt_node* n, event_core* ev, std::uint32_t i, locus::access mode) {
  check_dependence(n, ev, i, mode);
  attach(claim_slot(n, i), ev, mode);
}

}  // namespace locus::dataflow::detail
