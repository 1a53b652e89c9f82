// locus/algorithm/join.hpp — run two callables in parallel: co_await locus::join(f, g).
#pragma once

#include <concepts>
#include <type_traits>
#include <utility>

#include "locus/task.hpp"

namespace locus {

/// A callable join() accepts: called with no arguments, it returns void or task<void>.
template <class F>
concept join_callable = std::invocable<F&> &&(std::is_void_v<std::invoke_result_t<F&>> ||
                                              std::same_as<std::invoke_result_t<F&>, task<void>>);

namespace detail {
/// Calls `f()`; awaits the result if it is a task<void>.
template <class F>
task<void> invoke_as_task(F* f) {
  if constexpr (std::is_same_v<std::invoke_result_t<F&>, task<void>>) {
    co_await (*f)();
  } else {
    (*f)();
  }
}
}  // namespace detail

/// Runs f and g in parallel (f spawned, g on this worker) and returns when both are done.
/// Each may return void or task<void> (a task<T> with a value is refused: it would be dropped
/// unrun). f and g are moved into join's frame, so their captures live until both are done.
/// Rethrows the first exception after both finished.
template <class F, class G>
requires join_callable<F> && join_callable<G> task<void> join(F f, G g) {
  co_await spawn(detail::invoke_as_task(&f));
  co_await detail::invoke_as_task(&g);
  co_await sync();
}

}  // namespace locus
