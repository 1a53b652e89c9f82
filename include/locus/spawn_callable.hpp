// locus/spawn_callable.hpp — spawn, async or call a callable that returns a task, safely.
//
// A coroutine lambda keeps only `this`, not its captures: in
//   co_await locus::spawn([s]() -> locus::task<int> { co_return s.size(); }());  // WRONG
// the closure (and `s`) is a temporary destroyed at the end of the full expression, while the
// child may run later. These overloads move the callable and its arguments into the frame of a
// small wrapper coroutine, so they live exactly as long as the child:
//   auto body = [s]() -> locus::task<int> { co_return s.size(); };
//   co_await locus::spawn(std::move(body));
//   co_await locus::spawn(locus::help_first, [](std::string t) -> locus::task<int> { ... }, s);
// Arguments are decay-copied (moved from rvalues), like std::thread: pass std::ref(x) to pass
// a reference, and then x must outlive the child. Options come first, so spawn(f, help_first)
// does not compile rather than calling f(help_first).
//
// `body` is named first because GCC 12 destroys a closure with non-trivially-destructible
// captures twice when its lambda-expression is written inside a co_await expression (a
// compiler bug that no library can work around); a captureless lambda may be written inline.
#pragma once

#include <cassert>
#include <concepts>
#include <functional>
#include <type_traits>
#include <utility>

#include "locus/task.hpp"

namespace locus {

namespace detail {

template <class T>
struct task_value {};  ///< no `type`: T is not a locus::task
template <class T>
struct task_value<task<T>> {
  using type = T;
};
template <class T>
concept is_task = requires {
  typename task_value<T>::type;
};

/// None of A... is spawn_options: an option after the callable would be passed to it.
template <class... A>
concept no_spawn_options = (!std::same_as<std::decay_t<A>, spawn_options> && ...);

/// The frame owns `f` and `a...` (coroutine parameters are moved into the frame), so a
/// coroutine `f` may refer to its captures and its arguments for as long as it runs.
template <class R, class F, class... A>
task<R> invoke_in_frame(F f, A... a) {
  co_return co_await std::invoke(std::move(f), std::move(a)...);
}

}  // namespace detail

/// F, called as an rvalue with decay-copied arguments A... (rvalues), returns a locus::task<T>.
template <class F, class... A>
concept task_invocable = std::invocable<std::decay_t<F>, std::decay_t<A>...> &&
    detail::is_task<std::invoke_result_t<std::decay_t<F>, std::decay_t<A>...>>;

/// The T of the task<T> that F returns when called with A...
template <class F, class... A>
requires task_invocable<F, A...>
using task_result_t =
    typename detail::task_value<std::invoke_result_t<std::decay_t<F>, std::decay_t<A>...>>::type;

/// A task that owns `f` and `args` and, when it runs, awaits f(args...). Safe to keep, move,
/// spawn or run(): unlike the task a coroutine lambda returns, it does not outlive the lambda.
template <class F, class... A>
requires task_invocable<F, A...>
[[nodiscard]] task<task_result_t<F, A...>> call(F&& f, A&&... args) {
  return detail::invoke_in_frame<task_result_t<F, A...>, std::decay_t<F>, std::decay_t<A>...>(
      std::forward<F>(f), std::forward<A>(args)...);
}

/// Spawn f(args...) with the runtime's policy; f and args live in the child's frame.
/// spawn_options are not accepted among args: write spawn(options, f, args...).
template <class F, class... A>
requires task_invocable<F, A...> && detail::no_spawn_options<A...>
[[nodiscard]] auto spawn(F&& f, A&&... args) {
  return spawn(call(std::forward<F>(f), std::forward<A>(args)...));
}

/// Spawn f(args...) with options, e.g. spawn(help_first | at(1), f, x).
template <class F, class... A>
requires task_invocable<F, A...>
[[nodiscard]] auto spawn(spawn_options o, F&& f, A&&... args) {
  return spawn(call(std::forward<F>(f), std::forward<A>(args)...), o);
}

namespace detail {

/// A plain function whose parameters are all values: a coroutine copies (moves) such arguments
/// into its own frame, so f(args...) is as safe as call(f, args...) and needs no wrapper frame.
template <class F>
struct by_value_function : std::false_type {};
template <class R, class... P>
struct by_value_function<R (*)(P...)> : std::bool_constant<(!std::is_reference_v<P> && ...)> {};
template <class R, class... P>
struct by_value_function<R (*)(P...) noexcept>
    : std::bool_constant<(!std::is_reference_v<P> && ...)> {};

/// The child task of spawn(&out, f, args...): f(args...) itself when f is a by-value function
/// (the fast form: one frame), else call(f, args...) (a wrapper frame owns f and the copies).
template <class F, class... A>
[[nodiscard]] auto in_place_child(F&& f, A&&... args) {
  if constexpr (by_value_function<std::decay_t<F>>::value) {
    return std::invoke(std::forward<F>(f), std::forward<A>(args)...);
  } else {
    return call(std::forward<F>(f), std::forward<A>(args)...);
  }
}

}  // namespace detail

/// Spawn f(args...) in place: no future; its result is assigned to *out (see spawn(&out, t)).
/// With a plain function taking its parameters by value (`spawn(&a, fib, n - 1)`) the child is
/// f(args...) itself; with any other callable, or reference parameters, f and decay-copies of
/// args live in a wrapper frame, as for spawn(f, args...).
template <class T, class F, class... A>
requires task_invocable<F, A...> && std::same_as<task_result_t<F, A...>, T> &&
    detail::no_spawn_options<A...>
[[nodiscard]] auto spawn(T* out, F&& f, A&&... args) {
  assert(out != nullptr && "spawn(&out, f, args...): out must point to a T");
  return detail::in_place_spawn_awaiter<T, detail::no_options>(
      out, [&] { return detail::in_place_child(std::forward<F>(f), std::forward<A>(args)...); },
      {});
}

/// spawn(discard, f, args...): f(args...) spawned in place, its result dropped.
template <class F, class... A>
requires task_invocable<F, A...> && detail::no_spawn_options<A...>
[[nodiscard]] auto spawn(discard_t d, F&& f, A&&... args) {
  return spawn(d, detail::in_place_child(std::forward<F>(f), std::forward<A>(args)...));
}

/// async f(args...) (terminally strict, see async(task<void>&&)); f must return task<void>.
template <class F, class... A>
requires task_invocable<F, A...> && std::is_void_v<task_result_t<F, A...>> &&
    detail::no_spawn_options<A...>
[[nodiscard]] auto async(F&& f, A&&... args) {
  return async(call(std::forward<F>(f), std::forward<A>(args)...), spawn_options{});
}

/// async f(args...) with options, e.g. async(at(0), f, x).
template <class F, class... A>
requires task_invocable<F, A...> && std::is_void_v<task_result_t<F, A...>>
[[nodiscard]] auto async(spawn_options o, F&& f, A&&... args) {
  return async(call(std::forward<F>(f), std::forward<A>(args)...), o);
}

}  // namespace locus
