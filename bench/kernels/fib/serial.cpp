// fib, serial: the same recursion as the parallel versions, as a plain function
// (fib_kernel::serial; a cutoff changes nothing here).
#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome fib_serial(const bench::args& a) {
  return bench::measure(
      a.size, fib_kernel::parse,
      [](const fib_kernel::input& in) { return fib_kernel::serial(in.n); }, fib_kernel::check);
}
