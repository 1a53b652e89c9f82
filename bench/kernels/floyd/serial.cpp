// floyd, serial: for each k, copy the pivot row and column, then relax the whole square.
#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome floyd_serial(const bench::args& a) {
  const int n = floyd_kernel::parse(a.size);
  std::vector<floyd_kernel::dist> d = floyd_kernel::graph(n);
  std::vector<floyd_kernel::dist> row(n);
  std::vector<floyd_kernel::dist> col(n);
  bench::outcome out;
  const bench::stopwatch clock;
  for (int k = 0; k < n; ++k) {
    floyd_kernel::take_pivot(d.data(), n, k, row.data(), col.data());
    floyd_kernel::relax_block(d.data(), n, row.data(), col.data(), 0, n, 0, n);
  }
  out.seconds = clock.seconds();
  // The serial version is the reference; it is checked against Dijkstra only.
  floyd_kernel::check(out, n, d, false);
  return out;
}
