// tests/faults/faults.cpp — locus-faults, the fault suite's driver (tests/faults/run, `make
// faults`): many runtimes of one kind of work at a worker count far above the machine's cores,
// each result checked. A wrong result exits 1 with a message; a hang is caught by the script's
// timeout; a sanitizer report by the asan build.
//
//   locus-faults KIND WORKERS ROUNDS
//   KIND: forkjoin  fib and a wide spawn loop, every spawn policy
//         replay    trace fib, replay the tree under stows, stuws and relws
//         dataflow  random task graphs against their serial values
//         failing   random task graphs with throwing bodies and abandoned events (handles
//                   kept and dropped): wait() reports, nothing is left pending
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "flow_support.hpp"
#include "replay_support.hpp"
#include "test_support.hpp"

namespace {

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "locus-faults: %s\n", what.c_str());
  std::exit(1);
}

locus::config cfg(unsigned workers) {
  locus::config c;
  c.workers = workers;
  c.pin = false;
  c.topology = "sockets=2,cores=2";
  c.places = "none";
  return c;
}

locus::task<std::uint64_t> wide(unsigned n) {
  std::vector<locus::future<std::uint64_t>> parts;
  for (unsigned i = 0; i < n; ++i)
    parts.push_back(
        co_await locus::spawn([](unsigned k) -> locus::task<std::uint64_t> { co_return k; }(i)));
  co_await locus::sync();
  std::uint64_t s = 0;
  for (auto& p : parts)
    s += p.get();
  co_return s;
}

void forkjoin(unsigned workers, unsigned round) {
  constexpr locus::spawn_policy policies[] = {locus::spawn_policy::work_first,
                                              locus::spawn_policy::help_first,
                                              locus::spawn_policy::adaptive};
  locus::config c = cfg(workers);
  c.policy = policies[round % 3];
  locus::runtime rt(c);
  if (rt.run(locus_test::fib(20)) != 6765) fail("fib(20) != 6765");
  if (rt.run(wide(500)) != 500ULL * 499 / 2) fail("wide(500) lost a spawn");
}

void replay(unsigned workers) {
  replay_test::replay_runtime rr(workers);
  const auto traced = locus::schedule::run_traced(*rr.rt, locus_test::fib(18));
  if (traced.value != 2584) fail("traced fib(18) != 2584");
  for (auto mode : {locus::schedule::replay_mode::stows, locus::schedule::replay_mode::stuws,
                    locus::schedule::replay_mode::relws})
    if (locus::schedule::run_replayed(*rr.rt, locus_test::fib(18), traced.tree, mode) != 2584)
      fail("replayed fib(18) != 2584");
}

void dataflow(unsigned workers, std::uint64_t seed) {
  namespace df = locus::dataflow;
  const auto in = flow_test::random_inputs(1500, 3, seed);
  const auto want = flow_test::serial_values(in);
  std::vector<std::atomic<std::uint64_t>> got(in.size());
  locus::runtime rt(cfg(workers));
  df::graph g(rt);
  std::vector<df::event<std::uint64_t>> out(in.size());
  for (std::uint32_t i = 0; i < in.size(); ++i) {
    auto t = g.task(static_cast<std::uint32_t>(in[i].size()),
                    [&got, i, e = out[i]](df::edt_args& a) mutable {
                      std::uint64_t s = 0;
                      for (std::uint32_t k = 0; k < a.size(); ++k)
                        s += a.get<std::uint64_t>(k);
                      const std::uint64_t v = flow_test::dag_value(i, s);
                      got[i].store(v, std::memory_order_relaxed);
                      e.satisfy(v);
                    });
    for (std::uint32_t k = 0; k < in[i].size(); ++k)
      add_dependence(out[in[i][k]], t, k);
  }
  g.wait();
  for (std::size_t i = 0; i < in.size(); ++i)
    if (got[i].load() != want[i]) fail("dataflow task " + std::to_string(i) + " wrong");
}

void failing(unsigned workers, std::uint64_t seed) {
  const auto r =
      flow_test::run_failing_graph(cfg(workers), seed, seed % 2 == 0, seed % 3 == 0 ? 20 : 400);
  if (!r.failed) fail("a failing graph's wait() did not throw");
  if (r.pending_after != 0) fail("a failing graph left tasks pending");
  if (r.ran + r.skipped > r.tasks - 1) fail("a task ran twice, or the cancelled one ran");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: locus-faults forkjoin|replay|dataflow|failing WORKERS ROUNDS\n");
    return 2;
  }
  const std::string kind = argv[1];
  const unsigned workers = static_cast<unsigned>(std::strtoul(argv[2], nullptr, 10));
  const unsigned rounds = static_cast<unsigned>(std::strtoul(argv[3], nullptr, 10));
  if (workers == 0 || workers > 4096 || rounds == 0) {
    std::fprintf(stderr, "locus-faults: WORKERS 1..4096, ROUNDS > 0\n");
    return 2;
  }
  for (unsigned r = 0; r < rounds; ++r) {
    if (kind == "forkjoin") {
      forkjoin(workers, r);
    } else if (kind == "replay") {
      replay(workers);
    } else if (kind == "dataflow") {
      dataflow(workers, 1000 + r);
    } else if (kind == "failing") {
      failing(workers, 2000 + r);
    } else {
      std::fprintf(stderr, "locus-faults: unknown KIND '%s'\n", kind.c_str());
      return 2;
    }
  }
  std::printf("locus-faults %s at %u workers: %u rounds ok\n", kind.c_str(), workers, rounds);
  return 0;
}
