// floyd, OpenMP: for each k, a static loop over the rows i (the papers' baseline).
#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome floyd_omp(const bench::args& a) {
  const auto body = [](floyd_kernel::instance& in) {
    in.for_each_pivot([](const floyd_kernel::step& s) {
#pragma omp parallel for schedule(static)
      for (int i = 0; i < s.n; ++i)
        s.relax(i, i + 1, 0, s.n);
    });
  };
  return bench::measure(a.size, floyd_kernel::setup, body, floyd_kernel::check);
}
