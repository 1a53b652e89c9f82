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

locus::task<void> solve(heat_kernel::instance* in) {
  for (int t = 0; t < in->pr.nt; ++t)
    co_await rows(&in->pr, in->from(t), in->to(t), 1, in->pr.nx - 1);
}

}  // namespace

bench::outcome heat_locus(const bench::args& a) {
  const auto body = [&a](heat_kernel::instance& in) { a.rt->run(solve(&in)); };
  return bench::measure(a.size, heat_kernel::setup, body, heat_kernel::check);
}
