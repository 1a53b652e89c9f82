// locus/dataflow/event.hpp — single-assignment events and latches, awaitable from locus tasks.
//
//   locus::dataflow::event<int> e;           // unsatisfied
//   e.satisfy(42);                           // once; a second satisfy throws dataflow_error
//   int v = co_await e;                      // in a locus task: suspends until satisfied
//   locus::dataflow::latch l(3);             // fires after three count_down()s
//
// An event is a reference-counted handle (copies share the event). It fires once, when it is
// satisfied (a latch: when its count reaches zero), and then notifies every waiter: data-driven
// tasks (graph.hpp) whose slot depends on it, and coroutines suspended in `co_await`.
//
// Protocol (one word, `m_waiters`, holds the waiter list or a terminal state):
//   * a waiter pushes itself onto the list with a CAS (release: its record is published to the
//     thread that will notify it), unless the word already says fired/abandoned (then it
//     proceeds at once: the event's value is visible through the acquire load that saw it);
//   * the satisfier first *claims* the event by counting `m_count` down to zero (exactly one
//     thread brings it to zero; anyone going past zero is a double satisfy, reported), then
//     writes the value, then exchanges the word for `k_fired` (acq_rel: release publishes the
//     value to every later reader; acquire makes the waiter records pushed so far visible) and
//     notifies the list it took. A notified waiter may be freed by the time notify returns,
//     so the walk reads `next` first.
//   * an event whose last *producer* handle (event<T>, latch) disappears before it fired can
//     never fire: it is *abandoned* (the word becomes k_abandoned) and its waiters are told so
//     (a data-driven task is cancelled, a coroutine's co_await throws).
// Lifetime: one word, `m_refs`, holds two counts: every holder (handles, dependences, awaiters)
// in the low half, the handles that could still satisfy it (producers, each also a holder) in
// the high half, so a producer handle comes and goes with one read-modify-write. Releases are
// acq_rel so that the thread that frees the event sees every other holder's use of it.
// Memory: an event is one block of the calling thread's pool (detail/pool.hpp).
#pragma once

#include <atomic>
#include <coroutine>
#include <cstdint>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "locus/detail/frame.hpp"
#include "locus/detail/pool.hpp"
#include "locus/ext/ready.hpp"

namespace locus::dataflow {

/// Misuse of the dataflow API: a second satisfy, a dependence on a task that already fired, a
/// slot out of range, a datablock released twice, ... The message names the misuse.
class dataflow_error : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

namespace detail {

/// Someone waiting for an event: a task's dependence slot or a suspended coroutine.
struct waiter {
  waiter* next = nullptr;
  /// Called exactly once, by the thread that fired (fired = true) or abandoned the event. The
  /// record may be freed by the time it returns.
  void (*notify)(waiter* self, bool fired) = nullptr;
};

/// A unique address per value type, to check that a slot is read with the type it carries.
template <class T>
inline constexpr char type_tag = 0;

[[noreturn]] void throw_error(const std::string& what);
/// Throws the dataflow_error of a member `what` called on an empty handle (default-constructed
/// or moved from). Cold and out of line: the check at each member is one test.
[[noreturn, gnu::cold]] void empty_handle(const char* what);

class event_core {
 public:
  static constexpr std::uintptr_t k_fired = 1, k_abandoned = 2;  // waiters are 8-aligned

  event_core(std::int64_t count, const void* type, void (*destroy)(event_core*)) noexcept
      : m_count(count), m_type(type), m_destroy(destroy) {}
  event_core(const event_core&) = delete;
  event_core& operator=(const event_core&) = delete;

  // Events live in the per-thread pools (freed from any thread). Over-aligned values go to the
  // global aligned allocator.
  static void* operator new(std::size_t n) { return locus::detail::pool_allocate(n); }
  static void operator delete(void* p, std::size_t n) noexcept { locus::detail::pool_free(p, n); }
  static void* operator new(std::size_t n, std::align_val_t a) { return ::operator new(n, a); }
  // The unsized global form: clang declares the sized one only with -fsized-deallocation.
  static void operator delete(void* p, std::size_t, std::align_val_t a) noexcept {
    ::operator delete(p, a);
  }

  void add_ref() noexcept { m_refs.fetch_add(1, std::memory_order_relaxed); }
  void release() noexcept {
    if (m_refs.fetch_sub(1, std::memory_order_acq_rel) == 1) m_destroy(this);
  }
  /// A new producer handle (a copy of an event<T> or latch); also holds a reference.
  void add_producer() noexcept { m_refs.fetch_add(k_producer + 1, std::memory_order_relaxed); }
  /// Drops a producer handle and its reference: one CAS unless it is the last producer, which
  /// abandons the event (if unclaimed) while it still holds its reference.
  void release_producer() noexcept {
    std::uint64_t c = m_refs.load(std::memory_order_relaxed);
    while ((c >> 32) != 1) {
      if (m_refs.compare_exchange_weak(c, c - k_producer - 1, std::memory_order_acq_rel,
                                       std::memory_order_relaxed))
        return;  // another producer remains, so another holder does: the event stays alive
    }
    m_refs.fetch_sub(k_producer, std::memory_order_acq_rel);
    abandon();
    release();
  }

  /// Counts down by `n`; true if this call brought the count to zero: the caller must then
  /// store the value (if any) and fire(). Going past zero throws (`what` names the API).
  bool count_down(std::int64_t n, const char* what) {
    if (n <= 0)
      throw_error(std::string(what) + ": the count must be positive, got " + std::to_string(n));
    // acquire: a satisfier that wins sees the earlier count_downs' writes (a latch guarding data).
    const std::int64_t before = m_count.fetch_sub(n, std::memory_order_acq_rel);
    if (before < n) {
      m_count.fetch_add(n, std::memory_order_relaxed);  // undo, so the event's state stays sane
      throw_error(std::string(what) +
                  (before <= 0 ? ": the event was already satisfied (events are single-assignment; "
                                 "use a latch to count down several times)"
                               : ": counted down past zero (count was " + std::to_string(before) +
                                     ", count_down by " + std::to_string(n) + ")"));
    }
    return before == n;
  }

  /// Publish and notify: called once, by the thread whose count_down returned true.
  void fire() noexcept { notify_all(k_fired); }

  /// Registers `w`; false if the event already fired or was abandoned (then `w` is not kept).
  bool add_waiter(waiter* w) noexcept {
    std::uintptr_t head = m_waiters.load(std::memory_order_acquire);
    do {
      if (head == k_fired || head == k_abandoned) return false;
      w->next = reinterpret_cast<waiter*>(head);
      // release: publishes *w to the notifier; acquire on failure: see a fired value.
    } while (!m_waiters.compare_exchange_weak(head, reinterpret_cast<std::uintptr_t>(w),
                                              std::memory_order_acq_rel,
                                              std::memory_order_acquire));
    return true;
  }

  [[nodiscard]] bool fired() const noexcept {
    return m_waiters.load(std::memory_order_acquire) == k_fired;
  }
  [[nodiscard]] bool abandoned() const noexcept {
    return m_waiters.load(std::memory_order_acquire) == k_abandoned;
  }
  [[nodiscard]] const void* type() const noexcept { return m_type; }

 protected:
  ~event_core() = default;

 private:
  void notify_all(std::uintptr_t state) noexcept {
    std::uintptr_t head = m_waiters.exchange(state, std::memory_order_acq_rel);
    const bool fired = state == k_fired;
    while (head != 0 && head != k_fired && head != k_abandoned) {
      auto* w = reinterpret_cast<waiter*>(head);
      head = reinterpret_cast<std::uintptr_t>(w->next);  // before notify: w may be freed by it
      w->notify(w, fired);
    }
  }
  /// The last producer left. If the event has not been claimed nobody can satisfy it any more.
  /// (No satisfy can race with this: a satisfier holds a producer handle.)
  void abandon() noexcept {
    if (m_count.load(std::memory_order_acquire) > 0) notify_all(k_abandoned);
  }

  static constexpr std::uint64_t k_producer = std::uint64_t{1} << 32;

  std::atomic<std::uintptr_t> m_waiters{0};
  std::atomic<std::int64_t> m_count;
  std::atomic<std::uint64_t> m_refs{k_producer + 1};  ///< producers << 32 | holders
  const void* m_type;
  void (*m_destroy)(event_core*);
};

/// An event carrying a T (void: none). The value is written once, by the claimant, before
/// fire(); read only after fired() (acquire), so it needs no synchronisation of its own.
template <class T>
class value_core final : public event_core {
 public:
  value_core() noexcept : event_core(1, &type_tag<T>, &destroy) {}
  std::optional<T> value;

 private:
  static void destroy(event_core* e) noexcept { delete static_cast<value_core*>(e); }
};
template <>
class value_core<void> final : public event_core {
 public:
  explicit value_core(std::int64_t count = 1) noexcept
      : event_core(count, &type_tag<void>, &destroy) {}

 private:
  static void destroy(event_core* e) noexcept { delete static_cast<value_core*>(e); }
};

/// co_await on an event in a locus task. Suspends the frame (the worker goes on with other
/// work) and, when the event fires, makes it runnable on the firing worker's deque (or its
/// place's pool: ext/ready.hpp). Holds a reference to the event while it waits.
class event_awaiter : private waiter {
 public:
  explicit event_awaiter(event_core* e) noexcept : m_event(e) { m_event->add_ref(); }
  event_awaiter(const event_awaiter&) = delete;
  event_awaiter& operator=(const event_awaiter&) = delete;
  ~event_awaiter() { m_event->release(); }

  [[nodiscard]] bool await_ready() const noexcept {
    return m_event->fired() || m_event->abandoned();
  }
  template <class P>
  bool await_suspend(std::coroutine_handle<P> h) {
    static_assert(std::is_base_of_v<locus::detail::frame, P>,
                  "co_await on a locus::dataflow event is supported inside locus tasks only");
    locus::detail::frame& f = h.promise();
    m_rt = ext::core_ref::current();
    if (!m_rt) throw_error("locus::dataflow: co_await on an event must run on a locus worker");
    m_frame = &f;
    notify = &resume;
    // After a successful add the frame may be resumed on another worker at once: touch
    // nothing of this awaiter or the frame afterwards.
    return m_event->add_waiter(this);
  }
  /// Throws if the event was abandoned (its last producer disappeared unsatisfied).
  void check() const {
    if (m_event->abandoned())
      throw_error(
          "locus::dataflow: co_await on an event that can never fire: every handle that could "
          "satisfy it was destroyed");
  }
  [[nodiscard]] event_core* core() const noexcept { return m_event; }

 private:
  static void resume(waiter* w, bool /*fired: await_resume reads the event's state*/) noexcept {
    auto* self = static_cast<event_awaiter*>(w);
    locus::detail::frame* f = self->m_frame;
    // A resumption, not a fresh task (ext/ready.hpp). The push's release publishes the event's
    // state, which we acquired in the exchange, to whoever resumes the frame.
    ext::make_runnable(self->m_rt, f->m_place, locus::detail::continuation_item(f, true), false);
  }
  event_core* m_event;
  locus::detail::frame* m_frame = nullptr;
  ext::core_ref m_rt;
};

template <class T>
class typed_awaiter : public event_awaiter {
 public:
  using event_awaiter::event_awaiter;
  const T& await_resume() const {
    check();
    return *static_cast<value_core<T>*>(core())->value;
  }
};
template <>
class typed_awaiter<void> : public event_awaiter {
 public:
  using event_awaiter::event_awaiter;
  void await_resume() const { check(); }
};

}  // namespace detail

/// A single-assignment event carrying a T (or nothing: event<>). Copies share the event; it
/// lives while any copy, dependence or awaiter holds it. A moved-from handle is empty: every
/// member but core() (null) throws dataflow_error; it may be assigned to or destroyed.
/// Lifetime: an event may outlive the graphs and the runtime whose tasks wait on it; a satisfy
/// after that runtime was destroyed does not run those tasks (docs/design/0010, "Lifetimes").
template <class T = void>
class event {
 public:
  using value_type = T;
  /// A new, unsatisfied event.
  event() : m_core(new detail::value_core<T>()) {}
  event(const event& o) noexcept : m_core(o.m_core) {
    if (m_core != nullptr) m_core->add_producer();
  }
  event(event&& o) noexcept : m_core(std::exchange(o.m_core, nullptr)) {}
  event& operator=(event o) noexcept {
    std::swap(m_core, o.m_core);
    return *this;
  }
  ~event() {
    if (m_core != nullptr) m_core->release_producer();
  }

  /// Satisfies the event with `v` (event<void>: with nothing) and runs or readies everything
  /// that waited for it. Throws dataflow_error if it was already satisfied.
  template <class... A>
  void satisfy(A&&... v) {
    if (m_core == nullptr) [[unlikely]]
      detail::empty_handle("locus::dataflow::event::satisfy");
    if (m_core->count_down(1, "locus::dataflow::event::satisfy")) {
      if constexpr (!std::is_void_v<T>) m_core->value.emplace(std::forward<A>(v)...);
      m_core->fire();
    }
  }
  [[nodiscard]] bool satisfied() const {
    if (m_core == nullptr) [[unlikely]]
      detail::empty_handle("locus::dataflow::event::satisfied");
    return m_core->fired();
  }
  /// The value; throws dataflow_error if the event has not fired yet.
  template <class U = T>
  requires(!std::is_void_v<U>) [[nodiscard]] const U& get() const {
    if (m_core == nullptr) [[unlikely]]
      detail::empty_handle("locus::dataflow::event::get");
    if (!m_core->fired()) detail::throw_error("locus::dataflow::event::get: not satisfied yet");
    return *m_core->value;
  }
  /// co_await ev: in a locus task, the value once satisfied (void for event<>).
  detail::typed_awaiter<T> operator co_await() const {
    if (m_core == nullptr) [[unlikely]]
      detail::empty_handle("locus::dataflow::event::operator co_await");
    return detail::typed_awaiter<T>(m_core);
  }
  /// The shared state, or null for an empty (moved-from) handle: add_dependence reports that.
  [[nodiscard]] detail::event_core* core() const noexcept { return m_core; }

 private:
  detail::value_core<T>* m_core;
};

/// A count-down event: fires when count_down() has brought its count to zero. Counting down
/// past zero throws dataflow_error. A latch of count 0 is created fired. A latch has no empty
/// state: it is not default-constructible, and moving one copies it.
class latch {
 public:
  explicit latch(std::int64_t count) : m_core(new detail::value_core<void>(count)) {
    if (count < 0) {
      delete m_core;
      detail::throw_error("locus::dataflow::latch: the count must be >= 0, got " +
                          std::to_string(count));
    }
    if (count == 0) m_core->fire();
  }
  latch(const latch& o) noexcept : m_core(o.m_core) { m_core->add_producer(); }
  latch& operator=(const latch&) = delete;
  ~latch() { m_core->release_producer(); }

  void count_down(std::int64_t n = 1) {
    if (m_core->count_down(n, "locus::dataflow::latch::count_down")) m_core->fire();
  }
  [[nodiscard]] bool satisfied() const noexcept { return m_core->fired(); }
  detail::typed_awaiter<void> operator co_await() const noexcept {
    return detail::typed_awaiter<void>(m_core);
  }
  [[nodiscard]] detail::event_core* core() const noexcept { return m_core; }

 private:
  detail::value_core<void>* m_core;
};

}  // namespace locus::dataflow
