// fib, oneTBB: one task_group per call; the first child is spawned, the second runs inline.
#include <tbb/task_group.h>

#include "../../kernel.hpp"
#include "common.hpp"

namespace {

std::int64_t fib(int n) {
  if (n < 2) return n;
  std::int64_t a = 0;
  tbb::task_group g;
  g.run([&a, n] { a = fib(n - 1); });
  const std::int64_t b = fib(n - 2);
  g.wait();
  return a + b;
}

}  // namespace

bench::outcome fib_tbb(const bench::args& a) {
  const int n = fib_kernel::parse_n(a.size);
  bench::outcome out;
  const bench::stopwatch clock;
  const std::int64_t r = fib(n);
  out.seconds = clock.seconds();
  fib_kernel::check(out, n, r);
  return out;
}
