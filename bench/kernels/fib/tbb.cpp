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

/// The same with calls below `cutoff` serial.
std::int64_t fib_cut(int n, int cutoff) {
  if (n < cutoff) return fib_kernel::serial(n);
  std::int64_t a = 0;
  tbb::task_group g;
  g.run([&a, n, cutoff] { a = fib_cut(n - 1, cutoff); });
  const std::int64_t b = fib_cut(n - 2, cutoff);
  g.wait();
  return a + b;
}

}  // namespace

bench::outcome fib_tbb(const bench::args& a) {
  return bench::measure(
      a.size, fib_kernel::parse,
      [](const fib_kernel::input& in) {
        return in.cutoff > 2 ? fib_cut(in.n, in.cutoff) : fib(in.n);
      },
      fib_kernel::check);
}
