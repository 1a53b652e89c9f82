// locus/dataflow/node.hpp — what a data-driven task is in memory (its node, slots and body)
// and the calls the handles of graph.hpp make on it. Included by graph.hpp; users include
// <locus/dataflow.hpp> or graph.hpp, not this header. docs/design/0010-dataflow.md has the
// protocol.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <type_traits>

#include "locus/dataflow/event.hpp"
#include "locus/locality/data_range.hpp"
#include "locus/task.hpp"

namespace locus::dataflow {

/// What the flow scheduler (flow_scheduler.hpp) may know of a task; the default scheduler reads
/// none of it.
/// * dominated, descendants: what the task leads to, for steal-half: the number of tasks it
///   statically dominates (every path to them goes through it) and of all its descendants.
///   Read with steal_mode::half_pessimistic (dominated) or half_optimistic (descendants); a
///   task weighs 1 + that count.
/// * priority: higher runs first. A ready queue's owner takes its highest priority first and
///   thieves its lowest; the queue's mode (ready_queue) orders equal priorities. 0 for every
///   task leaves the mode's order as it is. Give the critical path the higher priorities (a
///   factorisation's panel before its trailing updates, tasks whose results other ranks or
///   places wait for). 16 bits, so that a task's node stays one cache line (0010, "Memory per
///   task").
struct task_hint {
  std::uint32_t dominated = 0;
  std::uint32_t descendants = 0;
  std::uint16_t priority = 0;
};

class edt_args;

namespace detail {

struct edt_node;
struct graph_state;

/// What an inlet (edt::inlet<T>) can carry in the slot itself: OCR's slot payload is one
/// 8-byte GUID; larger values go through an event<T> or a datablock.
template <class T>
inline constexpr bool fits_inlet = std::is_trivially_copyable_v<T> && sizeof(T) <= 8 &&
                                   alignof(T) <= 8 && !std::is_const_v<T>;

/// One dependence slot of a task: waits on one event (a waiter of that event), or is fed by an
/// inlet, whose value it then holds itself (`holds_value`).
struct slot : waiter {
  edt_node* owner = nullptr;
  union {
    event_core* ev = nullptr;           ///< holds a reference once the dependence is added
    alignas(8) unsigned char value[8];  ///< holds_value: the inlet's value, a fits_inlet type
  };
  const void* value_type = nullptr;   ///< holds_value: type_tag of the value's type
  std::atomic<bool> assigned{false};  ///< a dependence or an inlet was added (exactly one)
  locus::access mode = locus::access::read;
  bool released = false;     ///< edt_args::release: only the running body touches it
  bool holds_value = false;  ///< an inlet feeds it (set before the inlet exists)
};

struct body_ops {
  locus::task<void> (*start)(void* body, edt_args& in);  ///< a coroutine body, or null
  void (*call)(void* body, edt_args& in);                ///< a plain body, or null
  void (*destroy)(void* body) noexcept;
};

/// A data-driven task. One allocation (a pool block, detail/pool.hpp, unless large or
/// over-aligned): this header, the body, then the slots (at the end: slots()).
/// A task with a plain body is pushed as itself, a runnable item (locus/detail/frame.hpp): the
/// base's run() runs the body, with no coroutine frame. A coroutine body gets a runner frame.
struct edt_node : locus::detail::runnable {
  static constexpr std::uint32_t k_claimed = 1U << 31;
  static constexpr std::uint64_t k_handle = std::uint64_t{1} << 32;
  /// Slots not yet notified, plus k_claimed once the task was cancelled. The notification that
  /// brings it from 1 to 0 with k_claimed clear fires the task; a cancel that sets k_claimed
  /// while the count is not zero owns the task's teardown. Exactly one of the two happens.
  std::atomic<std::uint32_t> state;
  std::uint32_t nslots;
  /// Two counts in one word, so a handle comes and goes with one read-modify-write: edt handles
  /// (high half) and holders (low half: every handle, inlet, output event and output-event
  /// edge; plus 1 until the task finished or was cancelled; plus 1, the slots' hold, until
  /// every slot was notified or can never be). The node is freed when the holders reach zero,
  /// so never while an event still lists one of its slots as a waiter.
  std::atomic<std::uint64_t> refs;
  std::uint32_t bytes;     ///< of the allocation
  std::uint16_t align;     ///< of the allocation (a power of two, at most 2^15: node_allocate)
  std::uint16_t priority;  ///< task_hint::priority
  /// Valid until the task finished or was cancelled: the graph's state outlives its unfinished
  /// tasks (src/dataflow/graph_state.hpp, graph_state::counts), not the nodes that handles keep
  /// after that.
  graph_state* g;
  std::uint32_t dominated;    ///< task_hint::dominated
  std::uint32_t descendants;  ///< task_hint::descendants
  const body_ops* ops;
  /// The output event's record (output_record in src/dataflow/graph.cpp, made by the first
  /// done()), or 0 while there is none, or k_out_ok / k_out_failed once the task finished
  /// without one. Set from 0 by one CAS; a record stays until the node is freed.
  std::atomic<std::uintptr_t> out;
  static constexpr std::uintptr_t k_out_ok = 1, k_out_failed = 2;
  /// The slots end the allocation (node_allocate), so they need no pointer of their own.
  [[nodiscard]] slot* slots() noexcept {
    return reinterpret_cast<slot*>(reinterpret_cast<char*>(this) + bytes) - nslots;
  }
  [[nodiscard]] const slot* slots() const noexcept {
    return reinterpret_cast<const slot*>(reinterpret_cast<const char*>(this) + bytes) - nslots;
  }
  /// The body's storage: right after this header, aligned to the allocation's alignment
  /// (which is at least the body's, and sizeof(edt_node) is a multiple of 8).
  [[nodiscard]] void* body() noexcept {
    // align is a power of two: a mask, not a division (read per body call and destroy).
    return reinterpret_cast<char*>(this) + body_offset(align);
  }
  /// Where body() is for an allocation aligned to `a` (a power of two).
  [[nodiscard]] static constexpr std::size_t body_offset(std::size_t a) noexcept {
    return (sizeof(edt_node) + a - 1) & ~(a - 1);
  }
  /// body() for a body of type B, whose node node_allocate made with alignof(B): the same
  /// address, known at compile time, so that graph::task does not wait for node_allocate's
  /// store of `align` to read it back.
  template <class B>
  [[nodiscard]] void* body_of_type() noexcept {
    constexpr std::size_t a = std::max({alignof(edt_node), alignof(slot), alignof(B)});
    return reinterpret_cast<char*>(this) + body_offset(a);
  }
};

/// Allocates a node with `body_bytes` of body storage aligned to `body_align`; the caller
/// constructs the body there and then calls node_start.
edt_node* node_allocate(graph_state& g, std::uint32_t nslots, std::size_t body_bytes,
                        std::size_t body_align);
void node_free_unstarted(edt_node* n) noexcept;     ///< the body's constructor threw
void node_start(edt_node* n, const body_ops* ops);  ///< counts it; fires it if it has no slots
/// Drops `k` holds on n; the last frees it.
void node_release(edt_node* n, std::uint64_t k = 1) noexcept;
void node_drop_handle(edt_node* n) noexcept;
void node_add_dependence(edt_node* n, event_core* ev, std::uint32_t i, locus::access mode);
/// edt::inlet: claims slot `i` of n for an inlet carrying `type`; takes the inlet's hold.
void node_claim_inlet(edt_node* n, std::uint32_t i, const void* type);
/// The inlet of a slot of n stored its value: counts the slot satisfied (n may fire), drops
/// the inlet's hold.
void inlet_satisfied(edt_node* n) noexcept;
/// An inlet of n went away unsatisfied: n can never fire (cancelled); drops the hold.
void inlet_abandoned(edt_node* n) noexcept;
[[noreturn]] void inlet_empty();
/// The output event of task n: its event (a reference taken) and a hold on n.
struct output_refs {
  edt_node* n;
  event_core* ev;
};
output_refs node_done(edt_node* n);
/// add_dependence(a.done(), n, slot): the edge a -> n, checked for a cycle first.
void node_add_output_dependence(edt_node* a, event_core* ev, edt_node* n, std::uint32_t i,
                                locus::access mode);

template <class F>
struct body_of {
  static constexpr bool takes_args = std::is_invocable_v<F&, edt_args&>;
  using result = typename std::conditional_t<takes_args, std::invoke_result<F&, edt_args&>,
                                             std::invoke_result<F&>>::type;
  static constexpr bool coroutine = std::is_same_v<result, locus::task<void>>;
  static_assert(std::is_void_v<result> || coroutine,
                "a data-driven task's body returns void or locus::task<void>");

  static decltype(auto) invoke(void* b, edt_args& in) {
    F& f = *static_cast<F*>(b);
    if constexpr (takes_args) {
      return f(in);
    } else {
      return f();
    }
  }
  static locus::task<void> start(void* b, edt_args& in) {
    if constexpr (coroutine) {
      return invoke(b, in);
    } else {
      return {};
    }
  }
  static void call(void* b, edt_args& in) {
    if constexpr (!coroutine) invoke(b, in);
  }
  static void destroy(void* b) noexcept { static_cast<F*>(b)->~F(); }
  static constexpr body_ops ops{coroutine ? &start : nullptr, coroutine ? nullptr : &call,
                                &destroy};
};

}  // namespace detail

}  // namespace locus::dataflow
