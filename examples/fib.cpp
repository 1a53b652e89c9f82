// The README's example: fib as a fork/join coroutine on locus.
#include <locus/locus.hpp>

#include <cstdio>

inline locus::task<long> fib(int n) {  // inline: README, "Declare task functions inline"
  if (n < 2) co_return n;
  long a = 0;
  co_await locus::spawn(&a, fib, n - 1);  // stealable; fib(n - 1) is assigned to a
  long b = co_await fib(n - 2);           // a plain call: nothing stealable
  co_await locus::sync();                 // wait for this frame's children: a is set
  co_return a + b;
}

int main() {
  locus::runtime rt{locus::config::from_env()};
  const long r = rt.run(fib(30));
  std::printf("fib(30) = %ld on %u workers\n%s\n", r, rt.num_workers(),
              rt.stats().summary().c_str());
  return r == 832040 ? 0 : 1;
}
