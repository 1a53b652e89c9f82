// floyd, serial: for each k, copy the pivot row and column, then relax the whole square.
#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome floyd_serial(const bench::args& a) {
  const auto body = [](floyd_kernel::instance& in) {
    in.for_each_pivot([](const floyd_kernel::step& s) { s.relax(0, s.n, 0, s.n); });
  };
  return bench::measure(a.size, floyd_kernel::setup, body, floyd_kernel::check_serial);
}
