// locus-coro-floor: what C++20 coroutines cost before any runtime is added.
//
// fib(n) written as the same coroutine recursion as bench/kernels/fib/locus.cpp, run by the
// least a work-first runtime can do on one thread: frames bump-allocated from a thread-local
// arena, each spawn pushing its parent on a plain array and each completion popping it and
// resuming the parent by symmetric transfer. No atomics, no counters, no stealing, no
// exceptions. Its time over the serial recursion is the floor that the compiler's coroutine
// code sets for any coroutine runtime on this machine: locus's fib at 1 worker can only
// approach it (docs/benchmarks.md, "The coroutine floor").
//
//   locus-coro-floor [n=35] [reps=7]   prints the medians and the ratio
#include <algorithm>
#include <chrono>
#include <coroutine>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

namespace {

struct frame_link {
  frame_link* parent = nullptr;
  void* handle = nullptr;
};

constinit thread_local char* t_top = nullptr;               // bump arena, freed LIFO
constinit thread_local std::uintptr_t* t_bottom = nullptr;  // the "deque": pushed parents

template <class T>
struct task;

struct final_awaiter {
  bool await_ready() const noexcept { return false; }
  template <class P>
  std::coroutine_handle<> await_suspend(std::coroutine_handle<P> h) const noexcept {
    frame_link& f = h.promise();
    if (f.parent == nullptr) return std::noop_coroutine();
    --t_bottom;  // pop the parent the spawn pushed, and resume it
    return std::coroutine_handle<>::from_address(f.parent->handle);
  }
  void await_resume() const noexcept {}
};

template <class T>
struct promise : frame_link {
  static void* operator new(std::size_t n) {
    char* p = t_top;
    t_top += (n + 15) & ~std::size_t{15};
    return p;
  }
  static void operator delete(void* p) noexcept { t_top = static_cast<char*>(p); }
  task<T> get_return_object() noexcept;
  std::suspend_always initial_suspend() const noexcept { return {}; }
  final_awaiter final_suspend() const noexcept { return {}; }
  void return_value(T v) noexcept { value = v; }
  void unhandled_exception() const noexcept { std::terminate(); }
  T value{};
};

template <class T>
struct task {
  using promise_type = promise<T>;
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
    std::coroutine_handle<> await_suspend(std::coroutine_handle<P> parent) const noexcept {
      h.promise().parent = &parent.promise();
      *t_bottom++ = reinterpret_cast<std::uintptr_t>(&parent.promise());  // the continuation
      return h;
    }
    T await_resume() const noexcept { return h.promise().value; }
  };
  awaiter operator co_await() && noexcept { return {h}; }
};

template <class T>
task<T> promise<T>::get_return_object() noexcept {
  auto h = std::coroutine_handle<promise<T>>::from_promise(*this);
  handle = h.address();
  return task<T>{h};
}

task<std::int64_t> fib(int n) {
  if (n < 2) co_return n;
  const std::int64_t a = co_await fib(n - 1);  // work-first: the parent is pushed
  const std::int64_t b = co_await fib(n - 2);
  co_return a + b;
}

// As bench/kernels/fib/serial.cpp: every call a real call.
[[gnu::noinline]] std::int64_t serial_fib(int n) {
  if (n < 2) return n;
  return serial_fib(n - 1) + serial_fib(n - 2);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 35;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 7;
  if (n < 2 || n > 45 || reps < 1) {
    std::fprintf(stderr, "usage: locus-coro-floor [n in 2..45] [reps >= 1]\n");
    return 2;
  }
  std::vector<char> arena(std::size_t{1} << 20);  // fib(45) nests 45 frames
  std::vector<std::uintptr_t> stack(64);
  std::vector<double> serial, coro;
  for (int r = 0; r < reps; ++r) {
    using clock = std::chrono::steady_clock;
    const auto t0 = clock::now();
    std::int64_t s = serial_fib(n);
    asm volatile("" : "+r"(s)::"memory");  // keep the call between the clock reads
    const auto t1 = clock::now();
    t_top = arena.data();
    t_bottom = stack.data();
    task<std::int64_t> root = fib(n);
    root.h.resume();  // runs to completion: the root has no parent
    const std::int64_t c = root.h.promise().value;
    const auto t2 = clock::now();
    if (c != s) {
      std::fprintf(stderr, "coro-floor: fib(%d) = %lld, serial %lld\n", n,
                   static_cast<long long>(c), static_cast<long long>(s));
      return 1;
    }
    serial.push_back(std::chrono::duration<double>(t1 - t0).count());
    coro.push_back(std::chrono::duration<double>(t2 - t1).count());
  }
  const double ms = median(serial), mc = median(coro);
  std::printf("fib(%d), %d reps, medians: serial %.4f s, bare coroutines %.4f s, ratio %.1fx\n", n,
              reps, ms, mc, mc / ms);
  return 0;
}
