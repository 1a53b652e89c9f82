// The timing driver of docs/benchmarks-replay.md: fib(n) on locus untraced, traced, and
// replayed under StOWS / StUWS / RelWS from a template traced on the same runtime, plus the
// template of fib(n - 6) replayed under RelWS on fib(n) (the paper's Figure 2b, changed size).
// Built with: g++ -std=c++20 -O3 -DNDEBUG -Iinclude -DLOCUS_HAVE_HWLOC=1 THIS src/*.cpp
// src/locality/*.cpp src/schedule/*.cpp -lhwloc -lpthread. Usage: N WORKERS ROUNDS [CONFIG]
// (CONFIG: run only that configuration, e.g. under callgrind).
// Every round runs each configuration once, in a rotating order (interleaved); prints one JSON
// object per run: {"config":..., "workers":..., "n":..., "seconds":..., "steals":...}.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <locus/locus.hpp>
#include <locus/schedule/replay.hpp>
#include <string>
#include <vector>

namespace {

locus::task<long> fib(int n) {
  if (n < 2) co_return n;
  auto a = co_await locus::spawn(fib(n - 1));
  long b = co_await fib(n - 2);
  co_await locus::sync();
  co_return a.get() + b;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) return 2;
  const int n = std::atoi(argv[1]);
  const unsigned workers = static_cast<unsigned>(std::atoi(argv[2]));
  const int rounds = std::atoi(argv[3]);
  const std::string only = argc > 4 ? argv[4] : "";
  namespace ls = locus::schedule;
  auto sched = ls::make_replay_scheduler();
  locus::config cfg;
  cfg.workers = workers;
  cfg.places = "none";
  cfg.custom_scheduler = sched->scheduler();
  locus::runtime rt{cfg};
  // Templates: fib(n) and fib(n - 6), traced once each.
  const ls::steal_tree tmpl = ls::run_traced(rt, fib(n)).tree;
  const ls::steal_tree small = ls::run_traced(rt, fib(n - 6)).tree;
  struct config {
    std::string name;
    std::function<long()> run;
  };
  const std::vector<config> configs = {
      {"untraced", [&] { return rt.run(fib(n)); }},
      {"traced", [&] { return ls::run_traced(rt, fib(n)).value; }},
      {"stows", [&] { return ls::run_replayed(rt, fib(n), tmpl, ls::replay_mode::stows); }},
      {"stuws", [&] { return ls::run_replayed(rt, fib(n), tmpl, ls::replay_mode::stuws); }},
      {"relws", [&] { return ls::run_replayed(rt, fib(n), tmpl, ls::replay_mode::relws); }},
      {"relws-from-n-6",
       [&] { return ls::run_replayed(rt, fib(n), small, ls::replay_mode::relws); }},
      {"stows-from-n-6",
       [&] { return ls::run_replayed(rt, fib(n), small, ls::replay_mode::stows); }},
  };
  long expect = -1;
  for (int r = 0; r < rounds; ++r) {
    for (std::size_t k = 0; k < configs.size(); ++k) {
      const config& c = configs[(k + static_cast<std::size_t>(r)) % configs.size()];
      if (!only.empty() && c.name != only) continue;
      rt.reset_stats();
      const auto t0 = std::chrono::steady_clock::now();
      const long v = c.run();
      const double s = seconds_since(t0);
      if (expect < 0) expect = v;
      if (v != expect) return 1;
      std::printf(
          "{\"config\":\"%s\",\"workers\":%u,\"n\":%d,\"round\":%d,\"seconds\":%.6f,\"steals\":%"
          "llu,"
          "\"template_nodes\":%zu}\n",
          c.name.c_str(), workers, n, r, s,
          static_cast<unsigned long long>(rt.stats().total().steals_succeeded), tmpl.size());
      std::fflush(stdout);
    }
  }
}
