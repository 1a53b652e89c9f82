// fib, locus: the canonical spawn / inline call / sync recursion, no cutoff. Size "N:edt":
// the same computation as a graph of data-driven tasks (locus/dataflow), to compare the two.
#include <locus/dataflow.hpp>
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

namespace df = locus::dataflow;

/// fib(n) as data-driven tasks: for each n >= 2 an adder task with two slots waits for the
/// events of fib(n-1) and fib(n-2); fib(n-2) becomes a task of its own (the stealable half),
/// fib(n-1) is unfolded by the same task, down its left spine (a loop, like a work-first
/// spawn: the enabling task keeps the deeper work).
struct fib_graph {
  df::graph& g;
  void make(int n, df::event<std::int64_t> out) {
    while (n >= 2) {
      df::event<std::int64_t> x, y;
      // Handles move into the bodies: a copy would count a producer up and down.
      df::edt add = g.task(2, [out = std::move(out)](df::edt_args& in) mutable {
        out.satisfy(in.get<std::int64_t>(0) + in.get<std::int64_t>(1));
      });
      df::add_dependence(x, add, 0);
      df::add_dependence(y, add, 1);
      g.task(0, [this, n, y = std::move(y)]() mutable { make(n - 2, std::move(y)); });
      out = std::move(x);
      --n;
    }
    out.satisfy(n);
  }
};

std::int64_t fib_edt(locus::runtime& rt, int n) {
  df::graph g(rt);
  fib_graph fg{g};
  df::event<std::int64_t> result;
  df::edt root = g.task(0, [&fg, n, result] { fg.make(n, result); });
  g.wait();
  return result.get();
}

}  // namespace

bench::outcome fib_locus(const bench::args& a) {
  if (fib_kernel::wants_edt(a.size)) {
    return bench::measure(
        a.size, fib_kernel::parse_n, [&a](int n) { return fib_edt(*a.rt, n); }, fib_kernel::check);
  }
  return bench::measure(
      a.size, fib_kernel::parse_n, [&a](int n) { return a.rt->run(fib(n)); }, fib_kernel::check);
}
