// floyd, OpenMP: for each k, a static loop over the rows i (the papers' baseline).
#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome floyd_omp(const bench::args& a) {
  using floyd_kernel::dist;
  const int n = floyd_kernel::parse(a.size);
  std::vector<dist> d = floyd_kernel::graph(n);
  std::vector<dist> row(n);
  std::vector<dist> col(n);
  dist* m = d.data();
  const dist* pr = row.data();
  const dist* pc = col.data();
  bench::outcome out;
  const bench::stopwatch clock;
  for (int k = 0; k < n; ++k) {
    floyd_kernel::take_pivot(m, n, k, row.data(), col.data());
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; ++i)
      floyd_kernel::relax_block(m, n, pr, pc, i, i + 1, 0, n);
  }
  out.seconds = clock.seconds();
  floyd_kernel::check(out, n, d, true);
  return out;
}
