// The cab scheduler at work (locus/cab.hpp): Eq. 4 from the declared data and the topology,
// the number and depth of the inter-socket tasks of a heat-shaped sweep for a given BL, every
// leaf under a leaf inter-socket task run by one squad, the livelock case (heads suspended in
// non-leaf inter-socket tasks on 2 squads), cab::spawn_inter and its errors, the cpu-bound
// fallback, and a stress run for TSan.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdio>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "locus/cab.hpp"
#include "locus/ext/core.hpp"
#include "locus/locus.hpp"
#include "split_support.hpp"

namespace {

/// Cilk's heat shape over `a`: first half spawned, second called; every task declares exactly
/// its own elements (read_write), so B read from the data is 2. Each leaf adds 1 to its
/// elements and records the worker that ran it.
struct sweep {
  std::vector<double> a;
  std::size_t leaf;
  std::size_t work = 0;                       ///< extra reads per leaf
  std::vector<std::atomic<int>> leaf_worker;  ///< by leaf start

  sweep(std::size_t n, std::size_t leaf_elems) : a(n, 0.0), leaf(leaf_elems), leaf_worker(n) {}

  locus::task<void> split(std::size_t lo, std::size_t hi) {
    if (hi - lo <= leaf) {
      for (std::size_t i = lo; i < hi; ++i)
        a[i] += 1.0;
      // Some work, so that idle workers look for it while the leaf runs (volatile: kept).
      volatile double sink = 0;
      for (std::size_t r = 0; r < work; ++r)
        sink = sink + a[lo + r % (hi - lo)];
      leaf_worker[lo].store(static_cast<int>(locus::ext::this_worker_index()));
      co_return;
    }
    const std::size_t mid = lo + (hi - lo) / 2;
    co_await locus::spawn(node(lo, mid));
    co_await node(mid, hi);
    co_await locus::sync();
  }
  locus::task<void> node(std::size_t lo, std::size_t hi) {
    return locus::with_data(
        split(lo, hi), locus::data_range::of(a.data() + lo, hi - lo, locus::access::read_write));
  }
  /// Leaves as [lo, hi) in order (the split above, replayed).
  void leaves(std::size_t lo, std::size_t hi,
              std::vector<std::pair<std::size_t, std::size_t>>& out) const {
    locus_test::halving_leaves(lo, hi, leaf, out);
  }
  /// The ranges of the tasks at depth `d` below the root (depth 0), as the split cuts them.
  void at_depth(std::size_t lo, std::size_t hi, int d,
                std::vector<std::pair<std::size_t, std::size_t>>& out) const {
    if (d == 0 || hi - lo <= leaf) {
      out.emplace_back(lo, hi);
      return;
    }
    const std::size_t mid = lo + (hi - lo) / 2;
    at_depth(lo, mid, d - 1, out);
    at_depth(mid, hi, d - 1, out);
  }
};

locus::config cab_config(const std::string& topo, unsigned workers, locus::cab_params p = {}) {
  locus::config cfg;
  cfg.scheduler = locus::scheduler_kind::cab;
  cfg.topology = topo;
  cfg.workers = workers;
  cfg.pin = false;
  cfg.cab = p;
  return cfg;
}

// ------------------------------------------------------------------ Eq. 4 at run time

/// BL as the scheduler computes it for a sweep of `n` doubles on `topo` (S_c from the topology,
/// S_d the root's declared bytes, B from the root's bytes over its first child's).
locus::cab::stats decided(const std::string& topo, unsigned workers, std::size_t n) {
  locus::runtime rt(cab_config(topo, workers));
  sweep sw(n, 256);
  rt.run(sw.node(0, n));
  for (double v : sw.a)
    EXPECT_EQ(v, 1.0);
  return locus::cab::stats_of(locus::ext::core_ref::of(rt));
}

TEST(CabScheduler, Eq4ReadsTheDeclaredDataAndTheTopology) {
  // 2 sockets of 64 KiB: S_d = 2 S_c exactly gives 2; one double more gives 3.
  const std::string two = "sockets=2,cores=1,l3=64KiB";
  const locus::cab::stats exact = decided(two, 2, 16384);
  EXPECT_EQ(exact.squads, 2u);
  EXPECT_EQ(exact.cache_bytes, 65536u);
  EXPECT_EQ(exact.data_bytes, 131072u);
  EXPECT_EQ(exact.branching, 2u);
  EXPECT_EQ(exact.root_depth, 0);
  EXPECT_EQ(exact.boundary_level, 2);
  EXPECT_EQ(exact.leaf_depth, 1);  // the paper's level 2: the root's children
  const locus::cab::stats above = decided(two, 2, 16385);
  EXPECT_EQ(above.boundary_level, 3);
  EXPECT_EQ(above.leaf_depth, 2);
  // 4 sockets, little data: the socket term, 1 + log2 4 = 3.
  EXPECT_EQ(decided("sockets=4,cores=1,l3=64KiB", 4, 1024).boundary_level, 3);
  // 4 sockets, 2 workers: M counts the sockets with workers (2), so 2.
  EXPECT_EQ(decided("sockets=4,cores=1,l3=64KiB", 2, 1024).boundary_level, 2);
  // One socket: 0, whatever the data.
  const locus::cab::stats one = decided("sockets=1,cores=2,l3=64KiB", 2, 65536);
  EXPECT_EQ(one.boundary_level, 0);
  EXPECT_EQ(one.inter_spawns, 0u);
}

TEST(CabScheduler, GivenValuesOverrideWhatIsDeclared) {
  locus::cab_params p;
  p.branching = 4;
  p.data_bytes = 64 * 65536 + 1;  // 4^3 S_c + 1: the data term 1 + 4 = 5
  locus::runtime rt(cab_config("sockets=2,cores=1,l3=64KiB", 2, p));
  sweep sw(4096, 256);
  rt.run(sw.node(0, sw.a.size()));
  const locus::cab::stats s = locus::cab::stats_of(locus::ext::core_ref::of(rt));
  EXPECT_EQ(s.branching, 4u);
  EXPECT_EQ(s.data_bytes, p.data_bytes);
  EXPECT_EQ(s.boundary_level, 5);
}

// ------------------------------------------------------------------ the tiers on heat

/// Runs the sweep `iterations` times under bl=`bl` on `topo` and checks, per iteration, the
/// inter-socket spawns (2^(BL-1) - 1: each inter-socket task above the leaves spawns one half
/// and calls the other) and leaf spawns (half the 2^(BL-1) leaf inter-socket tasks), and that
/// every leaf under a leaf inter-socket task ran on one squad.
/// The leaves under each leaf inter-socket task (the tasks at depth bl - 1) ran on one squad
/// (each leaf's record is its latest run); the squads those tasks used.
std::set<unsigned> expect_one_squad_per_leaf_task(const sweep& sw, locus::ext::core_ref core,
                                                  int bl, std::size_t iteration) {
  std::vector<std::pair<std::size_t, std::size_t>> tops;
  sw.at_depth(0, sw.a.size(), bl - 1, tops);
  EXPECT_EQ(tops.size(), std::size_t{1} << (bl - 1));
  std::set<unsigned> used;
  for (const auto& [tlo, thi] : tops) {
    std::vector<std::pair<std::size_t, std::size_t>> ls;
    sw.leaves(tlo, thi, ls);
    std::set<unsigned> squads;
    for (const auto& [lo, hi] : ls)
      squads.insert(locus::cab::squad_of(core, static_cast<unsigned>(sw.leaf_worker[lo].load())));
    EXPECT_EQ(squads.size(), 1u) << "iteration " << iteration << ": the leaves of the leaf "
                                 << "inter-socket task [" << tlo << ", " << thi << ") ran on "
                                 << squads.size() << " squads";
    used.insert(squads.begin(), squads.end());
  }
  return used;
}

/// Runs the sweep `iterations` times under bl=`bl` on `topo` and checks, per iteration, the
/// inter-socket spawns (2^(BL-1) - 1: each inter-socket task above the leaves spawns one half
/// and calls the other) and leaf spawns (half the 2^(BL-1) leaf inter-socket tasks), and that
/// every leaf under a leaf inter-socket task ran on one squad, the first iteration included
/// (the run's first spawn decides; a worker whose look began before sends what it stole from
/// another squad back, docs/design/0018).
void check_tiers(const std::string& topo, unsigned workers, int bl, int iterations) {
  locus::cab_params p;
  p.boundary_level = bl;
  locus::runtime rt(cab_config(topo, workers, p));
  const locus::ext::core_ref core = locus::ext::core_ref::of(rt);
  sweep sw(8192, 64);
  sw.work = 4000;
  std::set<unsigned> used;
  const auto recs = locus::iterate(rt, static_cast<std::size_t>(iterations), [&](std::size_t i) {
    if (i >= 1) {
      const std::set<unsigned> u = expect_one_squad_per_leaf_task(sw, core, bl, i - 1);
      used.insert(u.begin(), u.end());
    }
    return sw.node(0, sw.a.size());
  });
  const std::set<unsigned> last =
      expect_one_squad_per_leaf_task(sw, core, bl, static_cast<std::size_t>(iterations) - 1);
  used.insert(last.begin(), last.end());
  // Leaf inter-socket tasks go to the squads owning their data: more than one squad works.
  if (bl >= 2) {
    EXPECT_GE(used.size(), 2u);
  }
  for (double v : sw.a)
    ASSERT_EQ(v, static_cast<double>(iterations));
  const locus::cab::stats s = locus::cab::stats_of(core);
  EXPECT_EQ(s.boundary_level, bl);
  EXPECT_EQ(s.root_depth, 0);
  EXPECT_EQ(s.leaf_depth, bl - 1);
  const std::uint64_t tasks = std::uint64_t{1} << (bl - 1);  // leaf inter-socket tasks
  EXPECT_EQ(s.inter_spawns, (tasks - 1) * static_cast<std::uint64_t>(iterations));
  EXPECT_EQ(s.leaf_spawns, tasks / 2 * static_cast<std::uint64_t>(iterations));
  ASSERT_EQ(recs.size(), static_cast<std::size_t>(iterations));
  for (const auto& r : recs) {
    EXPECT_EQ(r.scheduler, "cab");
    EXPECT_EQ(r.stage, "tiered");
    EXPECT_EQ(r.cf_level, bl - 1);
    EXPECT_EQ(r.cf_roots, tasks / 2);
  }
}

TEST(CabScheduler, HeatHasTheInterSocketTasksOfItsBoundaryLevelEachRunByOneSquad) {
  check_tiers("sockets=4,cores=2", 8, 3, 6);
  check_tiers("sockets=4,cores=2", 8, 4, 6);
  check_tiers("sockets=2,cores=2", 4, 2, 6);
  check_tiers("sockets=3,cores=1", 3, 5, 4);
}

/// A task without data that keeps its worker busy for `n` additions.
locus::task<void> busy(int n) {
  volatile long sink = 0;
  for (int i = 0; i < n; ++i)
    sink = sink + i;
  co_return;
}

/// A run's root without data: a fan of busy tasks of different lengths (spawned before any
/// decision, so the workers that run them come back looking for work as plain stealing does,
/// at different times), then the sweep, whose first spawn decides the tier.
locus::task<void> busy_then_sweep(sweep* sw, int fan) {
  for (int i = 0; i < fan; ++i)
    co_await locus::spawn(busy(2000 * (1 + i % 8)));
  co_await sw->node(0, sw->a.size());
  co_await locus::sync();
}

// The run's first spawn decides the tier while other workers look for work as plain stealing
// does; every first iteration (a fresh locus::iterate decides anew) keeps each leaf
// inter-socket task's leaves on one squad. Many short first iterations on 8 workers
// oversubscribed on the host, each root first spawning busy tasks so that workers are looking
// when the decision comes (stats::sent_home counts the items sent back; how many is the
// host's chance, so it is reported, not checked).
TEST(CabScheduler, TheFirstIterationKeepsEveryLeafTaskOnOneSquad) {
  for (const int bl : {locus::cab_params::k_auto, 4}) {
    locus::cab_params p;
    p.boundary_level = bl;
    locus::runtime rt(cab_config("sockets=4,cores=2,l3=64KiB", 8, p));
    const locus::ext::core_ref core = locus::ext::core_ref::of(rt);
    sweep sw(8192, 64);
    sw.work = 500;
    constexpr int k_runs = 100;
    for (int run = 0; run < k_runs; ++run) {
      (void)locus::iterate(rt, 1, [&](std::size_t) { return busy_then_sweep(&sw, 12); });
      const int level = locus::cab::stats_of(core).boundary_level;
      ASSERT_GE(level, 1);
      (void)expect_one_squad_per_leaf_task(sw, core, level, 0);
      if (testing::Test::HasFailure()) break;
    }
    for (double v : sw.a)
      ASSERT_EQ(v, static_cast<double>(k_runs));
    std::printf("bl=%d: %llu items sent home over %d first iterations\n", bl,
                static_cast<unsigned long long>(locus::cab::stats_of(core).sent_home), k_runs);
  }
}

// BL = 1: the root is the only leaf inter-socket task; every leaf runs on the root's squad.
TEST(CabScheduler, BoundaryLevelOneKeepsTheWholeTreeInOneSquad) {
  check_tiers("sockets=4,cores=2", 8, 1, 6);
}

// ------------------------------------------------------------------ the livelock case

/// A tree whose inter-socket tasks above the leaves spawn every child (none called) and wait
/// at a sync, with no data declared (so every child goes to the spawning squad's pool). With
/// BL = 4 and 2 squads, the heads take a non-leaf inter-socket task each and suspend in it
/// while its children sit in the pools. Under the paper's busy flag (set from taking an
/// inter-socket task until it completes) both squads stay busy and no head takes from a pool
/// again: a livelock. Here "busy" is "a worker of the squad runs a task", which a suspended
/// head does not, so the heads take the children and the run finishes.
locus::task<long> inter_tree(int depth, int fan) {
  if (depth == 0) {
    long s = 0;
    for (int i = 0; i < 200; ++i)
      s += i % 7;
    co_return s;
  }
  std::vector<locus::future<long>> kids;
  kids.reserve(static_cast<std::size_t>(fan));
  for (int i = 0; i < fan; ++i)
    kids.push_back(co_await locus::spawn(inter_tree(depth - 1, fan)));
  co_await locus::sync();
  long total = 0;
  for (auto& k : kids)
    total += k.get();
  co_return total;
}

long inter_tree_expected(int depth, int fan) {
  long leaf = 0;
  for (int i = 0; i < 200; ++i)
    leaf += i % 7;
  long n = 1;
  for (int d = 0; d < depth; ++d)
    n *= fan;
  return leaf * n;
}

TEST(CabScheduler, HeadsSuspendedInNonLeafInterSocketTasksOnTwoSquadsFinish) {
  locus::cab_params p;
  p.boundary_level = 4;  // depths 1..3 are inter-socket; the tree is 5 deep
  locus::runtime rt(cab_config("sockets=2,cores=2", 4, p));
  for (int rep = 0; rep < 20; ++rep)
    EXPECT_EQ(rt.run(inter_tree(5, 3)), inter_tree_expected(5, 3));
  const locus::cab::stats s = locus::cab::stats_of(locus::ext::core_ref::of(rt));
  EXPECT_EQ(s.boundary_level, 4);
  EXPECT_EQ(s.leaf_depth, 3);
  EXPECT_EQ(s.inter_spawns, 20u * (3 + 9 + 27));
  EXPECT_EQ(s.leaf_spawns, 20u * 27);
  // Every inter-socket task was taken from a pool by a head (parent-first, nothing declared).
  EXPECT_EQ(s.pool_takes + s.cross_squad_takes, s.inter_spawns);
}

// The same with one worker per squad: the head is the squad; it must take the next task from
// the pools while its own inter-socket task waits.
TEST(CabScheduler, SingleWorkerSquadsFinishTheSuspendedTree) {
  locus::cab_params p;
  p.boundary_level = 3;
  locus::runtime rt(cab_config("sockets=2,cores=1", 2, p));
  for (int rep = 0; rep < 10; ++rep)
    EXPECT_EQ(rt.run(inter_tree(4, 4)), inter_tree_expected(4, 4));
}

// ------------------------------------------------------------------ manual control

locus::task<int> where_am_i() {
  co_return static_cast<int>(locus::ext::this_worker_index());
}

TEST(CabManual, SpawnInterRunsTheTaskOnTheNamedSquad) {
  locus::cab_params p;
  p.manual = true;
  locus::runtime rt(cab_config("sockets=3,cores=2", 6, p));
  const locus::ext::core_ref core = locus::ext::core_ref::of(rt);
  for (unsigned squad = 0; squad < 3; ++squad) {
    const int w = rt.run([](unsigned q) -> locus::task<int> {
      auto f = co_await locus::cab::spawn_inter(where_am_i(), q);
      co_await locus::sync();
      co_return f.get();
    }(squad));
    EXPECT_EQ(locus::cab::squad_of(core, static_cast<unsigned>(w)), squad);
  }
  EXPECT_EQ(locus::cab::stats_of(core).manual_spawns, 3u);
  EXPECT_EQ(locus::cab::stats_of(core).inter_spawns, 0u);  // manual: no automatic tier
}

TEST(CabManual, SpawnInterIsAnErrorWhereItMakesNoSense) {
  auto attempt = [](locus::runtime& rt, unsigned squad) {
    return rt.run([](unsigned q) -> locus::task<std::string> {
      try {
        auto f = co_await locus::cab::spawn_inter(where_am_i(), q);
        co_await locus::sync();
        (void)f.get();
        co_return "";
      } catch (const std::out_of_range& e) {
        co_return std::string("range: ") + e.what();
      } catch (const std::logic_error& e) {
        co_return std::string("logic: ") + e.what();
      }
    }(squad));
  };
  {
    locus::runtime one(cab_config("sockets=1,cores=2", 2));
    const std::string e = attempt(one, 0);
    EXPECT_EQ(e.rfind("logic: ", 0), 0u) << e;
    EXPECT_NE(e.find("one squad"), std::string::npos) << e;
  }
  {
    locus::runtime two(cab_config("sockets=2,cores=1", 2));
    const std::string e = attempt(two, 2);
    EXPECT_EQ(e.rfind("range: ", 0), 0u) << e;
    EXPECT_NE(e.find("squad 2 does not exist; expected 0 to 1"), std::string::npos) << e;
  }
  {
    locus::config cfg;
    cfg.topology = "sockets=2,cores=1";
    cfg.workers = 2;
    locus::runtime slaw(cfg);
    const std::string e = attempt(slaw, 1);
    EXPECT_EQ(e.rfind("logic: ", 0), 0u) << e;
    EXPECT_NE(e.find("does not run CAB"), std::string::npos) << e;
  }
  // Off the workers (no runtime to place on).
  EXPECT_THROW((void)locus::cab::spawn_inter(where_am_i(), 0), std::logic_error);
}

// ------------------------------------------------------------------ cpu-bound programs

locus::task<long> fib(int n) {
  if (n < 2) co_return n;
  auto a = co_await locus::spawn(fib(n - 1));
  const long b = co_await fib(n - 2);
  co_await locus::sync();
  co_return a.get() + b;
}

TEST(CabScheduler, AProgramWithoutDataRunsPlain) {
  locus::runtime rt(cab_config("sockets=2,cores=2", 4));
  EXPECT_EQ(rt.run(fib(20)), 6765);
  const locus::cab::stats s = locus::cab::stats_of(locus::ext::core_ref::of(rt));
  EXPECT_EQ(s.inter_spawns, 0u);
  EXPECT_EQ(s.boundary_level, -1);  // never decided: no data, no tier
  const auto recs = locus::iterate(
      rt, 2, [](std::size_t) -> locus::task<void> { EXPECT_EQ(co_await fib(15), 610); });
  EXPECT_EQ(recs[1].stage, "plain");
  EXPECT_EQ(recs[1].workload, "cpu-bound");
}

// Outside locus::iterate a decision describes the root it was made from: a run over other
// data, or a run declaring none, decides anew; a run over the same data keeps it.
TEST(CabScheduler, EachRunOutsideIterateDecidesForItsOwnRoot) {
  locus::runtime rt(cab_config("sockets=2,cores=1,l3=64KiB", 2));
  const locus::ext::core_ref core = locus::ext::core_ref::of(rt);
  sweep fits(16384, 256);  // S_d = 2 S_c: BL 2
  sweep over(16385, 256);  // S_d = 2 S_c + 8: BL 3
  rt.run(fits.node(0, fits.a.size()));
  const locus::cab::stats first = locus::cab::stats_of(core);
  EXPECT_EQ(first.boundary_level, 2);
  EXPECT_EQ(first.inter_spawns, 1u);
  EXPECT_EQ(rt.run(fib(15)), 610);
  const locus::cab::stats nodata = locus::cab::stats_of(core);
  EXPECT_EQ(nodata.boundary_level, -1);  // undecided: fib declares nothing
  EXPECT_EQ(nodata.inter_spawns, first.inter_spawns);
  rt.run(over.node(0, over.a.size()));
  EXPECT_EQ(locus::cab::stats_of(core).boundary_level, 3);
  EXPECT_EQ(locus::cab::stats_of(core).inter_spawns, first.inter_spawns + 3);
  rt.run(fits.node(0, fits.a.size()));
  EXPECT_EQ(locus::cab::stats_of(core).boundary_level, 2);
  rt.run(fits.node(0, fits.a.size()));
  EXPECT_EQ(locus::cab::stats_of(core).inter_spawns, first.inter_spawns + 3 + 2);
  for (double v : fits.a)
    ASSERT_EQ(v, 3.0);
}

// Data declared on the root but too little per task (classify_workload, LAWS's rule): the
// first iteration counts the tasks and the later ones run plain (BL = 0).
TEST(CabScheduler, TooLittleDataPerTaskIsCpuBoundFromTheSecondIteration) {
  locus::runtime rt(cab_config("sockets=2,cores=2", 4));
  std::vector<double> cell(4, 0.0);
  const auto recs = locus::iterate(rt, 3, [&](std::size_t) -> locus::task<void> {
    EXPECT_EQ(co_await locus::with_data(
                  fib(16), locus::data_range::of(cell.data(), cell.size(), locus::access::read)),
              987);
  });
  ASSERT_EQ(recs.size(), 3u);
  EXPECT_EQ(recs[0].stage, "tiered");
  EXPECT_EQ(recs[0].workload, "cpu-bound");
  EXPECT_EQ(recs[1].stage, "plain");
  EXPECT_EQ(recs[2].stage, "plain");
  EXPECT_EQ(locus::cab::stats_of(locus::ext::core_ref::of(rt)).boundary_level, 0);
}

// ------------------------------------------------------------------ stress (TSan)

TEST(CabStress, ManyRunsAtEveryLevelStayExact) {
  for (int bl : {0, 1, 2, 3, 6}) {
    locus::cab_params p;
    p.boundary_level = bl;
    locus::runtime rt(cab_config("sockets=2,cores=2", 4, p));
    sweep sw(2048, 16);
    const auto recs = locus::iterate(rt, 25, [&](std::size_t) { return sw.node(0, 2048); });
    for (double v : sw.a)
      ASSERT_EQ(v, 25.0) << "bl=" << bl;
    EXPECT_EQ(rt.run(inter_tree(4, 3)), inter_tree_expected(4, 3)) << "bl=" << bl;
    EXPECT_EQ(rt.run(fib(18)), 2584) << "bl=" << bl;
  }
}

}  // namespace
