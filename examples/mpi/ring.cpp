// Two (or more) ranks: tasks that await messages, a collective, and a task graph across ranks.
// Run: mpirun -np 2 build/release/bin/example-mpi-ring
#include <locus/dataflow.hpp>
#include <locus/locus.hpp>
#include <locus/mpi.hpp>

#include <cstdio>

namespace df = locus::dataflow;
namespace mpi = locus::mpi;

// Each rank passes a token to its right neighbour; co_await suspends the task, not the worker.
locus::task<long> ring(int rank, int size) {
  long out = 100 + rank, in = 0;
  auto r = mpi::irecv(std::span(&in, 1), (rank + size - 1) % size, 0);
  co_await mpi::send(std::span(&out, 1), (rank + 1) % size, 0);
  co_await r;
  long total = 0;
  co_await mpi::allreduce(std::span(&in, 1), std::span(&total, 1), mpi::reduce_op::sum);
  co_return total;
}

int main(int argc, char** argv) {
  mpi::context ctx(argc, argv);
  locus::config cfg = locus::config::from_env();
  cfg.pin = false;  // several ranks on one machine: do not pin every rank's workers alike
  locus::runtime rt(cfg);
  const int rank = ctx.rank(), size = ctx.size();

  const long total = ctx.run(rt, ring(rank, size));

  // A graph over the ranks: key k is produced on rank k % size from key k - 1.
  mpi::dist_graph dg(rt, [size](std::uint64_t k) { return static_cast<int>(k % size); });
  constexpr std::uint64_t n = 10;
  if (dg.mine(0)) dg.event<long>(0).satisfy(1L);
  for (std::uint64_t k = 1; k < n; ++k) {
    if (!dg.mine(k)) continue;
    auto out = dg.event<long>(k);
    auto t = dg.task(1, [out](df::edt_args& in) mutable { out.satisfy(2 * in.get<long>(0)); });
    df::add_dependence(dg.event<long>(k - 1), t, 0);
  }
  dg.wait();

  long last = 0;
  if (dg.mine(n - 1)) last = dg.event<long>(n - 1).get();
  std::printf("rank %d of %d: ring total %ld%s\n", rank, size, total,
              dg.mine(n - 1) ? (", graph result " + std::to_string(last)).c_str() : "");
  const bool ok = total == 100L * size + size * (size - 1) / 2 && (!dg.mine(n - 1) || last == 512);
  return ok ? 0 : 1;
}
