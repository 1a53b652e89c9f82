// lu, oneTBB: the Cilk recursion with task_groups: the two triangular solves of a step, the two
// halves of a solve and each round of four Schur products run in parallel.
#include <tbb/task_group.h>

#include "../../kernel.hpp"
#include "common.hpp"

namespace {

using lu_kernel::view;

void schur(view m, view v, view w, std::size_t nb) {
  if (lu_kernel::schur_leaf(m, v, w, nb)) return;
  const std::size_t h = nb / 2;
  for (int k = 0; k < 2; ++k) {
    tbb::task_group g;
    for (int q = 0; q < 3; ++q) {
      const int i = q / 2;
      const int j = q % 2;
      g.run([=] { schur(m.quad(nb, i, j), v.quad(nb, i, k), w.quad(nb, k, j), h); });
    }
    schur(m.quad(nb, 1, 1), v.quad(nb, 1, k), w.quad(nb, k, 1), h);
    g.wait();
  }
}

void lower_solve(view m, view l, std::size_t nb);

// One column half of a lower solve: top, Schur update of the bottom, bottom.
void lower_column(view m, view l, std::size_t nb, int j) {
  const std::size_t h = nb / 2;
  lower_solve(m.quad(nb, 0, j), l.quad(nb, 0, 0), h);
  schur(m.quad(nb, 1, j), l.quad(nb, 1, 0), m.quad(nb, 0, j), h);
  lower_solve(m.quad(nb, 1, j), l.quad(nb, 1, 1), h);
}

void lower_solve(view m, view l, std::size_t nb) {
  if (lu_kernel::lower_solve_leaf(m, l, nb)) return;
  tbb::task_group g;
  g.run([=] { lower_column(m, l, nb, 0); });
  lower_column(m, l, nb, 1);
  g.wait();
}

void upper_solve(view m, view u, std::size_t nb);

// One row half of an upper solve: left, Schur update of the right, right.
void upper_row(view m, view u, std::size_t nb, int i) {
  const std::size_t h = nb / 2;
  upper_solve(m.quad(nb, i, 0), u.quad(nb, 0, 0), h);
  schur(m.quad(nb, i, 1), m.quad(nb, i, 0), u.quad(nb, 0, 1), h);
  upper_solve(m.quad(nb, i, 1), u.quad(nb, 1, 1), h);
}

void upper_solve(view m, view u, std::size_t nb) {
  if (lu_kernel::upper_solve_leaf(m, u, nb)) return;
  tbb::task_group g;
  g.run([=] { upper_row(m, u, nb, 0); });
  upper_row(m, u, nb, 1);
  g.wait();
}

void lu(view m, std::size_t nb) {
  if (lu_kernel::lu_leaf(m, nb)) return;
  const std::size_t h = nb / 2;
  lu(m.quad(nb, 0, 0), h);
  tbb::task_group g;
  g.run([=] { lower_solve(m.quad(nb, 0, 1), m.quad(nb, 0, 0), h); });
  upper_solve(m.quad(nb, 1, 0), m.quad(nb, 0, 0), h);
  g.wait();
  schur(m.quad(nb, 1, 1), m.quad(nb, 1, 0), m.quad(nb, 0, 1), h);
  lu(m.quad(nb, 1, 1), h);
}

}  // namespace

bench::outcome lu_tbb(const bench::args& a) {
  const auto body = [](lu_kernel::instance& in) { lu(in.whole(), in.blocks()); };
  return bench::measure(a.size, lu_kernel::setup, body, lu_kernel::check);
}
