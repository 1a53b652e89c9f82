// lu, locus: the Cilk recursion with spawns: the two triangular solves of a step, the two
// halves of a solve and each round of four Schur products run in parallel.
#include <locus/locus.hpp>

#include "../../kernel.hpp"
#include "common.hpp"

namespace {

using lu_kernel::view;

locus::task<void> schur(view m, view v, view w, std::size_t nb) {
  if (lu_kernel::schur_leaf(m, v, w, nb)) co_return;
  const std::size_t h = nb / 2;
  for (int k = 0; k < 2; ++k) {
    for (int q = 0; q < 3; ++q) {
      co_await locus::spawn(
          schur(m.quad(nb, q / 2, q % 2), v.quad(nb, q / 2, k), w.quad(nb, k, q % 2), h));
    }
    co_await schur(m.quad(nb, 1, 1), v.quad(nb, 1, k), w.quad(nb, k, 1), h);
    co_await locus::sync();
  }
}

locus::task<void> lower_solve(view m, view l, std::size_t nb);

// One column half of a lower solve: top, Schur update of the bottom, bottom.
locus::task<void> lower_column(view m, view l, std::size_t nb, int j) {
  const std::size_t h = nb / 2;
  co_await lower_solve(m.quad(nb, 0, j), l.quad(nb, 0, 0), h);
  co_await schur(m.quad(nb, 1, j), l.quad(nb, 1, 0), m.quad(nb, 0, j), h);
  co_await lower_solve(m.quad(nb, 1, j), l.quad(nb, 1, 1), h);
}

locus::task<void> lower_solve(view m, view l, std::size_t nb) {
  if (lu_kernel::lower_solve_leaf(m, l, nb)) co_return;
  co_await locus::spawn(lower_column(m, l, nb, 0));
  co_await lower_column(m, l, nb, 1);
  co_await locus::sync();
}

locus::task<void> upper_solve(view m, view u, std::size_t nb);

// One row half of an upper solve: left, Schur update of the right, right.
locus::task<void> upper_row(view m, view u, std::size_t nb, int i) {
  const std::size_t h = nb / 2;
  co_await upper_solve(m.quad(nb, i, 0), u.quad(nb, 0, 0), h);
  co_await schur(m.quad(nb, i, 1), m.quad(nb, i, 0), u.quad(nb, 0, 1), h);
  co_await upper_solve(m.quad(nb, i, 1), u.quad(nb, 1, 1), h);
}

locus::task<void> upper_solve(view m, view u, std::size_t nb) {
  if (lu_kernel::upper_solve_leaf(m, u, nb)) co_return;
  co_await locus::spawn(upper_row(m, u, nb, 0));
  co_await upper_row(m, u, nb, 1);
  co_await locus::sync();
}

locus::task<void> lu(view m, std::size_t nb) {
  if (lu_kernel::lu_leaf(m, nb)) co_return;
  const std::size_t h = nb / 2;
  co_await lu(m.quad(nb, 0, 0), h);
  co_await locus::spawn(lower_solve(m.quad(nb, 0, 1), m.quad(nb, 0, 0), h));
  co_await upper_solve(m.quad(nb, 1, 0), m.quad(nb, 0, 0), h);
  co_await locus::sync();
  co_await schur(m.quad(nb, 1, 1), m.quad(nb, 1, 0), m.quad(nb, 0, 1), h);
  co_await lu(m.quad(nb, 1, 1), h);
}

}  // namespace

bench::outcome lu_locus(const bench::args& a) {
  const auto body = [&a](lu_kernel::instance& in) { a.rt->run(lu(in.whole(), in.blocks())); };
  return bench::measure(a.size, lu_kernel::setup, body, lu_kernel::check);
}
