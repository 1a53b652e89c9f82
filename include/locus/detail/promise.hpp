// locus/detail/promise.hpp — the promise types of locus coroutines and their result storage.
#pragma once

#include <coroutine>
#include <exception>
#include <new>
#include <type_traits>
#include <utility>

#include "locus/detail/frame.hpp"
#include "locus/detail/scheduler.hpp"
#include "locus/detail/worker.hpp"

namespace locus {
template <class T>
class task;
}  // namespace locus

namespace locus::detail {

struct final_awaiter {
  [[nodiscard]] bool await_ready() const noexcept { return false; }
  template <class P>
  std::coroutine_handle<> await_suspend(std::coroutine_handle<P> h) noexcept {
    return on_final(h.promise());
  }
  void await_resume() const noexcept {}
};

/// co_await locus::sync(): wait for the children spawned by this frame since its last sync.
/// The frame is found in await_suspend; with nothing outstanding it does not suspend.
struct sync_awaiter {
  frame* f = nullptr;
  [[nodiscard]] bool await_ready() const noexcept { return false; }
  template <class P>
  bool await_suspend(std::coroutine_handle<P> self) noexcept {
    f = &self.promise();
    if (f->m_expected == 0) return false;
    counters::bump(t_worker->stats().syncs_suspended);
    return !join_arrive(*f);  // suspended: the last child resumes us
  }
  void await_resume() const {
    after_join(*f);
    if (f->m_exception.has()) [[unlikely]]
      std::rethrow_exception(f->m_exception.take());
  }
};

struct promise_base : frame {
  static void* operator new(std::size_t n) { return frame_allocate(n); }
  static void operator delete(void* p) noexcept { frame_deallocate(p); }

  std::suspend_always initial_suspend() const noexcept { return {}; }
  final_awaiter final_suspend() const noexcept { return {}; }
  void unhandled_exception() noexcept { m_exception.offer(std::current_exception()); }
};

/// A task's result was asked for but it has none: it has not completed (a future's get()
/// before the spawning frame's sync) or it was never run. Out of line (src/scheduler.cpp).
[[noreturn]] void throw_no_value();

template <class T>
struct promise final : promise_base {
  static_assert(!std::is_rvalue_reference_v<T>,
                "locus::task<T&&> is not supported: return a value (task<T>) or an lvalue "
                "reference (task<T&>)");
  static_assert(!std::is_array_v<T>, "locus::task<T[N]>: return a std::array instead");

  promise() noexcept {}
  ~promise() {
    if (m_has_value) m_value.~T();
  }
  task<T> get_return_object() noexcept;

  template <class U>
  requires std::is_convertible_v<U&&, T>
  void return_value(U&& v) noexcept(std::is_nothrow_constructible_v<T, U&&>) {
    ::new (static_cast<void*>(std::addressof(m_value))) T(std::forward<U>(v));
    m_has_value = true;
  }

  /// The result after completion: the value, or the task's exception rethrown (a copy: asking
  /// twice rethrows twice).
  T& result() & {
    if (m_exception.has()) [[unlikely]]
      std::rethrow_exception(m_exception.get());
    if (!m_has_value) [[unlikely]]
      throw_no_value();
    return m_value;
  }

  union {
    T m_value;
  };
  bool m_has_value = false;
};

/// task<T&>: the task returns a reference to an object that outlives it.
template <class T>
struct promise<T&> final : promise_base {
  task<T&> get_return_object() noexcept;
  void return_value(T& v) noexcept { m_ptr = std::addressof(v); }
  T& result() const {
    if (m_exception.has()) [[unlikely]]
      std::rethrow_exception(m_exception.get());
    if (m_ptr == nullptr) [[unlikely]]
      throw_no_value();
    return *m_ptr;
  }
  T* m_ptr = nullptr;
};

template <>
struct promise<void> final : promise_base {
  task<void> get_return_object() noexcept;
  void return_void() const noexcept {}
  void result() const {
    if (m_exception.has()) [[unlikely]]
      std::rethrow_exception(m_exception.get());
  }
};

}  // namespace locus::detail
