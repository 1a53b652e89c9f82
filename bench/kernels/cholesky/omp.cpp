// cholesky, OpenMP: one task per tile operation, created in the serial loop's order by one
// thread; depend clauses on the tiles themselves (in on the tiles read, inout on the tile
// written) give the same graph StarPU infers and the oneTBB version builds.
#ifdef LOCUS_HAVE_OPENBLAS

#include <omp.h>

#include "../../kernel.hpp"
#include "../omp_single.hpp"
#include "common.hpp"

namespace {

using cholesky_kernel::tile_task;

void run(cholesky_kernel::tiled_matrix& a) {
  const std::size_t b = a.size().b;
  bench::omp_single([&] {
    cholesky_kernel::for_each_task(a.size().tiles(), [&a, b](const tile_task& t) {
      // Locals, so the tasks get copies (firstprivate): the closure holding b is gone by the
      // time most tasks run.
      const std::size_t n = b;
      double* out = a.tile(t.i, t.j);
      const double* kk = a.tile(t.k, t.k);
      const double* ik = a.tile(t.i, t.k);
      const double* jk = a.tile(t.j, t.k);
      switch (t.kind) {
        case tile_task::op::potrf:
#pragma omp task firstprivate(n, out) depend(inout : out[0])
          cholesky_kernel::potrf(out, n);
          break;
        case tile_task::op::trsm:
#pragma omp task firstprivate(n, out, kk) depend(in : kk[0]) depend(inout : out[0])
          cholesky_kernel::trsm(kk, out, n);
          break;
        case tile_task::op::syrk:
#pragma omp task firstprivate(n, out, ik) depend(in : ik[0]) depend(inout : out[0])
          cholesky_kernel::syrk(ik, out, n);
          break;
        case tile_task::op::gemm:
#pragma omp task firstprivate(n, out, ik, jk) depend(in : ik[0], jk[0]) depend(inout : out[0])
          cholesky_kernel::gemm(ik, jk, out, n);
          break;
      }
    });
  });
}

}  // namespace

bench::outcome cholesky_omp(const bench::args& a) {
  const auto body = [](cholesky_kernel::instance& in) { run(in.work); };
  return bench::measure(a.size, cholesky_kernel::setup_tiled, body, cholesky_kernel::check_tiled);
}

#endif  // LOCUS_HAVE_OPENBLAS
