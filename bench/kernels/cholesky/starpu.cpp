// cholesky, StarPU: a codelet per tile kernel on CPU workers, each lower tile registered as a
// StarPU matrix handle, every operation submitted in the serial loop's order with its access
// modes (R on the tiles read, RW on the tile written); StarPU infers the task graph from them,
// its normal usage. The codelets, the configuration and the submission are starpu_common.hpp's
// (shared with locus-mpi-bench's starpu-mpi peer).
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
#include "starpu_common.hpp"

namespace {

namespace sp = cholesky_kernel::starpu;

/// starpu_init ... starpu_shutdown.
class session {
 public:
  explicit session(unsigned workers) { sp::init(workers); }
  ~session() { starpu_shutdown(); }
  session(const session&) = delete;
  session& operator=(const session&) = delete;
};

struct starpu_instance {
  cholesky_kernel::instance in;
  std::unique_ptr<session> starpu;
};

void run(cholesky_kernel::tiled_matrix& a) {
  const std::size_t nt = a.size().tiles(), b = a.size().b;
  std::vector<starpu_data_handle_t> handles(nt * nt, nullptr);
  for (std::size_t i = 0; i < nt; ++i)
    for (std::size_t j = 0; j <= i; ++j)
      sp::register_tile(handles[i * nt + j], a.tile(i, j), b);
  int ret = 0;
  cholesky_kernel::for_each_task(nt, [&](const cholesky_kernel::tile_task& t) {
    if (ret != 0) return;
    ret = sp::submit(
        t, [&](std::size_t i, std::size_t j) { return handles[i * nt + j]; },
        [](auto... args) { return starpu_task_insert(args...); });
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
