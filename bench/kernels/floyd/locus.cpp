// floyd, locus: for each k, the (i, j) square is split recursively in two along its longer
// side (measured in leaf blocks); one half is spawned, the other run inline, down to
// leaf_rows x leaf_cols blocks.
#include <locus/locus.hpp>

#include "../../kernel.hpp"
#include "common.hpp"

namespace {

using floyd_kernel::step;

locus::task<void> relax(const step* s, int i0, int i1, int j0, int j1) {
  const int rows = i1 - i0;
  const int cols = j1 - j0;
  if (rows <= floyd_kernel::leaf_rows && cols <= floyd_kernel::leaf_cols) {
    s->relax(i0, i1, j0, j1);
    co_return;
  }
  // Split the side that is more leaf blocks long, so leaves keep their shape.
  if (rows * floyd_kernel::leaf_cols >= cols * floyd_kernel::leaf_rows) {
    const int mid = i0 + rows / 2;
    co_await locus::spawn(relax(s, i0, mid, j0, j1));
    co_await relax(s, mid, i1, j0, j1);
  } else {
    const int mid = j0 + cols / 2;
    co_await locus::spawn(relax(s, i0, i1, j0, mid));
    co_await relax(s, i0, i1, mid, j1);
  }
  co_await locus::sync();
}

locus::task<void> solve(floyd_kernel::instance* in) {
  const step s = in->pointers();
  for (int k = 0; k < s.n; ++k) {
    floyd_kernel::take_pivot(s.d, s.n, k, in->row.data(), in->col.data());
    co_await relax(&s, 0, s.n, 0, s.n);
  }
}

}  // namespace

bench::outcome floyd_locus(const bench::args& a) {
  const auto body = [&a](floyd_kernel::instance& in) { a.rt->run(solve(&in)); };
  return bench::measure(a.size, floyd_kernel::setup, body, floyd_kernel::check);
}
