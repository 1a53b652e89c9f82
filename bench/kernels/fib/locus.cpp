// fib, locus: the canonical spawn / inline call / sync recursion, no cutoff, spawned in place.
// Sizes "N:edt" and "N:edt-events": the same computation as a graph of data-driven tasks
// (locus/dataflow), to compare the two.
#include <cstdint>
#include <type_traits>
#include <utility>

#include <locus/dataflow.hpp>
#include <locus/locus.hpp>

#include "../../kernel.hpp"
#include "common.hpp"

namespace {

/// `inline`, as the README advises: gcc 12 inlines the ramp at the spawn and the call only then
/// (before 2026-11-27b the kernel's fib was not declared inline: docs/benchmarks.md).
inline locus::task<std::int64_t> fib(int n) {
  if (n < 2) co_return n;
  std::int64_t a = 0;
  co_await locus::spawn(&a, fib, n - 1);  // in place: the fastest spawn (README)
  const std::int64_t b = co_await fib(n - 2);
  co_await locus::sync();
  co_return a + b;
}

/// The same with calls below `cutoff` plain serial calls.
inline locus::task<std::int64_t> fib_cut(int n, int cutoff) {
  if (n < cutoff) co_return fib_kernel::serial(n);
  std::int64_t a = 0;
  co_await locus::spawn(&a, fib_cut, n - 1, cutoff);
  const std::int64_t b = co_await fib_cut(n - 2, cutoff);
  co_await locus::sync();
  co_return a + b;
}

namespace df = locus::dataflow;

/// fib(n) as data-driven tasks: for each n >= 2 an adder task with two slots waits for
/// fib(n-1) and fib(n-2); fib(n-2) becomes a task of its own (the stealable half), fib(n-1) is
/// unfolded by the same task, down its left spine (a loop, like a work-first spawn: the
/// enabling task keeps the deeper work). `Out` is what a result is delivered through: an inlet
/// into the adder's slot (size N:edt), or an event the slot depends on (N:edt-events).
template <class Out>
struct fib_graph {
  df::graph& g;
  int cutoff;  ///< n < cutoff: a plain serial call (2: none)
  void make(int n, Out out) {
    while (n >= cutoff) {
      // Handles move into the bodies: a copy would count a producer up and down.
      df::edt add = g.task(2, [out = std::move(out)](df::edt_args& in) mutable {
        out.satisfy(in.get<std::int64_t>(0) + in.get<std::int64_t>(1));
      });
      auto [x, y] = inputs(add);
      g.task(0, [this, n, y = std::move(y)]() mutable { make(n - 2, std::move(y)); });
      out = std::move(x);
      --n;
    }
    out.satisfy(n < 2 ? n : fib_kernel::serial(n));
  }
  /// What feeds slot i of task t.
  static Out input(const df::edt& t, std::uint32_t i) {
    if constexpr (std::is_same_v<Out, df::inlet<std::int64_t>>) {
      return t.inlet<std::int64_t>(i);
    } else {
      Out e;
      df::add_dependence(e, t, i);
      return e;
    }
  }
  static std::pair<Out, Out> inputs(const df::edt& add) { return {input(add, 0), input(add, 1)}; }
};

template <class Out>
std::int64_t fib_edt(locus::runtime& rt, int n, int cutoff) {
  df::graph g(rt);
  fib_graph<Out> fg{g, cutoff};
  std::int64_t result = -1;
  // The answer's own one-slot task: fib(n) goes into it like any adder's input.
  df::edt last = g.task(1, [&result](df::edt_args& in) { result = in.get<std::int64_t>(0); });
  g.task(0, [&fg, n, r = fib_graph<Out>::input(last, 0)]() mutable { fg.make(n, std::move(r)); });
  g.wait();
  return result;
}

}  // namespace

bench::outcome fib_locus(const bench::args& a) {
  const auto run = [&a](const fib_kernel::input& in) -> std::int64_t {
    switch (fib_kernel::variant_of(a.size)) {
      case fib_kernel::variant::edt:
        return fib_edt<df::inlet<std::int64_t>>(*a.rt, in.n, in.cutoff);
      case fib_kernel::variant::edt_events:
        return fib_edt<df::event<std::int64_t>>(*a.rt, in.n, in.cutoff);
      case fib_kernel::variant::spawn:
        break;
    }
    return a.rt->run(in.cutoff > 2 ? fib_cut(in.n, in.cutoff) : fib(in.n));
  };
  return bench::measure(a.size, fib_kernel::parse, run, fib_kernel::check);
}
