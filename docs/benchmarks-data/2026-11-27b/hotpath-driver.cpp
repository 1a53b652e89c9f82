// The hot-path instruction driver of docs/benchmarks.md (2026-11-27b): the 2026-11-26 driver with
// a fourth form, "inline", the in-place fib declared `inline` (gcc 12 then inlines the
// coroutine's ramp at its spawn and its call, as it does libfork's fib, a lambda, whose call
// operator is implicitly inline). Built like that one: g++ -std=c++20 -O3 -DNDEBUG -Iinclude
// THIS build/release/liblocus.a -lhwloc -lpthread. Usage: N ROUNDS [future|inplace|inline].
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <locus/locus.hpp>
locus::task<long> fib(int n) {
  if (n < 2) co_return n;
  auto a = co_await locus::spawn(fib(n - 1));
  long b = co_await fib(n - 2);
  co_await locus::sync();
  co_return a.get() + b;
}
locus::task<long> fib_in_place(int n) {
  if (n < 2) co_return n;
  long a = 0;
  co_await locus::spawn(&a, fib_in_place, n - 1);
  long b = co_await fib_in_place(n - 2);
  co_await locus::sync();
  co_return a + b;
}
inline locus::task<long> fib_inline(int n) {
  if (n < 2) co_return n;
  long a = 0;
  co_await locus::spawn(&a, fib_inline, n - 1);
  long b = co_await fib_inline(n - 2);
  co_await locus::sync();
  co_return a + b;
}
locus::task<void> empty() {
  co_return;
}
locus::task<void> fj(int m) {
  for (int i = 0; i < m; ++i)
    co_await locus::spawn(empty());
  co_await locus::sync();
}
locus::task<void> fj_many(int m, int rounds) {
  for (int r = 0; r < rounds; ++r)
    co_await fj(m);
}
int main(int argc, char** argv) {
  const int n = atoi(argv[1]);
  const int rounds = atoi(argv[2]);
  const bool in_place = argc > 3 && std::strcmp(argv[3], "inplace") == 0;
  const bool inl = argc > 3 && std::strcmp(argv[3], "inline") == 0;
  locus::runtime rt{locus::config::from_env()};
  auto t0 = std::chrono::steady_clock::now();
  long r = rt.run(inl ? fib_inline(n) : in_place ? fib_in_place(n) : fib(n));
  auto t1 = std::chrono::steady_clock::now();
  rt.run(fj_many(1024, rounds));
  auto t2 = std::chrono::steady_clock::now();
  if (r != 9227465 && n == 35) return 1;
  std::printf("%.4f %.4f\n", std::chrono::duration<double>(t1 - t0).count(),
              std::chrono::duration<double>(t2 - t1).count());
}
