// lu, OpenMP: the Cilk recursion with tasks: the two triangular solves of a step, the two
// halves of a solve and each round of four Schur products run in parallel.
#include <omp.h>

#include "../../kernel.hpp"
#include "../omp_single.hpp"
#include "common.hpp"

namespace {

using lu_kernel::view;

void schur(view m, view v, view w, std::size_t nb) {
  if (lu_kernel::schur_leaf(m, v, w, nb)) return;
  const std::size_t h = nb / 2;
  for (int k = 0; k < 2; ++k) {
    for (int q = 0; q < 3; ++q) {
      const view mq = m.quad(nb, q / 2, q % 2);
      const view vq = v.quad(nb, q / 2, k);
      const view wq = w.quad(nb, k, q % 2);
#pragma omp task firstprivate(mq, vq, wq, h)
      schur(mq, vq, wq, h);
    }
    schur(m.quad(nb, 1, 1), v.quad(nb, 1, k), w.quad(nb, k, 1), h);
#pragma omp taskwait
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
#pragma omp task firstprivate(m, l, nb)
  lower_column(m, l, nb, 0);
  lower_column(m, l, nb, 1);
#pragma omp taskwait
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
#pragma omp task firstprivate(m, u, nb)
  upper_row(m, u, nb, 0);
  upper_row(m, u, nb, 1);
#pragma omp taskwait
}

void lu(view m, std::size_t nb) {
  if (lu_kernel::lu_leaf(m, nb)) return;
  const std::size_t h = nb / 2;
  lu(m.quad(nb, 0, 0), h);
  const view m01 = m.quad(nb, 0, 1);
  const view m00 = m.quad(nb, 0, 0);
#pragma omp task firstprivate(m01, m00, h)
  lower_solve(m01, m00, h);
  upper_solve(m.quad(nb, 1, 0), m00, h);
#pragma omp taskwait
  schur(m.quad(nb, 1, 1), m.quad(nb, 1, 0), m01, h);
  lu(m.quad(nb, 1, 1), h);
}

}  // namespace

bench::outcome lu_omp(const bench::args& a) {
  const auto body = [](lu_kernel::instance& in) {
    bench::omp_single([&in] { lu(in.whole(), in.blocks()); });
  };
  return bench::measure(a.size, lu_kernel::setup, body, lu_kernel::check);
}
