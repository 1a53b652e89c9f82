// locus/detail/frame.hpp — the header every task's coroutine frame carries.
//
// A frame is the promise base of a locus coroutine. The scheduler, the join protocol and the
// extensions (steal trees, replay, locality) only ever see this header.
//
// Join protocol (Cilk's, in the form libfork popularised, with help-first added):
//   m_expected counts the child completions this frame must wait for at its next sync: one per
//   help-first or remote child, plus one per time its continuation was taken off a deque while
//   a spawned child ran (a steal, or a pop by the worker loop). Only the thread currently
//   running the frame touches m_expected, so it is a plain integer.
//   m_join starts at zero. Each such child, when it completes, decrements it by one. At a sync
//   the frame adds m_expected: whoever brings it to zero, the frame or its last child,
//   continues the frame. Before the frame arrives the counter is minus the completions so far,
//   below zero after any decrement, so no child can bring it to zero early, however many finish
//   before the frame arrives (a signed 64-bit counter: no bias is needed, and the constructor
//   stores a zero that merges with the header's other zeros). After the arrival it is the
//   completions still missing, >= 0.
#pragma once

#include <atomic>
#include <cassert>
#include <condition_variable>
#include <coroutine>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <mutex>
#include <type_traits>

/// The spawn path is a handful of inline functions the compiler must fold into the coroutine
/// that spawns; gcc 12 stops inlining them once the coroutine body grows, and a call costs
/// more than the whole spawn. Only on functions called once per spawn.
#if defined(__GNUC__) || defined(__clang__)
#define LOCUS_ALWAYS_INLINE [[gnu::always_inline]]
#else
#define LOCUS_ALWAYS_INLINE
#endif

namespace locus::detail {

/// A finish scope's starting count (finish_scope).
inline constexpr std::int64_t k_join_bias = std::int64_t{1} << 40;

/// How a frame was started, which decides what its completion does.
enum class frame_kind : std::uint8_t {
  root,    ///< started by runtime::run; completion arrives at run's finish scope
  called,  ///< co_await task: completion resumes the parent, which reads the child
  /// co_await task whose result the child writes into the caller's awaiter (task.hpp,
  /// in_place_call_awaiter): completion frees the frame, then resumes the parent; a throwing
  /// child hands its exception over in the parent's m_call_exception.
  called_in_place,
  spawned,      ///< spawn: completion pops the parent back or joins it
  async,        ///< async: completion arrives at the finish scope; the frame frees itself
  finish_body,  ///< body of co_await finish(...): completion arrives at that scope
  detached,     ///< started by an extension (ext/ready.hpp): nobody joins it; completion frees it
};

/// Whether a frame of this kind was started by a call (co_await task), in either form.
[[nodiscard]] constexpr bool is_call(frame_kind k) noexcept {
  return k == frame_kind::called || k == frame_kind::called_in_place;
}

/// First exception wins; the rest are dropped. Writers may race (children on several
/// workers); readers run after the join, which orders them after every writer.
///
/// Reading never empties the slot unless the reader says so (`take`): a child's exception is
/// *copied* to its parent at completion, so the child's own future can still rethrow it after
/// the parent caught it at sync (std::exception_ptr is reference counted; a copy is cheap).
class exception_slot {
 public:
  exception_slot() = default;
  exception_slot(const exception_slot&) = delete;
  exception_slot& operator=(const exception_slot&) = delete;
  ~exception_slot() {
    if (std::exception_ptr* p = m_ptr.load(std::memory_order_relaxed)) [[unlikely]]
      release(p);
  }

  void offer(std::exception_ptr e) noexcept {
    auto* p = new (std::nothrow) std::exception_ptr(std::move(e));
    if (p == nullptr) std::terminate();  // cannot report an exception without memory
    std::exception_ptr* expected = nullptr;
    // acq_rel: publishes *p to the thread that later reads it.
    if (!m_ptr.compare_exchange_strong(expected, p, std::memory_order_acq_rel)) delete p;
  }
  [[nodiscard]] bool has() const noexcept {
    return m_ptr.load(std::memory_order_relaxed) != nullptr;
  }
  /// A copy of the stored exception (null if none); the slot keeps it.
  [[nodiscard]] std::exception_ptr get() const noexcept {
    const std::exception_ptr* p = m_ptr.load(std::memory_order_acquire);
    return p != nullptr ? *p : std::exception_ptr{};
  }
  /// Rethrow a copy of the stored exception (the slot keeps it); there must be one (has()).
  /// Out of line, as release() and rethrow_taken(): every locus coroutine inlines the code
  /// that calls them, and an exception_ptr handled inline (a temporary whose address lives
  /// across the call) costs that coroutine a callee-saved register on every resumption
  /// (docs/design/0016).
  [[noreturn]] void rethrow() const;
  /// Rethrow the stored exception, emptying the slot; there must be one (has()).
  [[noreturn]] void rethrow_taken();

  /// The stored exception as its box, emptying the slot: the caller owns the box (delete it).
  /// For a frame whose every child has joined (nobody offers concurrently).
  [[nodiscard]] std::exception_ptr* release_box() noexcept {
    return m_ptr.exchange(nullptr, std::memory_order_acquire);
  }

  /// The stored exception, emptying the slot (a sync that rethrows it consumes it).
  [[nodiscard]] std::exception_ptr take() noexcept {
    std::exception_ptr* p = m_ptr.exchange(nullptr, std::memory_order_acquire);
    if (p == nullptr) return {};
    std::exception_ptr e = std::move(*p);
    delete p;
    return e;
  }

 private:
  static void release(std::exception_ptr* p) noexcept;

  std::atomic<std::exception_ptr*> m_ptr{nullptr};
};

struct frame;
struct data_slot;  ///< the data a task touches (locus/data.hpp, src/data.cpp)

/// frame::m_schedule's halves (see there).
inline constexpr std::uint32_t k_no_phase = 0xffffffffu;
/// A root: no traced phase yet (the worker that picks it up starts one), strategy slot 0 (the
/// template's root node; a designated schedule's phase headed at level 0).
inline constexpr std::uint64_t k_schedule_root = k_no_phase;
[[nodiscard]] inline std::uint32_t schedule_phase(std::uint64_t s) noexcept {
  return static_cast<std::uint32_t>(s);
}
[[nodiscard]] inline std::uint32_t schedule_slot(std::uint64_t s) noexcept {
  return static_cast<std::uint32_t>(s >> 32);
}
/// A strategy slot that hands the frame back to the built-in spawn path: a custom spawn rule
/// is not asked about this frame's spawns (worker::choose_spawn; ext::spawn_site::k_builtin).
inline constexpr std::uint32_t k_slot_builtin = 0xffffffffu;
[[nodiscard]] inline std::uint64_t make_schedule(std::uint32_t phase, std::uint32_t slot) noexcept {
  return (std::uint64_t{slot} << 32) | phase;
}

/// The extension hooks of the data slot (src/data.cpp): out of line, reached only when a frame
/// carries data, so a program that declares none pays one test per spawn and per completion.
void inherit_data(const frame& parent, frame& child);
void complete_data(frame& f) noexcept;
void free_data(data_slot* d) noexcept;

/// How runtime::run learns that its root task and every async under it are done. Signalled
/// under the mutex so the waiter cannot destroy it while the signaller still touches it.
struct run_signal {
  std::mutex mutex;
  std::condition_variable cv;
  bool done = false;
};

/// An HJ finish scope: counts every async started inside it, transitively. Unlike a frame's
/// join, nobody counts the asyncs ahead of the owner's arrival, so the counter starts at a
/// bias (k_join_bias, above any count) that keeps it from reaching zero early, and the owner
/// arrives once by subtracting the bias.
struct finish_scope {
  std::atomic<std::int64_t> pending{k_join_bias};
  exception_slot exception;
  frame* waiter = nullptr;       ///< resumed when the scope drains, or
  run_signal* signal = nullptr;  ///< signalled when it drains (runtime::run)
};

/// Orphans. A spawned child's frame is freed by its future (future::reset), which may be
/// dropped while the child still runs (uts and nqueens pass results through pointers and
/// drop every future at once). Then whichever comes second frees the frame: the future marks
/// it k_orphaned, the child's completion (finish_frame) marks it k_completed, each by one
/// exchange (acq_rel: the one that frees sees the other's writes to the frame). So a frame
/// lives no longer than its task and its future, not until its parent's next sync, which on
/// a deep help-first path held every finished sibling (uts T3L: docs/benchmarks.md).
/// A child certainly complete when its future drops (the parent synced since, or it ran
/// work-first and its parent's continuation was never taken) is freed at once, no exchange.
/// A child spawned in place (`spawn(&out, t)`: no future) starts k_orphaned, so its own
/// completion frees it: on the fast path (complete(), its parent popped back) by a plain
/// test, nobody else can touch it then; on every other path by the same exchange.
inline constexpr std::uint8_t k_owned = 0;
inline constexpr std::uint8_t k_orphaned = 1;
inline constexpr std::uint8_t k_completed = 2;

/// The frame header. Fields without an initialiser are written by whoever starts the frame
/// (adopt() for spawns, calls and finish bodies; runtime::run for the root) before it first
/// runs, so the coroutine's constructor does not store them only to have adopt() overwrite
/// them on the spawn path.
///
/// Order (docs/design/0016, 0020): the fields a child copies from its parent unchanged
/// (m_finish, m_schedule, m_place, m_stack_base) are adjacent, so link() copies them in two
/// moves; the fields the constructor stores (all zero but m_plain, a constant of the promise
/// type) are one block of 48 bytes, [m_join, m_work_first), which gcc stores as three 16-byte
/// stores and a byte (static_asserts below). The coroutine's address is not a field: handle()
/// computes it from the header's own (k_promise_offset).
struct frame {
  frame* m_parent;         ///< spawn/call parent; null for the root
  finish_scope* m_finish;  ///< innermost enclosing finish scope
  /// The scheduling word (docs/design/0008, "Recording" and "Replay"): copied from the parent
  /// at adopt(), so every frame carries the schedule state of the phase that spawned it. The
  /// phase half is rewritten only where a frame is picked up from elsewhere (a steal, a
  /// donation); the slot half only by a custom spawn rule's placement (spawn_custom), never on
  /// the built-in spawn path. Low half: the steal-tree phase the frame runs in while a phase is
  /// traced (k_no_phase: none); high half: the strategy's slot (replay: the template node
  /// that governs the frame; designated schedules: the level of the frame heading its phase).
  std::uint64_t m_schedule;
  std::uint32_t m_place;  ///< the place this frame runs in (see docs/design/0005)
  /// Level of the first frame of this frame's on-stack chain (SLAW's S): the frame a worker
  /// last picked up (a steal, a mailbox, a join) heads a chain that work-first children and
  /// calls extend. Always <= m_level, so m_level - m_stack_base never wraps.
  std::uint32_t m_stack_base;
  std::uint32_t m_level;        ///< depth in the spawn/call tree (root 0)
  std::uint32_t m_spawn_index;  ///< index of this frame among its parent's children
  /// The parent's m_sync_epoch and m_expected when this frame was spawned: read by its future
  /// alone (future::ready, future::reset), so stored by the spawns that make one
  /// (spawn_awaiter, plain_spawn_awaiter: note_future_spawn), not by link(). Unset in a frame
  /// spawned in place or called.
  std::uint32_t m_parent_epoch;
  std::uint32_t m_parent_expected;
  std::atomic<std::int64_t> m_join{0};  ///< see the join protocol above
  exception_slot m_exception;           ///< own or a child's exception, rethrown at sync
  /// The data this task touches (declared, or a share of its parent's); null for none. Owned
  /// by the frame; freed at completion (complete_data) or with an unrun frame.
  data_slot* m_data = nullptr;
  /// A call in place (frame_kind::called_in_place) that threw: its exception's box, handed
  /// over by the child as it frees its frame, taken by the call's await_resume, which runs
  /// next in this frame (nothing else resumes it in between). Null at every other time.
  std::exception_ptr* m_call_exception = nullptr;
  std::uint32_t m_expected = 0;    ///< see the join protocol above
  std::uint32_t m_sync_epoch = 0;  ///< bumped by every completed sync
  std::uint32_t m_next_spawn = 0;  ///< index the next child of this frame gets
  /// Who frees a spawned frame whose future may be dropped before the frame completes (see
  /// "Orphans" below and future::reset): k_owned, then k_orphaned or k_completed, first come.
  std::atomic<std::uint8_t> m_orphan{0};
  bool m_at_final = false;  ///< waiting for children at its final suspend point
  /// Set by the promise's constructor (plain_frame_v): once complete, with no exception and no
  /// data, the frame holds nothing with a destructor, so a frame that frees itself (a spawn
  /// in place) may give its block back without entering its destroy function.
  bool m_plain = false;
  frame_kind m_kind;
  bool m_work_first;  ///< spawned work-first: the parent sits on our deque

  /// The bytes the constructor clears: [m_join, m_work_first), m_plain and m_kind included
  /// (m_plain is set after it, by the promise's constructor; m_kind by whoever starts the
  /// frame).
  static constexpr std::size_t k_zeroed_bytes = 48;

  /// Where a coroutine's promise (this header is its base) lies in its frame: after the
  /// resume and destroy pointers, with gcc and clang, for a promise aligned to at most 16
  /// (promise<T> asserts both its alignment and, in debug builds, this offset, in
  /// get_return_object). Only a frame that is a locus coroutine's promise has a handle.
  static constexpr std::size_t k_promise_offset = 2 * sizeof(void*);

  /// This coroutine's address (what from_promise gives): the frame's own, less the offset.
  [[nodiscard]] void* address() const noexcept {
    return const_cast<char*>(reinterpret_cast<const char*>(this)) - k_promise_offset;
  }
  [[nodiscard]] std::coroutine_handle<> handle() const noexcept {
    return std::coroutine_handle<>::from_address(address());
  }

  /// The member initialisers above say what each field starts as; this stores them again, as
  /// one block of zeros, which gcc 12 emits as three 16-byte stores (and drops the initialisers'
  /// own stores, which it does not merge: seven stores of 1 to 16 bytes, 4 instructions per
  /// fib frame more: docs/design/0020). The block holds plain scalars and lock-free atomics of
  /// integers and pointers (static_asserts below), whose object representation for zero and
  /// null is all zero bits, and nobody else can see the frame while it is constructed.
  frame() noexcept { std::memset(static_cast<void*>(&m_join), 0, k_zeroed_bytes); }
  frame(const frame&) = delete;
  frame& operator=(const frame&) = delete;
  ~frame() {
    if (m_data != nullptr) [[unlikely]]
      free_data(m_data);  // a frame destroyed unrun
    assert(m_call_exception == nullptr && "a call's exception is taken by its await_resume");
  }

  /// Link `child` under this frame before it starts, its data included (inherit_data).
  void adopt(frame& child, frame_kind kind) noexcept {
    link(child, kind);
    if (m_data != nullptr) [[unlikely]]
      inherit_data(*this, child);
  }

  /// adopt() for a frame that carries no data (m_data null): the fields alone, no call. The
  /// spawn and call fast paths test m_data first and take an out-of-line path when it is set,
  /// so that they call nothing (docs/design/0016).
  void link(frame& child, frame_kind kind) noexcept {
    child.m_parent = this;
    // m_finish, m_schedule, m_place, m_stack_base: one copy of the 24 bytes they occupy
    // together (two moves; field by field, gcc 12 makes eight). static_asserts below.
    std::memcpy(static_cast<void*>(&child.m_finish), static_cast<const void*>(&m_finish),
                offsetof(frame, m_level) - offsetof(frame, m_finish));
    child.m_level = m_level + 1;
    child.m_spawn_index = m_next_spawn++;
    child.m_kind = kind;
    // A call that keeps its result and a finish body: no spawn sets m_work_first, which
    // complete() reads with m_kind (spawned_work_first). Spawns set it (start_work_first,
    // start_help_first, spawn_remote); a call in place never reaches that test. Folded away
    // where `kind` is a constant.
    if (kind == frame_kind::called || kind == frame_kind::finish_body) child.m_work_first = false;
  }

  /// A spawn that makes a future (spawn(t)): what the future needs of its parent, stored
  /// before the child is published. m_expected is not changed by a work-first spawn, so it is
  /// the value the future compares with later (future::reset); a help-first child's is never
  /// read (m_work_first is false).
  void note_future_spawn(frame& child) const noexcept {
    child.m_parent_epoch = m_sync_epoch;
    child.m_parent_expected = m_expected;
  }

  /// This frame heads a new on-stack chain: a worker picked it up from a deque, a mailbox or
  /// a join, rather than reaching it by a call or a work-first spawn.
  void start_chain() noexcept { m_stack_base = m_level; }

  /// The on-stack frames (SLAW's S) a child of this frame would make, itself included.
  [[nodiscard]] std::uint32_t chain_length_of_child() const noexcept {
    return m_level - m_stack_base + 1;
  }

  /// Make this frame a root (runtime::run) or a detached start: no parent, level 0.
  void make_root(finish_scope* scope, std::uint32_t place) noexcept {
    m_parent = nullptr;
    m_finish = scope;
    m_kind = frame_kind::root;
    m_level = 0;
    m_stack_base = 0;
    m_spawn_index = 0;
    m_parent_epoch = 0;
    m_place = place;
    m_work_first = false;
    m_schedule = k_schedule_root;
  }
};

// link() copies [m_finish, m_level) as one block: it must hold exactly m_finish, m_schedule,
// m_place and m_stack_base, in this order, with no padding (all trivially copyable).
static_assert(std::is_standard_layout_v<frame>);
static_assert(offsetof(frame, m_schedule) == offsetof(frame, m_finish) + sizeof(void*));
static_assert(offsetof(frame, m_place) == offsetof(frame, m_schedule) + sizeof(std::uint64_t));
static_assert(offsetof(frame, m_stack_base) == offsetof(frame, m_place) + sizeof(std::uint32_t));
static_assert(offsetof(frame, m_level) == offsetof(frame, m_stack_base) + sizeof(std::uint32_t));
// The constructor's block: [m_join, m_work_first) is k_zeroed_bytes contiguous bytes, m_join
// first and m_kind last, and every atomic in it is lock-free with a zero that is all zero bits.
static_assert(offsetof(frame, m_join) == offsetof(frame, m_parent_expected) + 4);
static_assert(offsetof(frame, m_work_first) - offsetof(frame, m_join) == frame::k_zeroed_bytes);
static_assert(offsetof(frame, m_kind) + 1 == offsetof(frame, m_work_first));
static_assert(std::atomic<std::int64_t>::is_always_lock_free &&
              std::atomic<std::exception_ptr*>::is_always_lock_free &&
              std::atomic<std::uint8_t>::is_always_lock_free);
static_assert(sizeof(exception_slot) == sizeof(std::exception_ptr*));

/// Work that runs without a coroutine frame: a plain function over a small header embedded in
/// the caller's own object (a data-driven task's node, src/dataflow/graph.cpp). The worker loop
/// calls run() once and forgets the item; run() owns everything after that (its completion, its
/// bookkeeping, freeing the object), must not throw, and must return before the worker takes
/// other work (it may make work runnable, never wait for it). Nobody joins it.
struct runnable {
  void (*run)(runnable* self) noexcept;
};

/// Deque items are tagged pointers (frames and runnables are at least 8-byte aligned):
///   tag 0  a fresh frame (a spawned or detached child at its initial suspend point)
///   tag 1  a parent's continuation, whose spawned child is a frame of its own
///   tag 3  a continuation whose running child is an async (or a frame resumed by an event)
///   tag 2  a runnable (above): not a frame; item_frame() must never be called on it
/// The worker loop (src/worker.cpp, execute) and every strategy that looks into an item
/// (a replay scheduler's steal and donation, src/schedule/replay.cpp) test is_runnable() first.
inline constexpr std::uintptr_t k_tag_continuation = 1;  ///< a parent's continuation
inline constexpr std::uintptr_t k_tag_async_child = 2;   ///< ... whose running child is an async
inline constexpr std::uintptr_t k_tag_runnable = 2;      ///< without k_tag_continuation
inline constexpr std::uintptr_t k_tag_mask = 3;

[[nodiscard]] inline std::uintptr_t fresh_item(frame* f) noexcept {
  return reinterpret_cast<std::uintptr_t>(f);
}
[[nodiscard]] inline std::uintptr_t continuation_item(frame* f, bool async_child) noexcept {
  return reinterpret_cast<std::uintptr_t>(f) | k_tag_continuation |
         (async_child ? k_tag_async_child : 0);
}
[[nodiscard]] inline std::uintptr_t runnable_item(runnable* r) noexcept {
  return reinterpret_cast<std::uintptr_t>(r) | k_tag_runnable;
}
[[nodiscard]] inline bool is_runnable(std::uintptr_t item) noexcept {
  return (item & k_tag_mask) == k_tag_runnable;
}
[[nodiscard]] inline runnable* item_runnable(std::uintptr_t item) noexcept {
  return reinterpret_cast<runnable*>(item & ~k_tag_mask);
}
/// The frame of a frame item (tag 0, 1 or 3); never a runnable's.
[[nodiscard]] inline frame* item_frame(std::uintptr_t item) noexcept {
  return reinterpret_cast<frame*>(item & ~k_tag_mask);
}

}  // namespace locus::detail
