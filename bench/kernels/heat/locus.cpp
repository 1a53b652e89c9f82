// heat, locus: per time step, the interior rows are split in halves recursively; the first half
// is spawned, the second run inline, down to leaf_rows rows (Cilk's heat).
#include <locus/locus.hpp>

#include "../../kernel.hpp"
#include "common.hpp"

namespace {

locus::task<void> rows(const heat_kernel::problem* pr, const double* from, double* to, int lo,
                       int hi) {
  if (hi - lo <= heat_kernel::leaf_rows) {
    heat_kernel::step_rows(*pr, from, to, lo, hi);
    co_return;
  }
  const int mid = lo + (hi - lo) / 2;
  co_await locus::spawn(rows(pr, from, to, lo, mid));
  co_await rows(pr, from, to, mid, hi);
  co_await locus::sync();
}

locus::task<void> solve(const heat_kernel::problem* pr, heat_kernel::grids* g) {
  for (int t = 0; t < pr->nt; ++t) {
    const bool even = t % 2 == 0;
    co_await rows(pr, even ? g->a.data() : g->b.data(), even ? g->b.data() : g->a.data(), 1,
                  pr->nx - 1);
  }
}

}  // namespace

bench::outcome heat_locus(const bench::args& a) {
  const heat_kernel::problem pr = heat_kernel::parse(a.size);
  heat_kernel::grids g = heat_kernel::initial(pr);
  bench::outcome out;
  const bench::stopwatch clock;
  a.rt->run(solve(&pr, &g));
  out.seconds = clock.seconds();
  heat_kernel::check(out, pr, heat_kernel::result(pr, g), true);
  return out;
}
