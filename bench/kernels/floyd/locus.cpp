// floyd, locus: for each k, the (i, j) square is split recursively in two along its longer
// side (measured in leaf blocks); one half is spawned, the other run inline, down to
// leaf_rows x leaf_cols blocks.
#include <locus/locus.hpp>

#include "../../kernel.hpp"
#include "common.hpp"

namespace {

using floyd_kernel::dist;

/// What every block of step k reads and writes.
struct step {
  dist* d;
  const dist* row;
  const dist* col;
  int n;
};

locus::task<void> relax(const step* s, int i0, int i1, int j0, int j1) {
  const int rows = i1 - i0;
  const int cols = j1 - j0;
  if (rows <= floyd_kernel::leaf_rows && cols <= floyd_kernel::leaf_cols) {
    floyd_kernel::relax_block(s->d, s->n, s->row, s->col, i0, i1, j0, j1);
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

locus::task<void> solve(dist* d, int n, dist* row, dist* col) {
  const step s{d, row, col, n};
  for (int k = 0; k < n; ++k) {
    floyd_kernel::take_pivot(d, n, k, row, col);
    co_await relax(&s, 0, n, 0, n);
  }
}

}  // namespace

bench::outcome floyd_locus(const bench::args& a) {
  const int n = floyd_kernel::parse(a.size);
  std::vector<dist> d = floyd_kernel::graph(n);
  std::vector<dist> row(n);
  std::vector<dist> col(n);
  bench::outcome out;
  const bench::stopwatch clock;
  a.rt->run(solve(d.data(), n, row.data(), col.data()));
  out.seconds = clock.seconds();
  floyd_kernel::check(out, n, d, true);
  return out;
}
