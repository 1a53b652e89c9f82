// locus/detail/promise.hpp — the promise types of locus coroutines and their result storage.
//
// Every co_await in a locus task goes through promise_base::await_transform. The requests the
// API returns (spawn(t), sync(), async(t), finish(b), a task to call) are turned there into
// awaiters that already hold the awaiting frame, so that
//   * a sync with nothing outstanding is decided in await_ready and never suspends (the
//     compiler skips the suspend point's bookkeeping altogether);
//   * no awaiter has to recover the frame from a coroutine handle, and every awaiter is
//     trivially destructible (it holds raw handles; ownership stays with the request or the
//     task temporary, which outlive the co_await expression).
// Anything else (a user's own awaitable) passes through unchanged.
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

// task.hpp: the requests that need the awaiting frame, and their awaiters.
struct sync_request;
struct sync_awaiter;
struct finish_request;
struct finish_awaiter;

struct final_awaiter {
  [[nodiscard]] bool await_ready() const noexcept { return false; }
  template <class P>
  LOCUS_ALWAYS_INLINE std::coroutine_handle<> await_suspend(std::coroutine_handle<P> h) noexcept {
    return on_final(h.promise());
  }
  void await_resume() const noexcept {}
};

struct promise_base : frame {
  static void* operator new(std::size_t n) { return frame_allocate(n); }
  static void operator delete(void* p) noexcept { frame_deallocate(p); }

  std::suspend_always initial_suspend() const noexcept { return {}; }
  final_awaiter final_suspend() const noexcept { return {}; }
  void unhandled_exception() noexcept { m_exception.offer(std::current_exception()); }

  /// co_await sync(): an awaiter that knows this frame (task.hpp).
  sync_awaiter await_transform(sync_request r) noexcept;
  /// co_await finish(body): an awaiter that holds the scope and knows this frame.
  finish_awaiter await_transform(finish_request&& r) noexcept;
  /// An awaitable that offers a locus_operation() (spawn(&out, ...) without options): the
  /// operation, a prvalue that becomes the awaiter itself. gcc 12 copies or moves an awaiter that
  /// await_transform returns by reference into a slot of its own (a task moved, two destructor
  /// tests where one would do: docs/design/0020), which a prvalue avoids.
  template <class A>
  requires requires(A&& a) { static_cast<A&&>(a).locus_operation(); }
  auto await_transform(A&& a) noexcept { return static_cast<A&&>(a).locus_operation(); }
  /// Any other awaitable (spawn, a call, async, finish, a user's own), unchanged.
  template <class A>
  A&& await_transform(A&& a) noexcept {
    return static_cast<A&&>(a);
  }
};

/// Whether a frame of a coroutine with parameters A... and result T may be freed without
/// running its destroy function once it completed with neither an exception nor data
/// (frame::m_plain): nothing in it then has a destructor to run. A... are the types the
/// promise's constructor sees (the parameter copies, as lvalues; a reference parameter shows
/// its referee, which only makes this more conservative).
template <class T, class... A>
inline constexpr bool plain_frame_v = (std::is_trivially_destructible_v<A> && ...) &&
                                      (std::is_void_v<T> || std::is_reference_v<T> ||
                                       std::is_trivially_destructible_v<T>);

/// A task's result was asked for but it has none: it has not completed (a future's get()
/// before the spawning frame's sync) or it was never run. Out of line (src/scheduler.cpp).
[[noreturn]] void throw_no_value();

template <class T>
struct promise final : promise_base {
  static_assert(!std::is_rvalue_reference_v<T>,
                "locus::task<T&&> is not supported: return a value (task<T>) or an lvalue "
                "reference (task<T&>)");
  static_assert(!std::is_array_v<T>, "locus::task<T[N]>: return a std::array instead");

  // Not `= default`: with a T whose default constructor is not trivial (std::string), the
  // anonymous union's member makes a defaulted constructor deleted; this one leaves m_value
  // unconstructed until return_value.
  // Also given the coroutine's parameters (C++20 passes them when a constructor accepts them),
  // to tell whether its frame is plain (plain_frame_v).
  template <class... A>
  explicit promise(A&... /*params*/) noexcept {
    m_plain = plain_frame_v<T, A...>;
    if constexpr (k_assigned) m_out = std::addressof(m_value);
  }
  ~promise() {
    if constexpr (!std::is_trivially_destructible_v<T>) {
      if (m_has_value) m_value.~T();  // never k_assigned: that T is trivially copyable
    }
  }
  task<T> get_return_object() noexcept;

  /// A T that may be assigned to storage no constructor ran on (an implicit-lifetime type, like
  /// `long`): then m_out points at m_value unless a spawn in place points it at the parent's
  /// variable, and return_value assigns through it without a test.
  static constexpr bool k_assigned =
      std::is_trivially_copyable_v<T> && std::is_trivially_default_constructible_v<T>;

  /// A spawn in place (`spawn(&out, t)`) set m_out: the value is assigned to the parent's
  /// variable and nothing is kept here. Otherwise (a future, a call, run) it goes to m_value:
  /// assigned (k_assigned) or constructed.
  template <class U>
  requires std::is_convertible_v<U&&, T>
  void return_value(U&& v) noexcept(
      std::is_nothrow_constructible_v<T, U&&>&& std::is_nothrow_assignable_v<T&, U&&>) {
    if constexpr (k_assigned) {
      assign_out(std::forward<U>(v));  // no flag to set: result() asks done() (no_value_flag)
    } else {
      if (m_out != nullptr) {
        assign_out(std::forward<U>(v));
        return;
      }
      ::new (static_cast<void*>(std::addressof(m_value))) T(std::forward<U>(v));
      m_has_value = true;
    }
  }

  /// The result after completion: the value, or the task's exception rethrown (a copy: asking
  /// twice rethrows twice).
  T& result() & {
    if (m_exception.has()) [[unlikely]]
      m_exception.rethrow();
    if (!has_value()) [[unlikely]]
      throw_no_value();
    return m_value;
  }
  /// result() of a task known to have completed (a call, whose parent resumes only after the
  /// child's final suspend point): without an exception it returned a value (flowing off the
  /// end of a coroutine that returns a value is undefined behaviour), so only the exception is
  /// tested.
  T& completed_result() & {
    if (m_exception.has()) [[unlikely]]
      m_exception.rethrow();
    return m_value;
  }

  union {
    T m_value;
  };
  /// The parent's variable of a spawn in place; else &m_value (k_assigned) or null.
  T* m_out = nullptr;

 private:
  /// Whether the task returned a value, asked after its completion (or by a misuse before it:
  /// future::get() before the spawning frame's sync). A k_assigned T keeps no flag: such a
  /// task that completed without an exception returned a value (flowing off the end of a
  /// coroutine that returns one is undefined behaviour), and completed means suspended at its
  /// final suspend point, which is what done() says. The flag cost a store in every frame's
  /// constructor and another in its co_return (docs/design/0020, "No value flag").
  [[nodiscard]] bool has_value() const noexcept {
    if constexpr (k_assigned) {
      return handle().done();
    } else {
      return m_has_value;
    }
  }

  template <class U>
  void assign_out(U&& v) {
    if constexpr (std::is_assignable_v<T&, U&&>) {
      *m_out = std::forward<U>(v);
    } else {
      *m_out = T(std::forward<U>(v));
    }
  }

 public:
  /// Whether m_value holds a constructed T (not kept for a k_assigned T: has_value()).
  struct no_value_flag {};
  [[no_unique_address]] std::conditional_t<k_assigned, no_value_flag, bool> m_has_value{};
};

/// task<T&>: the task returns a reference to an object that outlives it.
template <class T>
struct promise<T&> final : promise_base {
  template <class... A>
  explicit promise(A&... /*params*/) noexcept {
    m_plain = plain_frame_v<T&, A...>;
  }
  task<T&> get_return_object() noexcept;
  void return_value(T& v) noexcept { m_ptr = std::addressof(v); }
  T& result() const {
    // The exception first: a child can fail after this task returned (its implicit final
    // sync), and then the task has a value and an exception, and the exception wins.
    if (m_exception.has()) [[unlikely]]
      m_exception.rethrow();
    if (m_ptr == nullptr) [[unlikely]]
      throw_no_value();
    return *m_ptr;
  }
  /// See promise<T>::completed_result.
  T& completed_result() const {
    if (m_exception.has()) [[unlikely]]
      m_exception.rethrow();
    return *m_ptr;
  }
  T* m_ptr = nullptr;
};

template <>
struct promise<void> final : promise_base {
  template <class... A>
  explicit promise(A&... /*params*/) noexcept {
    m_plain = plain_frame_v<void, A...>;
  }
  task<void> get_return_object() noexcept;
  void return_void() const noexcept {}
  void result() const {
    if (m_exception.has()) [[unlikely]]
      m_exception.rethrow();
  }
  void completed_result() const { result(); }
};

}  // namespace locus::detail
