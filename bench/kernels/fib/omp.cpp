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

}  // namespace

bench::outcome fib_omp(const bench::args& a) {
  const auto body = [](int n) { return bench::omp_single([n] { return fib(n); }); };
  return bench::measure(a.size, fib_kernel::parse_n, body, fib_kernel::check);
}
