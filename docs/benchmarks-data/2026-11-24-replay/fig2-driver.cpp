// The fib drivers of docs/benchmarks-replay.md, Figures 2a-2c (issue 8). Built like
// ../2026-11-23c/replay-driver.cpp:
//   g++ -std=c++20 -O3 -DNDEBUG -Iinclude -DLOCUS_HAVE_HWLOC=1 THIS src/*.cpp \
//       src/locality/*.cpp src/schedule/*.cpp -lhwloc -lpthread -o fig2
// Every mode runs its configurations once per round, in an order rotated each round
// (interleaved), and prints one JSON object per run.
//   fig2 a N_LO N_HI WORKERS ROUNDS
//      fib(n), n in [N_LO, N_HI]: untraced, traced, and StOWS / StUWS / RelWS replays of a
//      template traced once per n on the same runtime (the paper's Figure 2a: overheads).
//   fig2 b N WORKERS ROUNDS OTHER_WORKERS
//      fib(N + 6): untraced, RelWS and StOWS on its own template, on the template of fib(N)
//      (changed size) and on a fib(N + 6) template traced on OTHER_WORKERS workers (changed
//      worker count, remapped w mod WORKERS) (Figure 2b: RelWS adapting a schedule).
//   fig2 c N WORKERS ROUNDS SLOW_WORKER SPIN
//      fib(N) whose leaves spin SPIN iterations when run by worker SLOW_WORKER ("one slowed
//      worker"): untraced, StOWS and RelWS on a template traced without the slowdown; the
//      same without the slowdown for reference (Figure 2c: StOWS waits for the slow worker,
//      RelWS lets the others take its work).
// All on one runtime whose scheduler is the replay scheduler, so "untraced" is the replay
// scheduler with no plan armed (Cilk's rule: work-first, random victims).
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <locus/locus.hpp>
#include <locus/schedule/replay.hpp>
#include <map>
#include <string>
#include <vector>

namespace {

namespace ls = locus::schedule;

locus::task<long> fib(int n) {
  if (n < 2) co_return n;
  auto a = co_await locus::spawn(fib(n - 1));
  long b = co_await fib(n - 2);
  co_await locus::sync();
  co_return a.get() + b;
}

std::atomic<int> g_slow_worker{-1};
unsigned g_spin = 0;

/// fib whose leaves spin g_spin iterations on worker g_slow_worker.
locus::task<long> fib_slowed(int n) {
  if (n < 2) {
    if (locus::this_worker::index() == g_slow_worker.load(std::memory_order_relaxed)) {
      volatile unsigned sink = 0;
      for (unsigned i = 0; i < g_spin; ++i)
        sink = sink + i;
    }
    co_return n;
  }
  auto a = co_await locus::spawn(fib_slowed(n - 1));
  long b = co_await fib_slowed(n - 2);
  co_await locus::sync();
  co_return a.get() + b;
}

struct config {
  std::string name;
  int n;
  std::function<long()> run;
};

struct runtime_box {
  std::shared_ptr<ls::replay_scheduler> sched = ls::make_replay_scheduler();
  std::unique_ptr<locus::runtime> rt;
  explicit runtime_box(unsigned workers) {
    locus::config cfg;
    cfg.workers = workers;
    cfg.places = "none";
    cfg.custom_scheduler = sched->scheduler();
    rt = std::make_unique<locus::runtime>(cfg);
  }
};

void rounds(runtime_box& box, unsigned workers, int count, const std::vector<config>& configs,
            const char* figure) {
  std::map<int, long> expect;
  for (int r = 0; r < count; ++r) {
    for (std::size_t k = 0; k < configs.size(); ++k) {
      const config& c = configs[(k + static_cast<std::size_t>(r)) % configs.size()];
      box.rt->reset_stats();
      const auto t0 = std::chrono::steady_clock::now();
      const long v = c.run();
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (expect.count(c.n) == 0) expect[c.n] = v;
      if (v != expect[c.n]) std::exit(1);
      const auto st = box.rt->stats().total();
      std::printf(
          "{\"figure\":\"%s\",\"config\":\"%s\",\"workers\":%u,\"n\":%d,\"round\":%d,"
          "\"seconds\":%.6f,\"steals\":%llu}\n",
          figure, c.name.c_str(), workers, c.n, r, s,
          static_cast<unsigned long long>(st.steals_succeeded));
      std::fflush(stdout);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 6) return 2;
  const std::string fig = argv[1];
  std::vector<config> configs;
  std::vector<ls::steal_tree> keep;  // templates, alive while the configurations run
  keep.reserve(64);
  if (fig == "a") {
    const int lo = std::atoi(argv[2]);
    const int hi = std::atoi(argv[3]);
    const auto workers = static_cast<unsigned>(std::atoi(argv[4]));
    runtime_box box(workers);
    locus::runtime& rt = *box.rt;
    for (int n = lo; n <= hi; ++n) {
      const ls::steal_tree* t = &keep.emplace_back(ls::run_traced(rt, fib(n)).tree);
      configs.push_back({"untraced", n, [&rt, n] { return rt.run(fib(n)); }});
      configs.push_back({"traced", n, [&rt, n] { return ls::run_traced(rt, fib(n)).value; }});
      for (auto m : {ls::replay_mode::stows, ls::replay_mode::stuws, ls::replay_mode::relws})
        configs.push_back({std::string(ls::to_string(m)), n,
                           [&rt, n, t, m] { return ls::run_replayed(rt, fib(n), *t, m); }});
    }
    rounds(box, workers, std::atoi(argv[5]), configs, "2a");
  } else if (fig == "b" && argc >= 6) {
    const int n = std::atoi(argv[2]);
    const auto workers = static_cast<unsigned>(std::atoi(argv[3]));
    const auto other = static_cast<unsigned>(std::atoi(argv[5]));
    const int big = n + 6;
    ls::steal_tree other_tmpl(1, 0);
    {
      runtime_box o(other);
      other_tmpl = ls::run_traced(*o.rt, fib(big)).tree;
    }
    runtime_box box(workers);
    locus::runtime& rt = *box.rt;
    const ls::steal_tree* own = &keep.emplace_back(ls::run_traced(rt, fib(big)).tree);
    const ls::steal_tree* small = &keep.emplace_back(ls::run_traced(rt, fib(n)).tree);
    const ls::steal_tree* foreign = &keep.emplace_back(other_tmpl);
    configs.push_back({"untraced", big, [&rt, big] { return rt.run(fib(big)); }});
    const std::pair<const char*, const ls::steal_tree*> tmpls[] = {
        {"own", own}, {"from-n", small}, {"from-other-workers", foreign}};
    for (const auto& [label, t] : tmpls) {
      for (auto m : {ls::replay_mode::relws, ls::replay_mode::stows}) {
        configs.push_back({std::string(ls::to_string(m)) + "-" + label, big,
                           [&rt, big, t = t, m] { return ls::run_replayed(rt, fib(big), *t, m); }});
      }
    }
    rounds(box, workers, std::atoi(argv[4]), configs, "2b");
  } else if (fig == "c" && argc >= 7) {
    const int n = std::atoi(argv[2]);
    const auto workers = static_cast<unsigned>(std::atoi(argv[3]));
    const int slow = std::atoi(argv[5]);
    g_spin = static_cast<unsigned>(std::atoi(argv[6]));
    runtime_box box(workers);
    locus::runtime& rt = *box.rt;
    const ls::steal_tree* t = &keep.emplace_back(ls::run_traced(rt, fib_slowed(n)).tree);
    for (bool slowed : {true, false}) {
      const std::string suffix = slowed ? "-slowed" : "";
      const auto set = [slowed, slow] { g_slow_worker.store(slowed ? slow : -1); };
      configs.push_back({"untraced" + suffix, n, [&rt, n, set] {
                           set();
                           return rt.run(fib_slowed(n));
                         }});
      for (auto m : {ls::replay_mode::stows, ls::replay_mode::relws}) {
        configs.push_back({std::string(ls::to_string(m)) + suffix, n, [&rt, n, t, m, set] {
                             set();
                             return ls::run_replayed(rt, fib_slowed(n), *t, m);
                           }});
      }
    }
    rounds(box, workers, std::atoi(argv[4]), configs, "2c");
  } else {
    return 2;
  }
}
