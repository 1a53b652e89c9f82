// fib(n) as data-driven tasks with inlets, one worker (the shape of locus-bench's fib N:edt),
// for callgrind and for timing the same source against two builds of the library:
//   g++ -O3 -std=c++20 -I<tree>/include -I<tree>/build/release/include edt_fib_driver.cpp \
//       -o d <tree>/build/release/liblocus.a -lhwloc -lpthread
//   valgrind --tool=callgrind ./d 20    (and 18: the difference per task)
#include <cstdio>
#include <cstdlib>
#include <locus/dataflow.hpp>
#include <locus/locus.hpp>
namespace df = locus::dataflow;
struct fg {
  df::graph& g;
  void make(int n, df::inlet<long> out) {
    while (n >= 2) {
      df::edt add = g.task(2, [out = std::move(out)](df::edt_args& in) mutable {
        out.satisfy(in.get<long>(0) + in.get<long>(1));
      });
      auto x = add.inlet<long>(0);
      auto y = add.inlet<long>(1);
      g.task(0, [this, n, y = std::move(y)]() mutable { make(n - 2, std::move(y)); });
      out = std::move(x);
      --n;
    }
    out.satisfy(n);
  }
};
int main(int argc, char** argv) {
  const int n = std::atoi(argv[1]);
  locus::config c;
  c.workers = 1;
  locus::runtime rt{c};
  df::graph g(rt);
  fg f{g};
  long result = -1;
  df::edt last = g.task(1, [&result](df::edt_args& in) { result = in.get<long>(0); });
  auto in = last.inlet<long>(0);
  g.task(0, [&f, n, in = std::move(in)]() mutable { f.make(n, std::move(in)); });
  g.wait();
  std::printf("%ld\n", result);
}
