// Uses locus::mpi from outside: every rank adds its rank through an awaitable allreduce (a
// request that waits), then sends the sum to itself and receives it (with direct start, requests
// done at their start, which carry their status).
#include <locus/locus.hpp>
#include <locus/mpi.hpp>

#include <cstdio>

int main(int argc, char** argv) {
  locus::mpi::context ctx(argc, argv);
  locus::config cfg;
  cfg.workers = 1;
  cfg.pin = false;
  locus::runtime rt(cfg);
  const int sum = ctx.run(rt, [](int rank) -> locus::task<int> {
    int s = 0;
    co_await locus::mpi::allreduce(std::span(&rank, 1), std::span(&s, 1),
                                   locus::mpi::reduce_op::sum);
    int back = -1;
    co_await locus::mpi::send(std::span(&s, 1), rank, 5);
    const locus::mpi::status st = co_await locus::mpi::recv(std::span(&back, 1), rank, 5);
    co_return st.source == rank&& st.bytes == sizeof(int) ? back : -1;
  }(ctx.rank()));
  const int n = ctx.size();
  std::printf("consumer-mpi: rank %d of %d, sum of ranks %d\n", ctx.rank(), n, sum);
  return sum == n * (n - 1) / 2 ? 0 : 1;
}
