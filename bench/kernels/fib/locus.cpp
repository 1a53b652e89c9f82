// fib, locus: the canonical spawn / inline call / sync recursion, no cutoff.
#include <locus/locus.hpp>

#include "../../kernel.hpp"
#include "common.hpp"

namespace {

locus::task<std::int64_t> fib(int n) {
  if (n < 2) co_return n;
  auto a = co_await locus::spawn(fib(n - 1));
  const std::int64_t b = co_await fib(n - 2);
  co_await locus::sync();
  co_return a.get() + b;
}

}  // namespace

bench::outcome fib_locus(const bench::args& a) {
  const int n = fib_kernel::parse_n(a.size);
  bench::outcome out;
  const bench::stopwatch clock;
  const std::int64_t r = a.rt->run(fib(n));
  out.seconds = clock.seconds();
  fib_kernel::check(out, n, r);
  return out;
}
