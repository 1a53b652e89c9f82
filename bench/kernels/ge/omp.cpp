// ge, OpenMP: per pivot, a static loop over the rows below it (the papers' baseline).
#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome ge_omp(const bench::args& a) {
  const auto body = [](ge_kernel::instance& in) {
    const ge_kernel::problem& pr = in.pr;
    double* m = in.a.data();
    for (int k = 0; k + 1 < pr.n; ++k) {
#pragma omp parallel for schedule(static)
      for (int i = k + 1; i < pr.n; ++i)
        ge_kernel::update_rows(pr, m, k, i, i + 1);
    }
  };
  return bench::measure(a.size, ge_kernel::setup, body, ge_kernel::check);
}
