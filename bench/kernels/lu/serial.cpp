// lu, serial: the recursion with every spawn replaced by a call.
#include "../../kernel.hpp"
#include "common.hpp"

namespace {

using lu_kernel::view;

void schur(view m, view v, view w, std::size_t nb) {
  if (lu_kernel::schur_leaf(m, v, w, nb)) return;
  const std::size_t h = nb / 2;
  for (int k = 0; k < 2; ++k) {
    for (int i = 0; i < 2; ++i) {
      for (int j = 0; j < 2; ++j)
        schur(m.quad(nb, i, j), v.quad(nb, i, k), w.quad(nb, k, j), h);
    }
  }
}

void lower_solve(view m, view l, std::size_t nb) {
  if (lu_kernel::lower_solve_leaf(m, l, nb)) return;
  const std::size_t h = nb / 2;
  for (int j = 0; j < 2; ++j) {
    lower_solve(m.quad(nb, 0, j), l.quad(nb, 0, 0), h);
    schur(m.quad(nb, 1, j), l.quad(nb, 1, 0), m.quad(nb, 0, j), h);
    lower_solve(m.quad(nb, 1, j), l.quad(nb, 1, 1), h);
  }
}

void upper_solve(view m, view u, std::size_t nb) {
  if (lu_kernel::upper_solve_leaf(m, u, nb)) return;
  const std::size_t h = nb / 2;
  for (int i = 0; i < 2; ++i) {
    upper_solve(m.quad(nb, i, 0), u.quad(nb, 0, 0), h);
    schur(m.quad(nb, i, 1), m.quad(nb, i, 0), u.quad(nb, 0, 1), h);
    upper_solve(m.quad(nb, i, 1), u.quad(nb, 1, 1), h);
  }
}

void lu(view m, std::size_t nb) {
  if (lu_kernel::lu_leaf(m, nb)) return;
  const std::size_t h = nb / 2;
  lu(m.quad(nb, 0, 0), h);
  lower_solve(m.quad(nb, 0, 1), m.quad(nb, 0, 0), h);
  upper_solve(m.quad(nb, 1, 0), m.quad(nb, 0, 0), h);
  schur(m.quad(nb, 1, 1), m.quad(nb, 1, 0), m.quad(nb, 0, 1), h);
  lu(m.quad(nb, 1, 1), h);
}

}  // namespace

bench::outcome lu_serial(const bench::args& a) {
  const auto body = [](lu_kernel::instance& in) { lu(in.whole(), in.blocks()); };
  return bench::measure(a.size, lu_kernel::setup, body, lu_kernel::check);
}
