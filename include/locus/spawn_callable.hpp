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
