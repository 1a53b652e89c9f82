// Serial fib for the interleaved timing of docs/benchmarks.md 2026-11-26c (hot path): the
// recursion of bench/kernels/fib/serial.cpp without the harness.
#include <chrono>
#include <cstdio>
#include <cstdlib>
[[gnu::noinline]] long fib(int n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}
int main(int argc, char** argv) {
  int n = std::atoi(argv[1]);
  auto t0 = std::chrono::steady_clock::now();
  long r = fib(n);
  auto t1 = std::chrono::steady_clock::now();
  std::printf("%.4f %ld\n", std::chrono::duration<double>(t1 - t0).count(), r);
}
