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
  return bench::measure(
      a.size, fib_kernel::parse_n, [&a](int n) { return a.rt->run(fib(n)); }, fib_kernel::check);
}
