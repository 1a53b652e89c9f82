// fib, OpenMP: one explicit task per call (first child), the second child inline, taskwait.
#include <omp.h>

#include "../../kernel.hpp"
#include "../omp_single.hpp"
#include "common.hpp"

namespace {

std::int64_t fib(int n) {
  if (n < 2) return n;
  std::int64_t a = 0;
#pragma omp task shared(a) firstprivate(n)
  a = fib(n - 1);
  const std::int64_t b = fib(n - 2);
#pragma omp taskwait
  return a + b;
}

/// The same with calls below `cutoff` serial.
std::int64_t fib_cut(int n, int cutoff) {
  if (n < cutoff) return fib_kernel::serial(n);
  std::int64_t a = 0;
#pragma omp task shared(a) firstprivate(n, cutoff)
  a = fib_cut(n - 1, cutoff);
  const std::int64_t b = fib_cut(n - 2, cutoff);
#pragma omp taskwait
  return a + b;
}

}  // namespace

bench::outcome fib_omp(const bench::args& a) {
  const auto body = [](const fib_kernel::input& in) {
    return bench::omp_single([in] { return in.cutoff > 2 ? fib_cut(in.n, in.cutoff) : fib(in.n); });
  };
  return bench::measure(a.size, fib_kernel::parse, body, fib_kernel::check);
}
