// smith-waterman, serial: the plain DP over one row of H, no tiles.
#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome smith_waterman_serial(const bench::args& a) {
  const auto body = [](sw_kernel::instance& in) { return sw_kernel::solve_serial(in.seq); };
  return bench::measure(a.size, sw_kernel::setup, body, sw_kernel::check);
}
