// floyd, OpenMP tasks: for each k, the (i, j) square split recursively in two along its longer
// side (in leaf blocks) down to leaf_rows x leaf_cols, one half an `omp task` (the locus
// version's tree), one parallel region per k.
#include "../../kernel.hpp"
#include "../omp_single.hpp"
#include "common.hpp"

namespace {

using floyd_kernel::step;

void blocks(const step& s, int i0, int i1, int j0, int j1) {
  const int rows = i1 - i0;
  const int cols = j1 - j0;
  if (rows <= floyd_kernel::leaf_rows && cols <= floyd_kernel::leaf_cols) {
    s.relax(i0, i1, j0, j1);
    return;
  }
  if (rows * floyd_kernel::leaf_cols >= cols * floyd_kernel::leaf_rows) {
    const int mid = i0 + rows / 2;
#pragma omp task firstprivate(i0, mid, j0, j1) shared(s)
    blocks(s, i0, mid, j0, j1);
    blocks(s, mid, i1, j0, j1);
  } else {
    const int mid = j0 + cols / 2;
#pragma omp task firstprivate(i0, i1, j0, mid) shared(s)
    blocks(s, i0, i1, j0, mid);
    blocks(s, i0, i1, mid, j1);
  }
#pragma omp taskwait
}

}  // namespace

bench::outcome floyd_omp_tasks(const bench::args& a) {
  const auto body = [](floyd_kernel::instance& in) {
    in.for_each_pivot(
        [](const step& s) { bench::omp_single([&s] { blocks(s, 0, s.n, 0, s.n); }); });
  };
  return bench::measure(a.size, floyd_kernel::setup, body, floyd_kernel::check);
}
