// The coroutine floor (bench/floor/coro_floor.cpp) in two forms, to size one idea for issue 20:
//   transfer: as the floor and as locus do it: a spawn suspends the parent and transfers to the
//             child; the child's completion pops the parent and transfers back to it, through the
//             parent's resume function and gcc's resume-point dispatch;
//   nested:   the spawn's await_suspend resumes the child by a call, and when the child returns
//             (completed: no stealing here) pops the parent and returns false, so the parent
//             continues where it is, with no resumption and no dispatch.
// Single thread, no atomics, no stealing: what each form costs the compiler's coroutine code.
// Usage: nested-floor [n=32] [reps=7] [both|t|n]
#include <algorithm>
#include <chrono>
#include <coroutine>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

namespace {

struct frame_link {
  frame_link* parent = nullptr;
  void* handle = nullptr;
};

constinit thread_local char* t_top = nullptr;
constinit thread_local std::uintptr_t* t_bottom = nullptr;

template <class T, bool Nested>
struct task;

template <bool Nested>
struct final_awaiter {
  bool await_ready() const noexcept { return false; }
  template <class P>
  std::coroutine_handle<> await_suspend(std::coroutine_handle<P> h) const noexcept {
    frame_link& f = h.promise();
    if (f.parent == nullptr) return std::noop_coroutine();
    if constexpr (Nested) {
      return std::noop_coroutine();  // back into the parent's await_suspend, which pops
    } else {
      --t_bottom;
      return std::coroutine_handle<>::from_address(f.parent->handle);
    }
  }
  void await_resume() const noexcept {}
};

template <class T, bool Nested>
struct promise : frame_link {
  static void* operator new(std::size_t n) {
    char* p = t_top;
    t_top += (n + 15) & ~std::size_t{15};
    return p;
  }
  static void operator delete(void* p) noexcept { t_top = static_cast<char*>(p); }
  task<T, Nested> get_return_object() noexcept;
  std::suspend_always initial_suspend() const noexcept { return {}; }
  final_awaiter<Nested> final_suspend() const noexcept { return {}; }
  void return_value(T v) noexcept { value = v; }
  void unhandled_exception() const noexcept { std::terminate(); }
  T value{};
};

template <class T, bool Nested>
struct task {
  using promise_type = promise<T, Nested>;
  std::coroutine_handle<promise_type> h;
  task(task&& o) noexcept : h(o.h) { o.h = {}; }
  explicit task(std::coroutine_handle<promise_type> x) noexcept : h(x) {}
  ~task() {
    if (h) h.destroy();
  }
  struct awaiter {
    std::coroutine_handle<promise_type> h;
    bool await_ready() const noexcept { return false; }
    template <class P>
    auto await_suspend(std::coroutine_handle<P> parent) const noexcept {
      h.promise().parent = &parent.promise();
      *t_bottom++ = reinterpret_cast<std::uintptr_t>(&parent.promise());
      if constexpr (Nested) {
        h.resume();    // the child runs to its final suspend point on this C stack
        --t_bottom;    // pop the parent back: nobody steals here
        return false;  // the parent continues without a resumption
      } else {
        return std::coroutine_handle<>(h);
      }
    }
    T await_resume() const noexcept { return h.promise().value; }
  };
  awaiter operator co_await() && noexcept { return {h}; }
};

template <class T, bool Nested>
task<T, Nested> promise<T, Nested>::get_return_object() noexcept {
  auto h = std::coroutine_handle<promise<T, Nested>>::from_promise(*this);
  handle = h.address();
  return task<T, Nested>{h};
}

template <bool Nested>
task<std::int64_t, Nested> fib(int n) {
  if (n < 2) co_return n;
  const std::int64_t a = co_await fib<Nested>(n - 1);
  const std::int64_t b = co_await fib<Nested>(n - 2);
  co_return a + b;
}

template <bool Nested>
double run(int n, std::int64_t& out) {
  static std::vector<char> arena(std::size_t{1} << 20);
  static std::vector<std::uintptr_t> stack(64);
  t_top = arena.data();
  t_bottom = stack.data();
  const auto t0 = std::chrono::steady_clock::now();
  task<std::int64_t, Nested> root = fib<Nested>(n);
  root.h.resume();
  out = root.h.promise().value;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 32;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 7;
  const char* which = argc > 3 ? argv[3] : "both";
  std::vector<double> t, m;
  std::int64_t a = 0, b = 0;
  for (int r = 0; r < reps; ++r) {
    if (which[0] != 'n') t.push_back(run<false>(n, a));
    if (which[0] != 't') m.push_back(run<true>(n, b));
  }
  auto med = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
  };
  std::printf("fib(%d) transfer %.4f s (%lld), nested %.4f s (%lld)\n", n, med(t), (long long)a,
              med(m), (long long)b);
}
