// cholesky, StarPU: a codelet per tile kernel on CPU workers, each lower tile registered as a
// StarPU matrix handle, every operation submitted in the serial loop's order with its access
// modes (R on the tiles read, RW on the tile written); StarPU infers the task graph from them,
// its normal usage.
//
// StarPU is started in setup (untimed, like the thread pools of the other runtimes, which exist
// before the timed region) with args.workers CPU workers, no accelerators, the lws (locality
// work-stealing) scheduler and no performance models, so no codelet is calibrated (StarPU still
// writes its description of the machine's buses to ~/.starpu/sampling/bus once);
// STARPU_SILENT=1 keeps its messages off the output. The configuration takes
// precedence over STARPU_* variables in the environment. The submitting thread is the
// caller's, not a worker. Registering the tiles, submitting, waiting and unregistering are
// timed. It is shut down after the check.
#ifdef LOCUS_HAVE_OPENBLAS

#include <starpu.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "../../kernel.hpp"
#include "common.hpp"

namespace {

using cholesky_kernel::tile_task;

double* tile_of(void* buffer) {
  return reinterpret_cast<double*>(STARPU_MATRIX_GET_PTR(buffer));
}
std::size_t order_of(void* buffer) {
  return STARPU_MATRIX_GET_NX(buffer);
}

void potrf_cpu(void* buffers[], void*) {
  cholesky_kernel::potrf(tile_of(buffers[0]), order_of(buffers[0]));
}
void trsm_cpu(void* buffers[], void*) {
  cholesky_kernel::trsm(tile_of(buffers[0]), tile_of(buffers[1]), order_of(buffers[0]));
}
void syrk_cpu(void* buffers[], void*) {
  cholesky_kernel::syrk(tile_of(buffers[0]), tile_of(buffers[1]), order_of(buffers[0]));
}
void gemm_cpu(void* buffers[], void*) {
  cholesky_kernel::gemm(tile_of(buffers[0]), tile_of(buffers[1]), tile_of(buffers[2]),
                        order_of(buffers[0]));
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

 private:
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

/// starpu_init ... starpu_shutdown.
class session {
 public:
  explicit session(unsigned workers) {
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
    if (const int ret = starpu_init(&conf); ret != 0) {
      throw std::runtime_error("starpu_init failed (" + std::to_string(ret) + ")");
    }
  }
  ~session() { starpu_shutdown(); }
  session(const session&) = delete;
  session& operator=(const session&) = delete;
};

struct starpu_instance {
  cholesky_kernel::instance in;
  std::unique_ptr<session> starpu;
};

void run(cholesky_kernel::tiled_matrix& a) {
  static codelets cl;
  const std::size_t nt = a.size().tiles(), b = a.size().b;
  std::vector<starpu_data_handle_t> handles(nt * nt, nullptr);
  auto handle = [&](std::size_t i, std::size_t j) { return handles[i * nt + j]; };
  for (std::size_t i = 0; i < nt; ++i) {
    for (std::size_t j = 0; j <= i; ++j) {
      starpu_matrix_data_register(&handles[i * nt + j], STARPU_MAIN_RAM,
                                  reinterpret_cast<std::uintptr_t>(a.tile(i, j)),
                                  static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(b),
                                  static_cast<std::uint32_t>(b), sizeof(double));
    }
  }
  int ret = 0;
  cholesky_kernel::for_each_task(nt, [&](const tile_task& t) {
    if (ret != 0) return;
    switch (t.kind) {
      case tile_task::op::potrf:
        ret = starpu_task_insert(&cl.potrf, STARPU_RW, handle(t.k, t.k), 0);
        break;
      case tile_task::op::trsm:
        ret = starpu_task_insert(&cl.trsm, STARPU_R, handle(t.k, t.k), STARPU_RW, handle(t.i, t.k),
                                 0);
        break;
      case tile_task::op::syrk:
        ret = starpu_task_insert(&cl.syrk, STARPU_R, handle(t.i, t.k), STARPU_RW, handle(t.i, t.i),
                                 0);
        break;
      case tile_task::op::gemm:
        ret = starpu_task_insert(&cl.gemm, STARPU_R, handle(t.i, t.k), STARPU_R, handle(t.j, t.k),
                                 STARPU_RW, handle(t.i, t.j), 0);
        break;
    }
  });
  starpu_task_wait_for_all();
  for (starpu_data_handle_t h : handles) {
    if (h != nullptr) starpu_data_unregister(h);
  }
  if (ret != 0) throw std::runtime_error("starpu_task_insert failed (" + std::to_string(ret) + ")");
}

}  // namespace

bench::outcome cholesky_starpu(const bench::args& a) {
  const auto setup = [&a](const std::string& size) {
    starpu_instance s{cholesky_kernel::setup_tiled(size), nullptr};
    s.starpu = std::make_unique<session>(a.workers);
    return s;
  };
  const auto body = [](starpu_instance& s) { run(s.in.work); };
  const auto check = [](bench::outcome& out, const starpu_instance& s) {
    cholesky_kernel::check_tiled(out, s.in);
  };
  return bench::measure(a.size, setup, body, check);
}

#endif  // LOCUS_HAVE_OPENBLAS
