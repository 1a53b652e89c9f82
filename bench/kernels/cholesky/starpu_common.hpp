// cholesky with StarPU: what locus-bench's starpu peer (starpu.cpp) and locus-mpi-bench's
// starpu-mpi peer (bench/mpi/cholesky_starpu.cpp) share: the four codelets over the tile
// kernels of common.hpp, StarPU's start with the benchmarks' configuration, a tile's
// registration, and each tile task's codelet and access modes, in StarPU's argument order.
//
// The codelets run on CPU workers only and have no performance model (nothing to calibrate);
// the last buffer of each is the tile written (RW), the others are read (R). The
// configuration: `workers` CPU workers, no accelerators, the lws (locality work-stealing)
// scheduler, STARPU_SILENT=1 to keep StarPU's messages off the output, and precedence over
// STARPU_* variables in the environment. Include it after <starpu.h> is available (the
// peers are built only where StarPU is).
#pragma once

#include <starpu.h>

#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "common.hpp"

namespace cholesky_kernel::starpu {

namespace detail {

inline double* tile_of(void* buffer) {
  return reinterpret_cast<double*>(STARPU_MATRIX_GET_PTR(buffer));
}
inline std::size_t order_of(void* buffer) {
  return STARPU_MATRIX_GET_NX(buffer);
}
inline void potrf_cpu(void* buffers[], void*) {
  cholesky_kernel::potrf(tile_of(buffers[0]), order_of(buffers[0]));
}
inline void trsm_cpu(void* buffers[], void*) {
  cholesky_kernel::trsm(tile_of(buffers[0]), tile_of(buffers[1]), order_of(buffers[0]));
}
inline void syrk_cpu(void* buffers[], void*) {
  cholesky_kernel::syrk(tile_of(buffers[0]), tile_of(buffers[1]), order_of(buffers[0]));
}
inline void gemm_cpu(void* buffers[], void*) {
  cholesky_kernel::gemm(tile_of(buffers[0]), tile_of(buffers[1]), tile_of(buffers[2]),
                        order_of(buffers[0]));
}

}  // namespace detail

/// The four codelets (one set per program: codelets::get(); not const: StarPU writes a
/// codelet's bookkeeping fields when it first checks it).
struct codelets {
  starpu_codelet potrf, trsm, syrk, gemm;

  [[nodiscard]] static codelets& get() {
    static codelets cl;
    return cl;
  }

 private:
  codelets() {
    make(potrf, "potrf", detail::potrf_cpu, 1);
    make(trsm, "trsm", detail::trsm_cpu, 2);
    make(syrk, "syrk", detail::syrk_cpu, 2);
    make(gemm, "gemm", detail::gemm_cpu, 3);
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
    cl.model = nullptr;  // no performance model: nothing to calibrate
  }
};

/// starpu_init with the configuration above; throws std::runtime_error if it fails.
inline void init(unsigned workers) {
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
}

/// Registers a b x b column-major tile (ld b) at `p` in main memory, or, with `p` null, a tile
/// with no memory here (StarPU allocates a copy where one is needed: another rank's tile).
inline void register_tile(starpu_data_handle_t& h, double* p, std::size_t b) {
  const auto n = static_cast<std::uint32_t>(b);
  if (p != nullptr)
    starpu_matrix_data_register(&h, STARPU_MAIN_RAM, reinterpret_cast<std::uintptr_t>(p), n, n, n,
                                sizeof(double));
  else
    starpu_matrix_data_register(&h, -1, 0, n, n, n, sizeof(double));
}

/// Submits tile task `t`: calls insert(codelet, mode, handle, ..., 0) with the tiles it reads
/// (STARPU_R) then the tile it writes (STARPU_RW), `handle(i, j)` giving tile (i, j)'s handle;
/// `insert` is starpu_task_insert or starpu_mpi_task_insert on a communicator. Returns what
/// insert returned.
template <class Handle, class Insert>
int submit(const tile_task& t, Handle&& handle, Insert&& insert) {
  codelets& cl = codelets::get();
  const auto c = [](starpu_codelet& x) { return &x; };
  switch (t.kind) {
    case tile_task::op::potrf:
      return insert(c(cl.potrf), STARPU_RW, handle(t.k, t.k), 0);
    case tile_task::op::trsm:
      return insert(c(cl.trsm), STARPU_R, handle(t.k, t.k), STARPU_RW, handle(t.i, t.k), 0);
    case tile_task::op::syrk:
      return insert(c(cl.syrk), STARPU_R, handle(t.i, t.k), STARPU_RW, handle(t.i, t.i), 0);
    case tile_task::op::gemm:
      return insert(c(cl.gemm), STARPU_R, handle(t.i, t.k), STARPU_R, handle(t.j, t.k), STARPU_RW,
                    handle(t.i, t.j), 0);
  }
  return 0;
}

}  // namespace cholesky_kernel::starpu
