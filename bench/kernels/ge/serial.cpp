// ge, serial: every pivot over all rows below it, in order.
#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome ge_serial(const bench::args& a) {
  return bench::measure(a.size, ge_kernel::setup, ge_kernel::solve_serial, ge_kernel::check_serial);
}
