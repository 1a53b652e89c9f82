// cholesky, mpi-omp: the bulk-synchronous MPI + OpenMP peer. Per step k: the owner of (k, k)
// factors it and broadcasts L[k][k]; each rank solves its tiles of column k (OpenMP parallel
// for), then every tile of the column is broadcast from its owner; each rank updates its
// trailing tiles (syrk / gemm, OpenMP parallel for), and the next step starts. Every rank waits
// at each broadcast, so no step overlaps the next: what a task graph removes. The MPI calls
// run on the communication worker (context::call), MPI's thread in this FUNNELED job.
#include <mpi.h>

#include <utility>
#include <vector>

#include "cholesky.hpp"

namespace locus_mpi_bench::chol {

namespace ck = cholesky_kernel;

double factor_bsp(locus::mpi::context& ctx, dist_tiles& a, unsigned workers) {
  const std::size_t nt = a.tiles(), b = a.size().b, bb = b * b;
  const int count = static_cast<int>(bb), threads = static_cast<int>(workers);
  (void)threads;
  std::vector<double> column(nt * bb);  // copies of column k's tiles held by other ranks
  std::vector<std::pair<std::size_t, std::size_t>> trailing;
  return timed(ctx, [&] {
    ctx.call([&] {
      for (std::size_t k = 0; k < nt; ++k) {
        // L(i, k): the tile here or its received copy.
        const auto l = [&](std::size_t i) { return a.mine(i, k) ? a.tile(i, k) : &column[i * bb]; };
        if (a.mine(k, k)) ck::potrf(a.tile(k, k), b);
        MPI_Bcast(l(k), count, MPI_DOUBLE, a.owner(k, k), MPI_COMM_WORLD);
        const long first = static_cast<long>(k + 1), last = static_cast<long>(nt);
#if LOCUS_MPI_BENCH_OPENMP
#pragma omp parallel for num_threads(threads) schedule(dynamic)
#endif
        for (long i = first; i < last; ++i)
          if (a.mine(static_cast<std::size_t>(i), k))
            ck::trsm(l(k), a.tile(static_cast<std::size_t>(i), k), b);
        for (std::size_t i = k + 1; i < nt; ++i)
          MPI_Bcast(l(i), count, MPI_DOUBLE, a.owner(i, k), MPI_COMM_WORLD);
        trailing.clear();
        for (std::size_t i = k + 1; i < nt; ++i)
          for (std::size_t j = k + 1; j <= i; ++j)
            if (a.mine(i, j)) trailing.emplace_back(i, j);
        const long updates = static_cast<long>(trailing.size());
#if LOCUS_MPI_BENCH_OPENMP
#pragma omp parallel for num_threads(threads) schedule(dynamic)
#endif
        for (long u = 0; u < updates; ++u) {
          const auto [i, j] = trailing[static_cast<std::size_t>(u)];
          if (i == j)
            ck::syrk(l(i), a.tile(i, i), b);
          else
            ck::gemm(l(i), l(j), a.tile(i, j), b);
        }
      }
    });
  });
}

}  // namespace locus_mpi_bench::chol
