// fib, serial: the same recursion as the parallel versions, as a plain function.
#include "../../kernel.hpp"
#include "common.hpp"

namespace {

// n arrives at run time from the size string, so the compiler cannot fold the recursion;
// noinline keeps gcc from unrolling the recursion into itself, so that every call is a real
// call, as every call is a task in the parallel versions.
[[gnu::noinline]] std::int64_t fib(int n) {
  if (n < 2) return n;
  return fib(n - 1) + fib(n - 2);
}

}  // namespace

bench::outcome fib_serial(const bench::args& a) {
  return bench::measure(
      a.size, fib_kernel::parse_n, [](int n) { return fib(n); }, fib_kernel::check);
}
