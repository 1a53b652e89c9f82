// locus/dataflow/graph.hpp — data-driven tasks (EDTs) with dependence slots, and the graph
// that owns and waits for them. docs/design/0010-dataflow.md has the protocol and its proof;
// a task's layout in memory (node, slots, body) is in node.hpp.
//
//   locus::dataflow::graph g(rt);
//   locus::dataflow::event<int> a, b, sum;
//   auto t = g.task(2, [sum](locus::dataflow::edt_args& in) mutable {
//     sum.satisfy(in.get<int>(0) + in.get<int>(1));
//   });
//   add_dependence(a, t, 0);
//   add_dependence(b, t, 1);
//   a.satisfy(1); b.satisfy(2);          // t becomes ready when its last slot is satisfied
//   g.wait();                            // off the workers; in a task: co_await g
//
//   auto u = g.task(1, [](locus::dataflow::edt_args& in) { use(in.get<long>(0)); });
//   auto in0 = u.inlet<long>(0);         // slot 0 is fed directly: no event object
//   in0.satisfy(7);                      // once; u fires
//
// A task is created with N slots and fires when each slot has a dependence and every one of
// those events has fired. The thread that satisfies the last slot makes the task runnable: on
// its own deque if it is a worker (the paper's "most recently satisfied first": it is the next
// thing that worker runs, unless a thief takes it), otherwise through a place's mailbox;
// placement::near_data sends it to the place of the worker whose core holds most of its input
// datablocks' bytes instead. A body is `void(edt_args&)` or a locus coroutine
// `task<void>(edt_args&)` (which may spawn, sync and co_await events); a body without the
// argument is accepted too.
//
// Exceptions: the first exception thrown by a body is kept by the graph; wait() and co_await g
// rethrow it once nothing of the graph runs or is ready any more (tasks still waiting for
// events are not waited for then: after a failure, tasks that become ready are skipped, and
// graph::skipped() counts them). A failure no wait() or co_await rethrew is written to standard
// error when the graph's state ends: a failure is never silent.
// Tasks never run (their inputs can no longer be satisfied) are freed when the handles that
// could satisfy those inputs go away; nothing leaks.
//
// Misuse (dataflow_error, every build): a slot out of range, a second dependence on a slot, a
// dependence added to a task that already fired, write access declared on an event that does
// not carry a datablock, reading a slot as the wrong type or after releasing it, releasing a
// slot twice, wait() on a worker. A task whose last handle disappears while some slot has no
// dependence can never run: it is cancelled and the graph reports it.
//
// Inlets: t.inlet<T>(slot) feeds a slot directly with a small value (trivially copyable, at most
// 8 bytes), stored in the slot itself: no event object, no waiter list. The inlet is move-only
// and satisfied once; one destroyed unsatisfied cancels its task. For fine-grained graphs
// (one producer, one consumer, a number) it is the cheap edge; events stay the general one.
//
// Output events: t.done() is task t's output event (OCR's), satisfied by the runtime when t's
// body has finished (a coroutine body: when its coroutine completed), abandoned if t is
// cancelled, skipped after a failure, or its body throws (so the tasks depending on it are
// cancelled). add_dependence(a.done(), b, slot) is an edge a -> b the runtime knows, and a
// cycle made of such edges (a == b, or a reachable from b through output-event edges among
// unfinished tasks of the same graph) is caught when the edge is added: dataflow_error, and
// nothing changes (the slot stays unassigned). The check is a depth-first search from b under
// a per-graph mutex, over output-event edges only (O(1) when b has no output-event
// dependents, as in a DAG built forward).
// Not detected: cycles through ordinary events (event<T>, latch): their producers are not
// declared, so a task that depends, directly or not, on an event only it (or a task after it)
// satisfies never fires and wait() does not return. Nor a cycle that passes through an
// output-event edge between tasks of two different graphs (such edges are not recorded).
#pragma once

#include <atomic>
#include <condition_variable>
#include <coroutine>
#include <cstdint>
#include <mutex>
#include <new>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "locus/dataflow/datablock.hpp"
#include "locus/dataflow/event.hpp"
#include "locus/dataflow/node.hpp"
#include "locus/runtime.hpp"
#include "locus/task.hpp"

namespace locus::dataflow {

/// Where a task that became ready goes.
enum class placement : std::uint8_t {
  enabling_worker,  ///< the deque of the worker that satisfied its last slot (default)
  near_data,        ///< the place of the worker closest to most of its input datablock bytes
};

struct graph_options {
  placement place = placement::enabling_worker;
};

class edt_args;
class graph;

namespace detail {

struct graph_state;

graph_state* graph_create(locus::runtime& rt, graph_options o);
void graph_release(graph_state* g) noexcept;
[[nodiscard]] bool graph_done(const graph_state& g) noexcept;
void graph_wait(graph_state& g);
/// co_await g: registers the frame; false if the graph is already done.
bool graph_suspend(graph_state& g, locus::detail::frame& f);
void graph_rethrow(graph_state& g);
[[nodiscard]] std::int64_t graph_pending(const graph_state& g) noexcept;
[[nodiscard]] std::int64_t graph_skipped(const graph_state& g) noexcept;

}  // namespace detail

/// A task's output event (edt::done()): fires when the task's body has finished, is abandoned
/// if the task is cancelled, skipped or its body throws. Only the runtime satisfies it; the
/// handle can be waited on (add_dependence, co_await) and copied. It keeps its task's node
/// (not the task's graph) alive, and may outlive the graph and the runtime. A default or
/// moved-from handle is empty: every member but core() and node() (null) throws
/// dataflow_error.
class output_event {
 public:
  output_event() noexcept = default;
  explicit output_event(detail::output_refs r) noexcept : m_n(r.n), m_e(r.ev) {}
  output_event(const output_event& o) noexcept : m_n(o.m_n), m_e(o.m_e) {
    if (m_n != nullptr) {
      m_n->refs.fetch_add(1, std::memory_order_relaxed);
      m_e->add_ref();
    }
  }
  output_event(output_event&& o) noexcept
      : m_n(std::exchange(o.m_n, nullptr)), m_e(std::exchange(o.m_e, nullptr)) {}
  output_event& operator=(output_event o) noexcept {
    std::swap(m_n, o.m_n);
    std::swap(m_e, o.m_e);
    return *this;
  }
  ~output_event() {
    if (m_n != nullptr) {
      m_e->release();
      detail::node_release(m_n);
    }
  }
  /// The task's body finished.
  [[nodiscard]] bool satisfied() const {
    if (m_e == nullptr) [[unlikely]]
      detail::empty_handle("locus::dataflow::output_event::satisfied");
    return m_e->fired();
  }
  /// The task was cancelled or skipped, or its body threw: the event never fires.
  [[nodiscard]] bool abandoned() const {
    if (m_e == nullptr) [[unlikely]]
      detail::empty_handle("locus::dataflow::output_event::abandoned");
    return m_e->abandoned();
  }
  /// co_await t.done(): in a locus task, until the task finished (throws if abandoned).
  detail::typed_awaiter<void> operator co_await() const {
    if (m_e == nullptr) [[unlikely]]
      detail::empty_handle("locus::dataflow::output_event::operator co_await");
    return detail::typed_awaiter<void>(m_e);
  }
  /// The event and the task, or null for an empty handle (add_dependence reports that).
  [[nodiscard]] detail::event_core* core() const noexcept { return m_e; }
  [[nodiscard]] detail::edt_node* node() const noexcept { return m_n; }

 private:
  detail::edt_node* m_n = nullptr;
  detail::event_core* m_e = nullptr;
};

/// A direct input of one slot of a task, made by edt::inlet<T>(slot): satisfy(v) stores v in
/// the slot itself and counts it satisfied, with no event object (OCR satisfies a task's slot
/// the same way). T is a fits_inlet type (trivially copyable, at most 8 bytes: a number, an
/// index, a pointer); the body reads it with edt_args::get<T>(slot). Single-assignment by
/// construction: the handle is move-only and satisfy() empties it (a second satisfy on it
/// throws dataflow_error). An inlet destroyed before it was satisfied can never satisfy its
/// slot: the task is cancelled and the graph reports it, as for an abandoned event. The inlet
/// keeps its task's node alive (and the task, unfinished, keeps its graph's state), so it may
/// outlive the graph object; not the runtime, whose workers the task would run on.
template <class T>
class inlet {
 public:
  inlet() noexcept = default;
  inlet(inlet&& o) noexcept : m_n(std::exchange(o.m_n, nullptr)), m_slot(o.m_slot) {}
  /// Abandons the inlet this one held, if any (its task is cancelled), and takes o's.
  inlet& operator=(inlet&& o) noexcept {
    if (this != &o) {
      inlet old(std::move(*this));
      m_n = std::exchange(o.m_n, nullptr);
      m_slot = o.m_slot;
    }
    return *this;
  }
  inlet(const inlet&) = delete;
  inlet& operator=(const inlet&) = delete;
  ~inlet() {
    if (m_n != nullptr) detail::inlet_abandoned(m_n);
  }
  /// Stores v in the slot; the slot counts as satisfied (the task fires if it was the last).
  void satisfy(const T& v) {
    if (m_n == nullptr) [[unlikely]]
      detail::inlet_empty();
    ::new (static_cast<void*>(m_n->slots()[m_slot].value)) T(v);
    detail::inlet_satisfied(std::exchange(m_n, nullptr));
  }
  /// Not yet satisfied (and not moved from).
  [[nodiscard]] bool valid() const noexcept { return m_n != nullptr; }

 private:
  friend class edt;
  inlet(detail::edt_node* n, std::uint32_t slot) noexcept : m_n(n), m_slot(slot) {}
  detail::edt_node* m_n = nullptr;
  std::uint32_t m_slot = 0;
};

/// A handle to a data-driven task (copies share it). A default or moved-from handle is empty:
/// every member but node() (null) throws dataflow_error, and so does add_dependence on it. A
/// handle may outlive its graph and its runtime (it keeps the task's node, not the graph).
class edt {
 public:
  edt() noexcept = default;
  edt(const edt& o) noexcept : m_n(o.m_n) {
    if (m_n != nullptr)
      m_n->refs.fetch_add(detail::edt_node::k_handle + 1, std::memory_order_relaxed);
  }
  edt(edt&& o) noexcept : m_n(std::exchange(o.m_n, nullptr)) {}
  edt& operator=(edt o) noexcept {
    std::swap(m_n, o.m_n);
    return *this;
  }
  ~edt() {
    if (m_n != nullptr) detail::node_drop_handle(m_n);
  }
  /// The task's slot count.
  [[nodiscard]] std::uint32_t slots() const {
    if (m_n == nullptr) [[unlikely]]
      detail::empty_handle("locus::dataflow::edt::slots");
    return m_n->nslots;
  }
  /// The task, or null for an empty handle (add_dependence reports that).
  [[nodiscard]] detail::edt_node* node() const noexcept { return m_n; }
  /// The task's output event (OCR's): satisfied when its body has finished, abandoned if it is
  /// cancelled, skipped after a failure, or its body throws. Made on the first call (later
  /// calls share it); a task whose done() is never called pays nothing for it. Called after
  /// the task finished, it returns an event already fired (or abandoned).
  [[nodiscard]] output_event done() const { return output_event(detail::node_done(m_n)); }
  /// Slot `slot` is fed directly by the inlet returned (see inlet above) instead of an event:
  /// the slot gets its dependence now. Throws dataflow_error as add_dependence does (a slot
  /// out of range or already assigned, a task that fired or was cancelled).
  template <class T>
  [[nodiscard]] dataflow::inlet<T> inlet(std::uint32_t slot) const {
    static_assert(detail::fits_inlet<T>,
                  "an inlet carries a trivially copyable value of at most 8 bytes; use an "
                  "event<T> or a datablock for larger values");
    detail::node_claim_inlet(m_n, slot, &detail::type_tag<T>);
    return dataflow::inlet<T>(m_n, slot);
  }

 private:
  friend class graph;
  explicit edt(detail::edt_node* n) noexcept : m_n(n) {}
  detail::edt_node* m_n = nullptr;
};

/// What a running task sees of its slots.
class edt_args {
 public:
  explicit edt_args(detail::edt_node* n) noexcept : m_n(n) {}
  [[nodiscard]] std::uint32_t size() const noexcept { return m_n->nslots; }
  /// The value carried by slot `i`'s event, which must be an event<T>, or by its inlet<T>.
  template <class T>
  [[nodiscard]] const T& get(std::uint32_t i) const {
    const detail::slot& s = checked(i, "get");
    if (s.holds_value) {
      if constexpr (detail::fits_inlet<T>) {
        if (s.value_type == &detail::type_tag<T>) [[likely]]
          return *std::launder(reinterpret_cast<const T*>(s.value));
      }
      wrong_type(i);
    }
    const detail::event_core* e = s.ev;
    if (e->type() != &detail::type_tag<T>) wrong_type(i);
    return *static_cast<const detail::value_core<T>*>(e)->value;
  }
  /// The datablock of slot `i` (an event<datablock>), read-only view.
  template <class T = std::byte>
  [[nodiscard]] std::span<const T> read(std::uint32_t i) const {
    return block(i, "read").template as<T>();
  }
  /// The datablock of slot `i`, writable: the dependence must have been declared access::write.
  /// Moves the block's home to this worker's core.
  template <class T = std::byte>
  [[nodiscard]] std::span<T> write(std::uint32_t i) const {
    const datablock& b = block(i, "write");
    if (!locus::writes(m_n->slots()[i].mode)) not_writable(i);
    detail::block_written(b.core());
    return b.template as<T>();
  }
  /// The task is done with slot `i`'s data (OCR's release). A second release is an error.
  void release(std::uint32_t i);

 private:
  /// Slot i, after the checks every access makes (inline: two tests per get; the messages are
  /// built out of line, in bad_slot).
  const detail::slot& checked(std::uint32_t i, const char* what) const {
    if (i >= m_n->nslots) [[unlikely]]
      bad_slot(i, what);
    const detail::slot& s = m_n->slots()[i];
    if (s.released) [[unlikely]]
      bad_slot(i, what);
    return s;
  }
  [[noreturn]] void bad_slot(std::uint32_t i, const char* what) const;
  const datablock& block(std::uint32_t i, const char* what) const {
    const detail::slot& s = checked(i, what);
    if (s.holds_value) wrong_type(i);
    const detail::event_core* e = s.ev;
    if (e->type() != &detail::type_tag<datablock>) wrong_type(i);
    return *static_cast<const detail::value_core<datablock>*>(e)->value;
  }
  [[noreturn]] void wrong_type(std::uint32_t i) const;
  [[noreturn]] void not_writable(std::uint32_t i) const;
  detail::edt_node* m_n;
};

/// Adds the dependence "slot `slot` of task `t` waits for `e`". If `e` already fired the slot
/// counts as satisfied now (and the task may fire, on this thread's deque). Throws
/// dataflow_error for a slot out of range, a slot that already has a dependence, a task that
/// already fired, or access::write on an event that does not carry a datablock.
template <class E>
void add_dependence(const E& e, const edt& t, std::uint32_t slot,
                    locus::access mode = locus::access::read) {
  detail::node_add_dependence(t.node(), e.core(), slot, mode);
}

/// add_dependence on a task's output event (edt::done()): the same, and the runtime records
/// the edge "t waits for e's task". Also throws dataflow_error if the edge would make a cycle
/// of such edges (t is e's task, or e's task already depends on t through output events);
/// then nothing changes. See the top of this file.
inline void add_dependence(const output_event& e, const edt& t, std::uint32_t slot,
                           locus::access mode = locus::access::read) {
  detail::node_add_output_dependence(e.node(), e.core(), t.node(), slot, mode);
}

/// A set of data-driven tasks on one runtime, and a way to wait for them. The graph must stay
/// alive while tasks may be created in it; its state lives as long as any of its tasks.
class graph {
 public:
  explicit graph(locus::runtime& rt, graph_options o = {}) : m_g(detail::graph_create(rt, o)) {}
  graph(const graph&) = delete;
  graph& operator=(const graph&) = delete;
  /// Does not wait: tasks that still run or wait keep the graph's state alive.
  ~graph() { detail::graph_release(m_g); }

  /// A task with `slots` dependence slots running `body` (see the top of this file). With
  /// zero slots it is ready at once.
  template <class F>
  edt task(std::uint32_t slots, F&& body) {
    return task(slots, std::forward<F>(body), task_hint{});
  }
  /// The same, with a task_hint for the flow scheduler: what the task leads to (steal-half's
  /// weights) and its priority (the ready queues' order).
  template <class F>
  edt task(std::uint32_t slots, F&& body, task_hint hint) {
    using B = std::decay_t<F>;
    detail::edt_node* n = detail::node_allocate(*m_g, slots, sizeof(B), alignof(B));
    n->priority = hint.priority;
    n->dominated = hint.dominated;
    n->descendants = hint.descendants;
    try {
      ::new (n->body_of_type<B>()) B(std::forward<F>(body));
    } catch (...) {
      detail::node_free_unstarted(n);
      throw;
    }
    edt handle(n);  // owns the handle reference node_allocate counted
    detail::node_start(n, &detail::body_of<B>::ops);
    return handle;
  }

  /// Blocks until every task of the graph ran (or, after an exception, until none runs or is
  /// ready); rethrows the first exception of a task. Off the workers only: in a task, co_await
  /// the graph instead. Tasks may still be added afterwards and waited for again.
  void wait() { detail::graph_wait(*m_g); }
  /// Tasks created and not yet finished (or cancelled).
  [[nodiscard]] std::int64_t pending() const noexcept { return detail::graph_pending(*m_g); }
  /// Tasks that became ready after the graph failed (or after its runtime was destroyed) and
  /// were skipped: not run, their output events abandoned. Exact once the graph is done.
  [[nodiscard]] std::int64_t skipped() const noexcept { return detail::graph_skipped(*m_g); }

  struct awaiter {
    detail::graph_state* g;
    [[nodiscard]] bool await_ready() const noexcept { return detail::graph_done(*g); }
    template <class P>
    bool await_suspend(std::coroutine_handle<P> h) {
      static_assert(std::is_base_of_v<locus::detail::frame, P>,
                    "co_await on a locus::dataflow::graph is supported inside locus tasks only");
      return detail::graph_suspend(*g, h.promise());
    }
    void await_resume() const { detail::graph_rethrow(*g); }
  };
  /// co_await g: in a locus task, suspends until the graph is done (see wait()).
  awaiter operator co_await() const noexcept { return {m_g}; }

 private:
  detail::graph_state* m_g;
};

}  // namespace locus::dataflow
