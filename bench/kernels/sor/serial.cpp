// sor, serial: red then black over all interior rows, iters times.
#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome sor_serial(const bench::args& a) {
  const sor_kernel::problem pr = sor_kernel::parse(a.size);
  std::vector<double> g = sor_kernel::initial(pr);
  bench::outcome out;
  const bench::stopwatch clock;
  for (int it = 0; it < pr.iters; ++it) {
    for (int colour = 0; colour < 2; ++colour)
      sor_kernel::sweep_rows(g.data(), pr.n, colour, 1, pr.n - 1);
  }
  out.seconds = clock.seconds();
  sor_kernel::check(out, pr, g);
  return out;
}
