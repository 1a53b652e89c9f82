// locus/task.hpp — tasks as coroutines: task<T>, spawn / call / sync, async / finish, options.
//
//   locus::task<long> fib(int n) {
//     if (n < 2) co_return n;
//     long a = 0;
//     co_await locus::spawn(&a, fib, n - 1);  // stealable, in place: assigns fib(n - 1) to a
//     long b = co_await fib(n - 2);           // a call: nothing stealable
//     co_await locus::sync();                 // wait for this frame's children: a is set
//     co_return a + b;
//   }
//
// `auto f = co_await locus::spawn(fib(n - 1))` is the other form: a future, f.get() after sync.
//
// Semantics: spawn is fully strict (Cilk): a frame's children finish before its next sync and
// before the frame completes (an implicit sync at the end). async is terminally strict (HJ):
// it is counted by the innermost `co_await finish(...)` (or run()), not by its parent frame.
#pragma once

#include <cassert>
#include <coroutine>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "locus/config.hpp"
#include "locus/detail/promise.hpp"

namespace locus {

/// Where and how a spawn runs. Combine with |: `spawn(t, at(1) | help_first)`.
struct spawn_options {
  std::uint8_t policy = detail::k_policy_default;
  bool has_place = false;  ///< at(p) was given: `place` is meaningful (and checked)
  std::uint32_t place = detail::k_any_place;

  [[nodiscard]] constexpr spawn_options operator|(spawn_options o) const noexcept {
    return {o.policy != detail::k_policy_default ? o.policy : policy, o.has_place || has_place,
            o.has_place ? o.place : place};
  }
};
inline constexpr spawn_options work_first{static_cast<std::uint8_t>(spawn_policy::work_first)};
inline constexpr spawn_options help_first{static_cast<std::uint8_t>(spawn_policy::help_first)};
inline constexpr spawn_options adaptive{static_cast<std::uint8_t>(spawn_policy::adaptive)};
/// Run the spawned task on a worker of place `p` (its mailbox, if p is not the current place).
/// A p that names no place of the runtime (any p >= num_places(), 0xffffffff included) is an
/// error when the spawn happens (std::out_of_range).
[[nodiscard]] constexpr spawn_options at(unsigned p) noexcept {
  return {detail::k_policy_default, true, p};
}

namespace detail {
/// co_await task, for a T whose result cannot be written in place (task<T&>, or a T that is not
/// k_in_place_call): the child keeps its result in its frame, which the task temporary destroys
/// after await_resume read it.
template <class T>
struct call_awaiter {
  std::coroutine_handle<promise<T>> h;
  [[nodiscard]] bool await_ready() const noexcept { return false; }
  template <class P>
  std::coroutine_handle<> await_suspend(std::coroutine_handle<P> parent) noexcept {
    frame& p = parent.promise();
    if (p.m_data != nullptr) [[unlikely]]  // a tail call, as the spawn path's (scheduler.hpp)
      return call_slow(p, h.promise(), frame_kind::called);
    p.link(h.promise(), frame_kind::called);
    return transfer(h);
  }
  T await_resume() const {
    if constexpr (std::is_void_v<T>) {
      h.promise().completed_result();
    } else if constexpr (std::is_reference_v<T>) {
      return h.promise().completed_result();
    } else {
      return std::move(h.promise().completed_result());
    }
  }
};

/// Whether a call of a task<T> writes its result into the caller's awaiter and lets the child
/// free its own frame (in_place_call_awaiter): void, and a T the child may assign to storage
/// no constructor ran on (promise<T>::k_assigned: `long`, a pointer, a trivial struct).
template <class T>
struct in_place_call_trait : std::bool_constant<promise<T>::k_assigned> {};
template <class T>
struct in_place_call_trait<T&> : std::false_type {};
template <>
struct in_place_call_trait<void> : std::true_type {};
template <class T>
inline constexpr bool k_in_place_call = in_place_call_trait<T>::value;

/// Storage for a call's result in the awaiter: a T, left uninitialised until the child assigns
/// it (k_assigned), or nothing for void.
template <class T>
struct call_value {
  T value;
};
template <>
struct call_value<void> {};

/// co_await task for k_in_place_call<T> (docs/design/0020, "Calls in place"). The awaiter owns
/// the child from task::operator co_await on (await_ready is false, so await_suspend always
/// runs and starts it). The child assigns its result to `value` here, through m_out, and frees
/// its own frame at its final suspend point before the caller resumes (complete()): no destroy
/// function, no frame kept for await_resume. A child that throws hands its exception over in
/// the caller's frame (frame::m_call_exception), which await_resume tests.
///
/// Layout: `result` lies between `h` and `parent`. Adjacent, the two pointers, stored a few
/// instructions apart (h by the constructor, parent by await_suspend), were merged by gcc 12
/// into one 16-byte store built in a vector register (two moves into it and an unpack: two
/// instructions more than two plain stores, in every call of a task with a result). A call of
/// a task<void> (result empty) keeps them adjacent.
template <class T>
struct in_place_call_awaiter {
  std::coroutine_handle<promise<T>> h;
  [[no_unique_address]] call_value<T> result;
  frame* parent = nullptr;

  /// Leaves `result` uninitialised (no store): the child assigns it before await_resume reads.
  explicit in_place_call_awaiter(std::coroutine_handle<promise<T>> c) noexcept : h(c) {}
  [[nodiscard]] bool await_ready() const noexcept { return false; }
  template <class P>
  std::coroutine_handle<> await_suspend(std::coroutine_handle<P> caller) noexcept {
    frame& p = caller.promise();
    parent = &p;
    promise<T>& c = h.promise();
    if constexpr (!std::is_void_v<T>) c.m_out = std::addressof(result.value);
    if (p.m_data != nullptr) [[unlikely]]  // a tail call, as the spawn path's (scheduler.hpp)
      return call_slow(p, c, frame_kind::called_in_place);
    p.link(c, frame_kind::called_in_place);
    return transfer(h);
  }
  T await_resume() {
    if (parent->m_call_exception != nullptr) [[unlikely]]
      rethrow_call(*parent);
    if constexpr (!std::is_void_v<T>) return result.value;
  }
};
}  // namespace detail

/// A lazy, move-only coroutine task. It starts when awaited (a call), spawned, or run.
template <class T = void>
class [[nodiscard]] task {
 public:
  using promise_type = detail::promise<T>;
  using value_type = T;

  task() noexcept = default;
  explicit task(std::coroutine_handle<promise_type> h) noexcept : m_h(h) {}
  task(task&& o) noexcept : m_h(std::exchange(o.m_h, {})) {}
  task& operator=(task&& o) noexcept {
    if (this != &o) {
      reset();
      m_h = std::exchange(o.m_h, {});
    }
    return *this;
  }
  ~task() { reset(); }

  [[nodiscard]] bool valid() const noexcept { return static_cast<bool>(m_h); }
  [[nodiscard]] promise_type& promise() const noexcept { return m_h.promise(); }
  [[nodiscard]] std::coroutine_handle<promise_type> release() noexcept {
    return std::exchange(m_h, {});
  }

  /// co_await task: a call. The child runs now on this worker; nothing becomes stealable.
  /// For void and trivial results (detail::k_in_place_call) the awaiter takes the child over
  /// and the child frees its own frame; otherwise this task destroys it after the call.
  auto operator co_await() && noexcept {
    if constexpr (detail::k_in_place_call<T>) {
      return detail::in_place_call_awaiter<T>{std::exchange(m_h, {})};
    } else {
      return detail::call_awaiter<T>{m_h};
    }
  }

 private:
  void reset() noexcept {
    if (m_h) std::exchange(m_h, {}).destroy();
  }
  std::coroutine_handle<promise_type> m_h;
};

/// The handle a spawn returns. get() is valid after the spawning frame's next sync.
///
/// A future belongs to the task that spawned it: only that task's own thread of control (its
/// body, wherever it runs after a sync) may call get() or destroy it, and it must not outlive
/// that task (debug builds assert that it is destroyed on a locus worker). Destroying it before
/// the sync is allowed: the child's frame is then freed as soon as the child completes.
template <class T>
class future {
 public:
  using promise_type = detail::promise<T>;
  explicit future(std::coroutine_handle<promise_type> h) noexcept : m_h(h) {}
  future(future&& o) noexcept : m_h(std::exchange(o.m_h, {})) {}
  future& operator=(future&& o) noexcept {
    if (this != &o) {
      reset();
      m_h = std::exchange(o.m_h, {});
    }
    return *this;
  }
  ~future() { reset(); }

  /// The child's value (by reference; move it out if you like). Rethrows its exception, every
  /// time it is called, even after the parent caught it at sync.
  decltype(auto) get() const {
    if constexpr (std::is_void_v<T>) {
      m_h.promise().result();
    } else {
      return m_h.promise().result();
    }
  }
  /// True once the spawning frame has synced since the spawn (so get() is allowed).
  [[nodiscard]] bool ready() const noexcept {
    const detail::frame& c = m_h.promise();
    return c.m_parent->m_sync_epoch != c.m_parent_epoch;
  }

 private:
  void reset() noexcept {
    if (!m_h) return;
    assert(detail::t_worker != nullptr &&
           "a locus::future is destroyed by the task that spawned it, on a locus worker");
    detail::frame& c = m_h.promise();
    const detail::frame& p = *c.m_parent;
    // The child has certainly completed if the parent synced since the spawn, or if it was
    // spawned work-first and the parent's continuation was never taken since (every taking
    // adds to m_expected; a sync would have changed the epoch): then the parent can only be
    // running because the child popped it back at its end. Otherwise the later of this drop
    // and the child's completion frees the frame (frame.hpp, "Orphans").
    if (p.m_sync_epoch != c.m_parent_epoch ||
        (c.m_work_first && p.m_expected == c.m_parent_expected) ||
        c.m_orphan.exchange(detail::k_orphaned, std::memory_order_acq_rel) == detail::k_completed) {
      std::exchange(m_h, {}).destroy();
    } else {
      m_h = {};  // the child frees itself when it completes
    }
  }
  std::coroutine_handle<promise_type> m_h;
};

namespace detail {

template <class T>
task<T> promise<T>::get_return_object() noexcept {
  static_assert(alignof(promise<T>) <= k_promise_offset,
                "locus::task<T>: a T aligned to more than 16 bytes is not supported (frame.hpp, "
                "k_promise_offset)");
  auto h = std::coroutine_handle<promise<T>>::from_promise(*this);
  assert(h.address() == address() && "frame::k_promise_offset matches this compiler's frames");
  return task<T>{h};
}
template <class T>
task<T&> promise<T&>::get_return_object() noexcept {
  static_assert(alignof(promise<T&>) <= k_promise_offset,
                "locus::task<T>: a T aligned to more than 16 bytes is not supported (frame.hpp, "
                "k_promise_offset)");
  auto h = std::coroutine_handle<promise<T&>>::from_promise(*this);
  assert(h.address() == address() && "frame::k_promise_offset matches this compiler's frames");
  return task<T&>{h};
}
inline task<void> promise<void>::get_return_object() noexcept {
  static_assert(alignof(promise<void>) <= k_promise_offset,
                "locus::task<T>: a T aligned to more than 16 bytes is not supported (frame.hpp, "
                "k_promise_offset)");
  auto h = std::coroutine_handle<promise<void>>::from_promise(*this);
  assert(h.address() == address() && "frame::k_promise_offset matches this compiler's frames");
  return task<void>{h};
}

inline void check_place(std::uint32_t place) {
  if (t_worker == nullptr) throw_not_on_worker("spawn");
  if (place >= num_places_of(*t_worker)) throw_bad_place(place);
}

/// co_await spawn(t, options): the child and the options given.
template <class T>
struct spawn_awaiter {
  task<T> child;
  spawn_options opts;
  [[nodiscard]] bool await_ready() const {
    if (opts.has_place) [[unlikely]]
      check_place(opts.place);
    return false;
  }
  template <class P>
  LOCUS_ALWAYS_INLINE std::coroutine_handle<> await_suspend(
      std::coroutine_handle<P> parent) noexcept {
    frame& p = parent.promise();
    p.note_future_spawn(child.promise());
    return spawn_start<false>(p, child.promise(), opts.policy, opts.place);
  }
  future<T> await_resume() noexcept { return future<T>{child.release()}; }
};

/// co_await spawn(t): no options, so the policy and the place are constants the spawn path
/// folds (no option bytes stored in the frame, no place check, no policy override test).
template <class T>
struct plain_spawn_awaiter {
  task<T> child;
  [[nodiscard]] bool await_ready() const noexcept { return false; }
  template <class P>
  LOCUS_ALWAYS_INLINE std::coroutine_handle<> await_suspend(
      std::coroutine_handle<P> parent) noexcept {
    frame& p = parent.promise();
    p.note_future_spawn(child.promise());
    return spawn_start<false>(p, child.promise(), k_policy_default, k_any_place);
  }
  future<T> await_resume() noexcept { return future<T>{child.release()}; }
};

/// spawn(&out, t) and spawn(discard, t) without options: the policy and the place fold as in
/// plain_spawn_awaiter.
struct no_options {};

/// spawn(discard, t): the awaiter holds no out pointer (an empty member).
struct no_out {};

/// What co_await makes of spawn(&out, t) / spawn(discard, t) without options
/// (in_place_spawn_awaiter::locus_operation, through promise_base::await_transform): the same
/// spawn, holding the child as a raw handle, and nothing else: locus_operation has already
/// stored `out` in the child's promise. Nothing between await_transform and await_suspend can
/// throw (await_ready is a constant), and await_suspend starts the child, which owns itself
/// from then on: the operation needs no destructor.
///
/// Why the handle alone: when the operation held {out, child}, gcc 12 built it from the
/// awaiter's {out, child} with one 16-byte load, a few instructions after the child's ramp had
/// stored `child` with an 8-byte store. A load wider than the store it reads cannot be
/// forwarded from the store buffer and waits for the store to reach the cache: on the 16-core
/// device (Sapphire Rapids) a quarter of fib's samples in its coroutine body sat on that load
/// (docs/design/0020, "A stall no instruction count shows"). Each field is now read on its own,
/// at the width it was stored.
template <class T>
struct in_place_spawn_op {
  std::coroutine_handle<promise<T>> child;
  [[nodiscard]] bool await_ready() const noexcept { return false; }
  template <class P>
  LOCUS_ALWAYS_INLINE std::coroutine_handle<> await_suspend(
      std::coroutine_handle<P> parent) noexcept {
    promise<T>& c = child.promise();
    // Relaxed: published with the child (the push's release, or this thread running it).
    c.m_orphan.store(k_orphaned, std::memory_order_relaxed);
    return spawn_start<false>(parent.promise(), c, k_policy_default, k_any_place);
  }
  void await_resume() const noexcept {}
};

/// co_await spawn(&out, t) / spawn(discard, t), with or without options (Opts: spawn_options or
/// no_options). No future: the child assigns its result to *out (discard, Out = no_out: a
/// value stays in the child's frame, unread) and frees its own frame when it completes (it
/// starts k_orphaned: frame.hpp, "Orphans").
template <class T, class Opts, class Out = T*>
struct in_place_spawn_awaiter {
  [[no_unique_address]] Out out;  ///< where the result goes (T*), or no_out
  task<T> child;
  [[no_unique_address]] Opts opts;

  in_place_spawn_awaiter(Out o, task<T>&& t, Opts op) noexcept
      : out(o), child(std::move(t)), opts(op) {}
  /// The child made by `make()` directly in this awaiter, after `out` is stored: spawn(&out,
  /// f, args...) builds its awaiter so, in the spawning frame, and keeps nothing in a register
  /// across the call to f (a value live across a call takes a callee-saved register, which the
  /// spawning coroutine would save on every resumption: docs/design/0016).
  template <class Make>
  requires std::is_invocable_r_v<task<T>, Make&> in_place_spawn_awaiter(T* o, Make&& make, Opts op)
      : out(o), child(make()), opts(op) {}
  [[nodiscard]] bool await_ready() const {
    if constexpr (std::is_same_v<Opts, spawn_options>) {
      if (opts.has_place) [[unlikely]]
        check_place(opts.place);
    }
    return false;
  }
  template <class P>
  LOCUS_ALWAYS_INLINE std::coroutine_handle<> await_suspend(
      std::coroutine_handle<P> parent) noexcept {
    promise<T>& c = child.release().promise();  // the child owns itself from here
    if constexpr (!std::is_same_v<Out, no_out>) c.m_out = out;
    // Relaxed: published with the child (the push's release, or this thread running it).
    c.m_orphan.store(k_orphaned, std::memory_order_relaxed);
    if constexpr (std::is_same_v<Opts, spawn_options>) {
      return spawn_start<false>(parent.promise(), c, opts.policy, opts.place);
    } else {
      return spawn_start<false>(parent.promise(), c, k_policy_default, k_any_place);
    }
  }
  void await_resume() const noexcept {}
  /// Without options: the operation co_await runs (in_place_spawn_op), the child moved into it.
  [[nodiscard]] in_place_spawn_op<T> locus_operation() && noexcept requires
      std::is_same_v<Opts, no_options> {
    auto h = child.release();
    if constexpr (!std::is_same_v<Out, no_out>) h.promise().m_out = out;
    return {h};
  }
};

struct async_awaiter {
  task<void> child;
  spawn_options opts;
  [[nodiscard]] bool await_ready() const {
    if (opts.has_place) [[unlikely]]
      check_place(opts.place);
    return false;
  }
  template <class P>
  std::coroutine_handle<> await_suspend(std::coroutine_handle<P> parent) noexcept {
    // The child frees itself when it completes: give up ownership before publishing it.
    auto h = child.release();
    return spawn_start<true>(parent.promise(), h.promise(), opts.policy, opts.place);
  }
  void await_resume() const noexcept {}
};

/// What sync() returns; promise_base::await_transform makes it a sync_awaiter.
struct [[nodiscard]] sync_request {};

/// co_await locus::sync(): wait for the children spawned by this frame since its last sync.
/// With none outstanding (every child ran work-first and nobody took the continuation) it is
/// decided in await_ready and never suspends.
struct sync_awaiter {
  frame* f;
  [[nodiscard]] bool await_ready() const noexcept { return f->m_expected == 0; }
  bool await_suspend(std::coroutine_handle<>) const noexcept {
    counters::bump(t_worker->stats().syncs_suspended);
    return !join_arrive(*f);  // suspended: the last child resumes us
  }
  void await_resume() const {
    after_join(*f);
    if (f->m_exception.has()) [[unlikely]]
      f->m_exception.rethrow_taken();
  }
};

/// What finish(body) returns; promise_base::await_transform makes it a finish_awaiter, which
/// holds the scope and so cannot move (a pass-through awaitable is moved by gcc).
struct [[nodiscard]] finish_request {
  task<void> body;
};

struct finish_awaiter {
  frame* parent;
  task<void> body;
  finish_scope scope;
  [[nodiscard]] bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<>) noexcept {
    frame& b = body.promise();
    parent->adopt(b, frame_kind::finish_body);
    scope.waiter = parent;
    b.m_finish = &scope;
    return transfer(b.handle());
  }
  void await_resume() {
    body.promise().result();  // the body's own exception first
    if (scope.exception.has()) [[unlikely]]
      scope.exception.rethrow_taken();
  }
};

inline sync_awaiter promise_base::await_transform(sync_request) noexcept {
  return {this};
}
inline finish_awaiter promise_base::await_transform(finish_request&& r) noexcept {
  return {this, std::move(r.body), {}};
}

}  // namespace detail

/// Spawn `t`: it may run in parallel with the rest of this frame until the next sync.
template <class T>
[[nodiscard]] detail::plain_spawn_awaiter<T> spawn(task<T>&& t) noexcept {
  return {std::move(t)};
}
/// Spawn `t` with options (a policy, a place): `spawn(t, at(1) | help_first)`.
template <class T>
[[nodiscard]] detail::spawn_awaiter<T> spawn(task<T>&& t, spawn_options o) noexcept {
  return {std::move(t), o};
}

/// spawn(discard, t): spawn `t` in place and drop its result (any T, void included).
struct discard_t {
  explicit constexpr discard_t() = default;
};
inline constexpr discard_t discard{};

/// Spawn `t` in place: no future; when `t` returns, its value is assigned to `*out` (which must
/// be a live T, assignable, until the next sync). Read `*out` only after the spawning frame's
/// next sync. If `t` throws, `*out` is left as it was (unless `t` had already returned and a
/// child of `t` threw after: then it holds t's value) and the sync rethrows. The fastest form
/// of a spawn: the child's frame holds no result and frees itself when it completes.
template <class T>
requires(!std::is_void_v<T> && !std::is_reference_v<T>)
    [[nodiscard]] detail::in_place_spawn_awaiter<T, detail::no_options> spawn(
        T* out, task<T>&& t) noexcept {
  assert(out != nullptr && "spawn(&out, t): out must point to a T (use discard to drop it)");
  return {out, std::move(t), {}};
}
/// spawn(&out, t) with options (a policy, a place).
template <class T>
requires(!std::is_void_v<T> && !std::is_reference_v<T>)
    [[nodiscard]] detail::in_place_spawn_awaiter<T, spawn_options> spawn(T* out, task<T>&& t,
                                                                         spawn_options o) noexcept {
  assert(out != nullptr && "spawn(&out, t): out must point to a T (use discard to drop it)");
  return {out, std::move(t), o};
}
/// Spawn `t` in place and drop its result: no future (a task<void>'s fastest spawn).
template <class T>
requires(!std::is_reference_v<T>)
    [[nodiscard]] detail::in_place_spawn_awaiter<T, detail::no_options, detail::no_out> spawn(
        discard_t, task<T>&& t) noexcept {
  return {{}, std::move(t), {}};
}
/// spawn(discard, t) with options.
template <class T>
requires(!std::is_reference_v<T>)
    [[nodiscard]] detail::in_place_spawn_awaiter<T, spawn_options, detail::no_out> spawn(
        discard_t, task<T>&& t, spawn_options o) noexcept {
  return {{}, std::move(t), o};
}

/// Wait for every child this frame spawned since its last sync; rethrows the first exception.
[[nodiscard]] inline detail::sync_request sync() noexcept {
  return {};
}

/// Start `t` terminally strict: the innermost enclosing finish (or run) waits for it.
[[nodiscard]] inline detail::async_awaiter async(task<void>&& t, spawn_options o = {}) noexcept {
  return {std::move(t), o};
}

/// Run `body` inline and wait for every async started inside it, transitively (HJ finish).
/// Rethrows the body's exception, else the first exception of an async.
[[nodiscard]] inline detail::finish_request finish(task<void>&& body) noexcept {
  return {std::move(body)};
}

}  // namespace locus
