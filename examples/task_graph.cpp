// A task graph: a diamond of data-driven tasks, and a coroutine that waits on an event.
#include <locus/dataflow.hpp>
#include <locus/locus.hpp>

#include <cstdio>

namespace df = locus::dataflow;

int main() {
  locus::runtime rt{locus::config::from_env()};
  df::graph g(rt);
  df::event<int> a, b, c;
  auto left = g.task(1, [b](df::edt_args& in) mutable { b.satisfy(in.get<int>(0) + 1); });
  auto right = g.task(1, [c](df::edt_args& in) mutable { c.satisfy(in.get<int>(0) * 2); });
  int sum = 0;
  auto join = g.task(2, [&sum](df::edt_args& in) { sum = in.get<int>(0) + in.get<int>(1); });
  df::add_dependence(a, left, 0);
  df::add_dependence(a, right, 0);
  df::add_dependence(b, join, 0);
  df::add_dependence(c, join, 1);
  a.satisfy(20);  // left and right become ready; join when both have run
  g.wait();
  // Fork/join code waits on events too: co_await suspends the task, not the worker.
  const int twice =
      rt.run([](df::event<int> e) -> locus::task<int> { co_return 2 * co_await e; }(c));
  std::printf("sum = %d, twice = %d\n", sum, twice);
  return sum == 61 && twice == 80 ? 0 : 1;
}
