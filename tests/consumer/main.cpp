// A program outside locus: a small fork/join reduction, checked against the serial answer.
#include <locus/dataflow.hpp>
#include <locus/locus.hpp>
#include <locus/schedule/replay.hpp>

#include <cstdio>

// Sum of i*i for i in [lo, hi), split in halves down to a grain.
locus::task<long> sum_squares(long lo, long hi) {
  if (hi - lo <= 64) {
    long s = 0;
    for (long i = lo; i < hi; ++i) {
      s += i * i;
    }
    co_return s;
  }
  const long mid = lo + (hi - lo) / 2;
  auto left = co_await locus::spawn(sum_squares(lo, mid));
  const long right = co_await sum_squares(mid, hi);
  co_await locus::sync();
  co_return left.get() + right;
}

int main() {
  locus::config cfg;
  cfg.workers = 2;
  locus::runtime rt{cfg};
  const long n = 100000;
  const long got = rt.run(sum_squares(0, n));
  const long want = (n - 1) * n * (2 * n - 1) / 6;
  std::printf("consumer: sum of squares below %ld = %ld (expected %ld) on %u workers\n", n, got,
              want, rt.num_workers());
  // The extension layers from outside the repository: a traced run and a data-driven task.
  const auto [traced, tree] = locus::schedule::run_traced(rt, sum_squares(0, n));
  (void)tree;  // one record per steal: none, or a few
  locus::dataflow::graph g(rt);
  locus::dataflow::event<long> a;
  locus::dataflow::event<long> doubled;
  auto t = g.task(1, [doubled](locus::dataflow::edt_args& in) mutable {
    doubled.satisfy(2 * in.get<long>(0));
  });
  locus::dataflow::add_dependence(a, t, 0);
  a.satisfy(got);
  // An inlet: a slot fed directly with a value, no event object.
  long tripled = 0;
  auto u = g.task(1, [&tripled](locus::dataflow::edt_args& in) { tripled = 3 * in.get<long>(0); });
  u.inlet<long>(0).satisfy(got);
  g.wait();
  std::printf("consumer: traced run = %ld; a task graph doubled it to %ld, an inlet fed %ld\n",
              traced, doubled.get(), tripled);
  return got == want && traced == want && doubled.get() == 2 * want && tripled == 3 * want ? 0 : 1;
}
