// Steal-tree memory after RelWS iterations (docs/benchmarks-replay.md): fib(N) traced once,
// then ITER iterations of run_replayed_traced under relws, each on the previous iteration's
// tree (the iterative loop's chain); prints nodes, KiB in total and KiB per worker each time.
// Built like replay-driver.cpp. Usage: N WORKERS ITER.
#include <cstdio>
#include <cstdlib>
#include <locus/locus.hpp>
#include <locus/schedule/replay.hpp>

namespace {
locus::task<long> fib(int n) {
  if (n < 2) co_return n;
  auto a = co_await locus::spawn(fib(n - 1));
  long b = co_await fib(n - 2);
  co_await locus::sync();
  co_return a.get() + b;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) return 2;
  const int n = std::atoi(argv[1]);
  const unsigned workers = static_cast<unsigned>(std::atoi(argv[2]));
  const int iterations = std::atoi(argv[3]);
  namespace ls = locus::schedule;
  auto sched = ls::make_replay_scheduler();
  locus::config cfg;
  cfg.workers = workers;
  cfg.places = "none";
  cfg.custom_scheduler = sched->scheduler();
  locus::runtime rt{cfg};
  ls::steal_tree t = ls::run_traced(rt, fib(n)).tree;
  for (int i = 0; i <= iterations; ++i) {
    const auto m = t.memory();
    std::printf(
        "{\"iteration\":%d,\"workers\":%u,\"n\":%d,\"nodes\":%zu,\"kib_total\":%.3f,"
        "\"kib_per_worker\":%.3f,\"random_steals\":%llu}\n",
        i, workers, n, t.size(), static_cast<double>(m.total_bytes) / 1024.0, m.kib_per_worker(),
        static_cast<unsigned long long>(sched->report().random_steals));
    if (i == iterations) break;
    t = ls::run_replayed_traced(rt, fib(n), t, ls::replay_mode::relws).tree;
  }
}
