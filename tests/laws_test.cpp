// The laws scheduler (locus/laws.hpp) and iterations (locus/iterate.hpp): allocation of each
// leaf to the socket owning its data, no cross-socket work in the first iteration, the
// cpu-bound fallback, and bad inputs. Algorithm 1 is in laws_search_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "laws_support.hpp"
#include "locus/ext/core.hpp"
#include "locus/iterate.hpp"
#include "locus/laws.hpp"
#include "locus/locus.hpp"

namespace {

using laws_test::laws_config;
using laws_test::sweep;

/// Every leaf of the first iteration ran on the socket owning its data; `sockets` lists the
/// packages that have workers, in order (part i belongs to sockets[i]).
void expect_leaves_on_owners(const sweep& sw, const std::vector<unsigned>& sockets) {
  std::vector<std::pair<std::size_t, std::size_t>> ls;
  sw.leaves(0, sw.a.size(), ls);
  const auto m = static_cast<unsigned>(sockets.size());
  std::vector<unsigned> per_socket(m, 0);
  for (const auto& [lo, hi] : ls) {
    const unsigned part = sw.owner(lo, hi, m);
    EXPECT_EQ(sw.leaf_socket[lo].load(), static_cast<int>(sockets[part]))
        << "leaf [" << lo << ", " << hi << ") of part " << part;
    ++per_socket[part];
  }
  for (unsigned i = 0; i < m; ++i)
    EXPECT_GT(per_socket[i], 0u) << "socket part " << i << " got no leaf";
}

TEST(Laws, FirstIterationSendsEachLeafToItsSocketOn4Sockets) {
  locus::runtime rt(laws_config("sockets=4,cores=2", 8));
  EXPECT_EQ(rt.scheduler_name(), "laws");
  sweep sw(4096, 64);
  sw.rt = &rt;
  const auto recs = locus::iterate(rt, 3, [&](std::size_t i) {
    sw.record = i == 0;  // later iterations may move whole CF subtrees across sockets
    return sw.root();
  });
  expect_leaves_on_owners(sw, {0, 1, 2, 3});
  ASSERT_EQ(recs.size(), 3u);
  EXPECT_EQ(recs[0].stage, "first-touch");
  EXPECT_EQ(recs[0].cross_socket_takes, 0u);
  EXPECT_EQ(recs[0].workload, "memory-bound");
  EXPECT_EQ(recs[1].stage.substr(0, 5) == "searc" || recs[1].stage == "tuned", true);
  for (double v : sw.a)
    ASSERT_EQ(v, 3.0);
}

TEST(Laws, FirstIterationSendsEachLeafToItsSocketOn3SocketsWithStraddlingLeaves) {
  // 3 parts of 3000 elements: boundaries at 1000 and 2000 fall inside leaves of 47 elements.
  locus::runtime rt(laws_config("sockets=3,cores=2", 6));
  sweep sw(3000, 64);
  sw.rt = &rt;
  (void)locus::iterate(rt, 1, [&](std::size_t) { return sw.root(); });
  expect_leaves_on_owners(sw, {0, 1, 2});
}

TEST(Laws, SocketsWithoutWorkersAreSkipped) {
  // 3 workers spread over 4 sockets: socket 3 has none, so M = 3 parts over sockets 0..2.
  locus::runtime rt(laws_config("sockets=4,cores=2", 3));
  std::vector<unsigned> sockets;
  for (unsigned w = 0; w < rt.num_workers(); ++w)
    sockets.push_back(rt.topo().cores()[rt.core_of(w)].package);
  std::sort(sockets.begin(), sockets.end());
  sockets.erase(std::unique(sockets.begin(), sockets.end()), sockets.end());
  ASSERT_EQ(sockets.size(), 3u);
  sweep sw(3072, 64);
  sw.rt = &rt;
  (void)locus::iterate(rt, 1, [&](std::size_t) { return sw.root(); });
  expect_leaves_on_owners(sw, sockets);
}

TEST(Laws, NoCrossSocketWorkInTheFirstIterationEvenWithCrossPlaceStealing) {
  locus::config cfg = laws_config("sockets=4,cores=2", 8, locus::make_laws_scheduler());
  cfg.cross_place_steals = true;  // the built-in schedulers would steal across sockets
  locus::runtime rt(cfg);
  for (int round = 0; round < 5; ++round) {
    sweep sw(4096, 32);
    sw.rt = &rt;
    const auto recs = locus::iterate(rt, 1, [&](std::size_t) { return sw.root(); });
    EXPECT_EQ(recs[0].cross_socket_takes, 0u);
    expect_leaves_on_owners(sw, {0, 1, 2, 3});
  }
}

// Parts that do not align with the binary tree (3 sockets): the socket level is the shallowest
// depth with a task inside one part, not a leaf's near a boundary, and when the whole data fits
// S_c the CF roots are that level's tasks. Before this rule every spawn of GE 96 at 3 workers
// on sockets=4,cores=1 was a hand-off to another socket's pool (docs/design/0017, "Socket
// level"); the count of help-first spawns is what a hand-off costs, without a clock.
TEST(Laws, OnThreeSocketsTheSocketLevelIsTheShallowestAndHandOffsFollowThePartBoundaries) {
  locus::laws_options o;
  o.tune = false;
  locus::runtime rt(laws_config("sockets=3,cores=1", 3, locus::make_laws_scheduler(o)));
  sweep sw(3072, 64);  // 47 spawns per iteration, leaves of 48 at depth 6; parts of 1024
  sw.rt = &rt;
  std::uint64_t hf_before = 0;
  constexpr std::size_t iterations = 4;
  const auto recs = locus::iterate(rt, iterations, [&](std::size_t i) {
    if (i == 1) hf_before = rt.stats().total().spawns_help_first;  // between runs: exact
    return sw.root();
  });
  const std::uint64_t hf = rt.stats().total().spawns_help_first - hf_before;
  ASSERT_EQ(recs.size(), iterations);
  for (std::size_t i = 1; i < iterations; ++i) {
    EXPECT_EQ(recs[i].stage, "tuned");
    // [0, 768), the first task inside one part: depth 3 (root() calls split(0, n), depth 1,
    // whose children are at depth 2). The deepest such depth would be a leaf's, 7.
    EXPECT_EQ(recs[i].cf_level, 3) << "iteration " << i;
  }
  // Per packed iteration: the 3 spawns down to the CF roots, and the spawns along the two part
  // boundaries (at most one per level below the CF level each): 3 + 2 * 4 = 11 of the 47.
  EXPECT_LE(hf, (iterations - 1) * 11) << "help-first spawns over the packed iterations";
  for (double v : sw.a)
    ASSERT_EQ(v, static_cast<double>(iterations));
}

locus::task<long> fib(int n) {
  if (n < 2) co_return n;
  auto a = co_await locus::spawn(fib(n - 1));
  const long b = co_await fib(n - 2);
  co_await locus::sync();
  co_return a.get() + b;
}

// One socket with workers: after the first iteration LAWS is plain stealing (no gate, no pool).
TEST(Laws, OneSocketFallsBackToPlainStealingAfterTheFirstIteration) {
  locus::runtime rt(laws_config("sockets=1,cores=4", 4));
  sweep sw(4096, 64);
  sw.rt = &rt;
  const auto recs = locus::iterate(rt, 3, [&](std::size_t) { return sw.root(); });
  ASSERT_EQ(recs.size(), 3u);
  EXPECT_EQ(recs[0].stage, "first-touch");
  EXPECT_EQ(recs[0].workload, "memory-bound");
  EXPECT_EQ(recs[1].stage, "plain");
  EXPECT_EQ(recs[2].stage, "plain");
  EXPECT_EQ(recs[2].cf_roots, 0u);
  for (double v : sw.a)
    ASSERT_EQ(v, 3.0);
}

TEST(Laws, CpuBoundProgramsFallBackToPlainStealing) {
  locus::runtime rt(laws_config("sockets=2,cores=2", 4));
  long got = 0;
  const auto recs =
      locus::iterate(rt, 3, [&](std::size_t) -> locus::task<void> { got = co_await fib(18); });
  EXPECT_EQ(got, 2584);
  EXPECT_EQ(recs[0].workload, "cpu-bound");
  EXPECT_EQ(recs[1].stage, "plain");
  EXPECT_EQ(recs[2].stage, "plain");
  EXPECT_EQ(recs[2].cf_roots, 0u);
  EXPECT_EQ(recs[2].cross_socket_takes, 0u);
  // Outside iterate() too: a program without data runs (its subtrees on plain stealing).
  EXPECT_EQ(rt.run(fib(16)), 987);
}

TEST(Laws, WorkloadRule) {
  using locus::ext::workload;
  EXPECT_EQ(locus::ext::classify_workload(0, 100), workload::cpu_bound);
  EXPECT_EQ(locus::ext::classify_workload(255 << 10, 1 << 10), workload::cpu_bound);
  EXPECT_EQ(locus::ext::classify_workload(64 << 20, 1024), workload::memory_bound);
  EXPECT_EQ(locus::ext::classify_workload(4096, 0), workload::memory_bound);
}

TEST(Laws, ARangeOutsideTheRootsIsAClearError) {
  locus::runtime rt(laws_config("sockets=2,cores=1", 2));
  std::vector<double> a(1024), other(1024);
  const auto body = [&](std::size_t) -> locus::task<void> {
    const auto r = locus::data_range::of(a.data(), a.size(), locus::access::write);
    const auto o = locus::data_range::of(other.data(), other.size(), locus::access::write);
    auto inner = [](const locus::data_range* x) -> locus::task<void> {
      co_await locus::spawn(locus::with_data([]() -> locus::task<void> { co_return; }(), *x));
      co_await locus::sync();
    };
    co_await locus::with_data(inner(&o), r, {1, 8});
  };
  try {
    (void)locus::iterate(rt, 1, body);
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("is not inside the data of the iteration's root"),
              std::string::npos)
        << e.what();
  }
  // The runtime stays usable.
  sweep sw(1024, 64);
  sw.rt = &rt;
  (void)locus::iterate(rt, 1, [&](std::size_t) { return sw.root(); });
  EXPECT_EQ(sw.a[0], 1.0);
}

TEST(Iterate, MisuseIsAClearError) {
  locus::runtime rt(laws_config("sockets=2,cores=1", 2));
  // Nested: inside another iterate's body (the body runs on the calling thread).
  EXPECT_THROW((void)locus::iterate(rt, 1,
                                    [&](std::size_t) -> locus::task<void> {
                                      (void)locus::iterate(
                                          rt, 1,
                                          [](std::size_t) -> locus::task<void> { co_return; });
                                      co_return;
                                    }),
               std::logic_error);
  // The scope was closed: a later loop works.
  int n = 0;
  (void)locus::iterate(rt, 2, [&](std::size_t) -> locus::task<void> {
    ++n;
    co_return;
  });
  EXPECT_EQ(n, 2);
}

TEST(Iterate, RecordsAccountingPerIterationUnderAnyScheduler) {
  locus::runtime rt(laws_test::accounted("sockets=2,cores=1,l3=1MiB,l2=64KiB",
                                         2));  // slaw: no hooks, still measured
  sweep sw(8192, 256);
  sw.rt = &rt;
  const auto recs = locus::iterate(rt, 2, [&](std::size_t) { return sw.root(); });
  ASSERT_EQ(recs.size(), 2u);
  EXPECT_TRUE(recs[1].accounting);
  EXPECT_EQ(recs[1].bytes, 8192u * sizeof(double));
  EXPECT_TRUE(recs[1].local_share.has_value());
  EXPECT_EQ(recs[1].scheduler, "slaw");
  EXPECT_EQ(recs[1].stage, "");
  const std::string json = locus::to_json(recs);
  EXPECT_EQ(json.front(), '[');
  EXPECT_NE(json.find("\"index\":1"), std::string::npos) << json;
  EXPECT_NE(json.find("\"bytes\":65536"), std::string::npos) << json;
  EXPECT_NE(json.find("\"bytes_per_socket\":["), std::string::npos) << json;
}

TEST(Laws, OneSchedulerObjectPerRuntime) {
  const locus::config cfg = laws_config("sockets=2,cores=1", 2, locus::make_laws_scheduler());
  locus::runtime a(cfg);
  EXPECT_THROW(locus::runtime b(cfg), locus::config_error);
}

TEST(Laws, ModelledMissCostNeedsAccounting) {
  locus::laws_options o;
  o.cost = locus::laws_cost::modelled_misses;
  locus::runtime rt(laws_config("sockets=2,cores=1", 2, locus::make_laws_scheduler(o)));
  sweep sw(8192, 64);
  sw.rt = &rt;
  EXPECT_THROW((void)locus::iterate(rt, 2, [&](std::size_t) { return sw.root(); }),
               locus::config_error);
}

TEST(Laws, TheSchedulerNameParses) {
  EXPECT_EQ(locus::parse_scheduler("LAWS", "LOCUS_SCHEDULER"), locus::scheduler_kind::laws);
  EXPECT_EQ(locus::to_string(locus::scheduler_kind::laws), "laws");
}

}  // namespace
