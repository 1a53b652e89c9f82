// heat, serial: every interior row of every time step, in order.
#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome heat_serial(const bench::args& a) {
  const heat_kernel::problem pr = heat_kernel::parse(a.size);
  heat_kernel::grids g = heat_kernel::initial(pr);
  bench::outcome out;
  const bench::stopwatch clock;
  for (int t = 0; t < pr.nt; ++t) {
    const bool even = t % 2 == 0;
    heat_kernel::step_rows(pr, even ? g.a.data() : g.b.data(), even ? g.b.data() : g.a.data(), 1,
                           pr.nx - 1);
  }
  out.seconds = clock.seconds();
  // The serial version is checked against the exact solution only: it is the reference.
  heat_kernel::check(out, pr, heat_kernel::result(pr, g), false);
  return out;
}
