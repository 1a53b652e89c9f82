// cholesky, starpu-mpi: StarPU-MPI's usual distributed Cholesky. Every rank registers every
// lower tile (its own over its storage, the others with no memory: StarPU allocates a copy
// where one is needed), tells StarPU-MPI each tile's owner (dist_tiles' block-cyclic map) and
// tag, and submits every operation in the serial order with starpu_mpi_task_insert: the rank
// that owns the tile written runs it, and StarPU-MPI sends each tile read by another rank
// there, once (its cache). The codelets call the same tile kernels as every other runtime.
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

#include "cholesky.hpp"

namespace locus_mpi_bench::chol {

namespace {

namespace ck = cholesky_kernel;

double* tile_of(void* buffer) {
  return reinterpret_cast<double*>(STARPU_MATRIX_GET_PTR(buffer));
}
std::size_t order_of(void* buffer) {
  return STARPU_MATRIX_GET_NX(buffer);
}
void potrf_cpu(void* buffers[], void*) {
  ck::potrf(tile_of(buffers[0]), order_of(buffers[0]));
}
void trsm_cpu(void* buffers[], void*) {
  ck::trsm(tile_of(buffers[0]), tile_of(buffers[1]), order_of(buffers[0]));
}
void syrk_cpu(void* buffers[], void*) {
  ck::syrk(tile_of(buffers[0]), tile_of(buffers[1]), order_of(buffers[0]));
}
void gemm_cpu(void* buffers[], void*) {
  ck::gemm(tile_of(buffers[0]), tile_of(buffers[1]), tile_of(buffers[2]), order_of(buffers[0]));
}

/// The four codelets: the last buffer is the tile written (RW), the others are read (R).
struct codelets {
  starpu_codelet potrf, trsm, syrk, gemm;
  codelets() {
    make(potrf, "potrf", potrf_cpu, 1);
    make(trsm, "trsm", trsm_cpu, 2);
    make(syrk, "syrk", syrk_cpu, 2);
    make(gemm, "gemm", gemm_cpu, 3);
  }
  static void make(starpu_codelet& cl, const char* name, starpu_cpu_func_t f, int buffers) {
    starpu_codelet_init(&cl);
    cl.name = name;
    cl.where = STARPU_CPU;
    cl.cpu_funcs[0] = f;
    cl.nbuffers = buffers;
    for (int b = 0; b + 1 < buffers; ++b)
      cl.modes[b] = STARPU_R;
    cl.modes[buffers - 1] = STARPU_RW;
    cl.model = nullptr;
  }
};

/// starpu_init + starpu_mpi_init_comm ... starpu_mpi_shutdown + starpu_shutdown.
class session {
 public:
  session(MPI_Comm comm, unsigned workers) {
    ::setenv("STARPU_SILENT", "1", 1);
    starpu_conf conf;
    starpu_conf_init(&conf);
    conf.precedence_over_environment_variables = 1;
    conf.ncpus = static_cast<int>(workers);
    conf.ncuda = 0;
    conf.nopencl = 0;
    conf.nmic = 0;
    conf.nmpi_ms = 0;
    conf.sched_policy_name = "lws";
    if (const int ret = starpu_init(&conf); ret != 0)
      throw std::runtime_error("starpu_init failed (" + std::to_string(ret) + ")");
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
  static codelets cl;
  const std::size_t nt = a.tiles();
  const auto b = static_cast<std::uint32_t>(a.size().b);
  std::vector<starpu_data_handle_t> h(nt * nt, nullptr);
  for (std::size_t i = 0; i < nt; ++i) {
    for (std::size_t j = 0; j <= i; ++j) {
      starpu_data_handle_t& x = h[i * nt + j];
      if (a.mine(i, j))
        starpu_matrix_data_register(&x, STARPU_MAIN_RAM,
                                    reinterpret_cast<std::uintptr_t>(a.tile(i, j)), b, b, b,
                                    sizeof(double));
      else
        starpu_matrix_data_register(&x, -1, 0, b, b, b, sizeof(double));
      starpu_mpi_data_register_comm(x, static_cast<starpu_mpi_tag_t>(i * nt + j), a.owner(i, j),
                                    comm);
    }
  }
  int ret = 0;
  const auto t = [&](std::size_t i, std::size_t j) { return h[i * nt + j]; };
  ck::for_each_task(nt, [&](const ck::tile_task& x) {
    if (ret != 0) return;
    switch (x.kind) {
      case ck::tile_task::op::potrf:
        ret = starpu_mpi_task_insert(comm, &cl.potrf, STARPU_RW, t(x.k, x.k), 0);
        break;
      case ck::tile_task::op::trsm:
        ret = starpu_mpi_task_insert(comm, &cl.trsm, STARPU_R, t(x.k, x.k), STARPU_RW, t(x.i, x.k),
                                     0);
        break;
      case ck::tile_task::op::syrk:
        ret = starpu_mpi_task_insert(comm, &cl.syrk, STARPU_R, t(x.i, x.k), STARPU_RW, t(x.i, x.i),
                                     0);
        break;
      case ck::tile_task::op::gemm:
        ret = starpu_mpi_task_insert(comm, &cl.gemm, STARPU_R, t(x.i, x.k), STARPU_R, t(x.j, x.k),
                                     STARPU_RW, t(x.i, x.j), 0);
        break;
    }
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
