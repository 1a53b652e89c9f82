// cholesky, scalapack: ScaLAPACK's pdpotrf (Debian's libscalapack-openmpi) on the same
// block-cyclic distribution: a P x Q BLACS grid in row-major process order and blocks of the
// tile size, so rank r holds exactly the tiles dist_tiles gives it. The tiles are copied into
// ScaLAPACK's local column-major array before and back after (untimed); pdpotrf is timed. Every
// BLACS and ScaLAPACK call runs on the communication worker (context::call), MPI's thread.
#if LOCUS_MPI_BENCH_SCALAPACK

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "cholesky.hpp"

extern "C" {
void Cblacs_get(int context, int what, int* value);
void Cblacs_gridinit(int* context, const char* order, int rows, int cols);
void Cblacs_gridinfo(int context, int* rows, int* cols, int* row, int* col);
void Cblacs_gridexit(int context);
int numroc_(const int* n, const int* nb, const int* iproc, const int* isrcproc, const int* nprocs);
void descinit_(int* desc, const int* m, const int* n, const int* mb, const int* nb,
               const int* irsrc, const int* icsrc, const int* ictxt, const int* lld, int* info);
void pdpotrf_(const char* uplo, const int* n, double* a, const int* ia, const int* ja,
              const int* desca, int* info);
}

namespace locus_mpi_bench::chol {

double factor_scalapack(locus::mpi::context& ctx, dist_tiles& a) {
  const int n = static_cast<int>(a.size().n), nb = static_cast<int>(a.size().b);
  const int p = a.grid().p, q = a.grid().q;
  int blacs = 0, rows = 0, cols = 0, myrow = 0, mycol = 0, mloc = 0, nloc = 0;
  int desc[9] = {};
  ctx.call([&] {
    Cblacs_get(-1, 0, &blacs);
    Cblacs_gridinit(&blacs, "Row", p, q);
    Cblacs_gridinfo(blacs, &rows, &cols, &myrow, &mycol);
  });
  if (rows != p || cols != q || myrow * q + mycol != a.rank())
    throw std::runtime_error("scalapack: BLACS put rank " + std::to_string(a.rank()) + " at (" +
                             std::to_string(myrow) + ", " + std::to_string(mycol) + ") of " +
                             std::to_string(rows) + "x" + std::to_string(cols) +
                             "; the tiles expect row-major order");
  const int zero = 0;
  mloc = numroc_(&n, &nb, &myrow, &zero, &p);
  nloc = numroc_(&n, &nb, &mycol, &zero, &q);
  const int lld = std::max(1, mloc);
  int info = 0;
  descinit_(desc, &n, &n, &nb, &nb, &zero, &zero, &blacs, &lld, &info);
  if (info != 0) throw std::runtime_error("scalapack: descinit_ info " + std::to_string(info));
  std::vector<double> local(static_cast<std::size_t>(lld) * static_cast<std::size_t>(nloc));
  const std::size_t nt = a.tiles(), b = a.size().b;
  // Block (i, j) of this rank sits at local block (i / P, j / Q).
  const auto each_tile = [&](auto&& f) {
    for (std::size_t i = 0; i < nt; ++i)
      for (std::size_t j = 0; j <= i; ++j)
        if (a.mine(i, j))
          f(a.tile(i, j),
            local.data() + (j / static_cast<std::size_t>(q)) * b * static_cast<std::size_t>(lld) +
                (i / static_cast<std::size_t>(p)) * b);
  };
  each_tile([&](const double* t, double* at) {
    for (std::size_t c = 0; c < b; ++c)
      std::copy_n(t + c * b, b, at + c * static_cast<std::size_t>(lld));
  });
  const double s = timed(ctx, [&] {
    ctx.call([&] {
      const char lower = 'L';
      const int one = 1;
      pdpotrf_(&lower, &n, local.data(), &one, &one, desc, &info);
    });
  });
  ctx.call([&] { Cblacs_gridexit(blacs); });
  if (info != 0) throw std::runtime_error("scalapack: pdpotrf_ info " + std::to_string(info));
  each_tile([&](double* t, const double* at) {
    for (std::size_t c = 0; c < b; ++c)
      std::copy_n(at + c * static_cast<std::size_t>(lld), b, t + c * b);
  });
  return s;
}

}  // namespace locus_mpi_bench::chol

#endif  // LOCUS_MPI_BENCH_SCALAPACK
