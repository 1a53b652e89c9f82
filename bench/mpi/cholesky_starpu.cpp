// cholesky, starpu-mpi: StarPU-MPI's usual distributed Cholesky. Every rank registers every
// lower tile (its own over its storage, the others with no memory: StarPU allocates a copy
// where one is needed), tells StarPU-MPI each tile's owner (dist_tiles' block-cyclic map) and
// tag, and submits every operation in the serial order with starpu_mpi_task_insert: the rank
// that owns the tile written runs it, and StarPU-MPI sends each tile read by another rank
// there, once (its cache). The codelets, StarPU's configuration and each task's submission are
// bench/kernels/cholesky/starpu_common.hpp's, shared with locus-bench's starpu peer; they call
// the same tile kernels as every other runtime.
//
// StarPU-MPI's progress thread calls MPI beside the locus communication worker, so this peer
// needs MPI_THREAD_MULTIPLE: main() initialises MPI with it when starpu-mpi is asked for (and
// the context adopts that MPI). It talks on its own duplicate of MPI_COMM_WORLD. StarPU is
// started with `workers` CPU workers, the lws scheduler, no performance models, before the timed
// region and shut down after it; registering, submitting, waiting and unregistering are timed,
// as in locus-bench's starpu peer (bench/kernels/cholesky/starpu.cpp).
#if LOCUS_MPI_BENCH_STARPU

#include <mpi.h>
#include <starpu.h>
#include <starpu_mpi.h>

#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "../kernels/cholesky/starpu_common.hpp"
#include "cholesky.hpp"

namespace locus_mpi_bench::chol {

namespace {

namespace ck = cholesky_kernel;
namespace sp = cholesky_kernel::starpu;

/// starpu_init + starpu_mpi_init_comm ... starpu_mpi_shutdown + starpu_shutdown.
class session {
 public:
  session(MPI_Comm comm, unsigned workers) {
    sp::init(workers);
    if (const int ret = starpu_mpi_init_comm(nullptr, nullptr, 0, comm); ret != 0) {
      starpu_shutdown();
      throw std::runtime_error("starpu_mpi_init_comm failed (" + std::to_string(ret) + ")");
    }
  }
  ~session() {
    starpu_mpi_shutdown();
    starpu_shutdown();
  }
  session(const session&) = delete;
  session& operator=(const session&) = delete;
};

void run(MPI_Comm comm, dist_tiles& a) {
  const std::size_t nt = a.tiles(), b = a.size().b;
  std::vector<starpu_data_handle_t> h(nt * nt, nullptr);
  for (std::size_t i = 0; i < nt; ++i) {
    for (std::size_t j = 0; j <= i; ++j) {
      starpu_data_handle_t& x = h[i * nt + j];
      sp::register_tile(x, a.mine(i, j) ? a.tile(i, j) : nullptr, b);
      starpu_mpi_data_register_comm(x, static_cast<starpu_mpi_tag_t>(i * nt + j), a.owner(i, j),
                                    comm);
    }
  }
  int ret = 0;
  ck::for_each_task(nt, [&](const ck::tile_task& x) {
    if (ret != 0) return;
    ret = sp::submit(
        x, [&](std::size_t i, std::size_t j) { return h[i * nt + j]; },
        [comm](auto... args) { return starpu_mpi_task_insert(comm, args...); });
  });
  starpu_task_wait_for_all();
  starpu_mpi_wait_for_all(comm);
  starpu_mpi_cache_flush_all_data(comm);
  for (starpu_data_handle_t x : h)
    if (x != nullptr) starpu_data_unregister(x);
  if (ret != 0)
    throw std::runtime_error("starpu_mpi_task_insert failed (" + std::to_string(ret) + ")");
}

}  // namespace

double factor_starpu(locus::mpi::context& ctx, dist_tiles& a, unsigned workers) {
  int level = 0;
  MPI_Comm comm = MPI_COMM_NULL;
  ctx.call([&] {
    MPI_Query_thread(&level);
    if (level == MPI_THREAD_MULTIPLE) MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  });
  if (level != MPI_THREAD_MULTIPLE)
    throw std::runtime_error(
        "starpu-mpi: needs MPI_THREAD_MULTIPLE (locus-mpi-bench asks for it when --runtimes "
        "names starpu-mpi)");
  double s = 0;
  {
    session sp(comm, workers);
    s = timed(ctx, [&] { run(comm, a); });
  }
  ctx.call([&] { MPI_Comm_free(&comm); });
  return s;
}

}  // namespace locus_mpi_bench::chol

#endif  // LOCUS_MPI_BENCH_STARPU
