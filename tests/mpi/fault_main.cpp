// locus-mpi-fault: rank 1's task throws after a barrier; rank 0 waits for a message rank 1
// never sends; any further rank computes without touching MPI. fault_check.cmake runs it under
// mpirun and requires every rank to report rank 1's failure and the job to end in bounded time.
#include <locus/locus.hpp>
#include <locus/mpi.hpp>

#include <chrono>
#include <cstdio>
#include <stdexcept>

namespace mpi = locus::mpi;

namespace {
locus::task<int> body(int rank) {
  co_await mpi::barrier();
  if (rank == 1) throw std::runtime_error("task failed on purpose");
  if (rank == 0) {
    int never = 0;
    co_await mpi::recv(std::span(&never, 1), 1, 5);
    co_return never;
  }
  // A rank busy with work of its own: it learns of the fault only through the context's
  // watchdog, which ends the job after fault_timeout.
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  volatile long spin = 0;
  while (std::chrono::steady_clock::now() < end) spin = spin + 1;
  co_return 0;
}
}  // namespace

int main(int argc, char** argv) {
  mpi::options o;
  o.fault_timeout = std::chrono::milliseconds(3000);
  mpi::context ctx(argc, argv, o);
  locus::config cfg = locus::config::from_env();
  cfg.pin = false;
  locus::runtime rt(cfg);
  try {
    ctx.run(rt, body(ctx.rank()));
    std::printf("rank %d: finished without an error\n", ctx.rank());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rank %d: error: %s\n", ctx.rank(), e.what());
    return 1;
  }
}
