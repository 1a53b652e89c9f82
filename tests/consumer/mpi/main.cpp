// Uses locus::mpi from outside: every rank adds its rank through an awaitable allreduce.
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
    co_return s;
  }(ctx.rank()));
  const int n = ctx.size();
  std::printf("consumer-mpi: rank %d of %d, sum of ranks %d\n", ctx.rank(), n, sum);
  return sum == n * (n - 1) / 2 ? 0 : 1;
}
