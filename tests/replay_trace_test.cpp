// Steal-tree recording (locus/schedule/replay.hpp, run_traced): what a traced phase records,
// on the built-in schedulers and on the replay scheduler between replays.
#include <gtest/gtest.h>

#include <locus/schedule/steal_tree_io.hpp>

#include <atomic>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>

#include "replay_support.hpp"
#include "test_support.hpp"

namespace {

using locus::schedule::run_traced;
using locus::schedule::steal_kind;
using replay_test::cfg;

TEST(ReplayTrace, OneWorkerRecordsOnlyTheRoot) {
  locus::runtime rt{cfg(1)};
  auto r = run_traced(rt, locus_test::fib(18));
  EXPECT_EQ(r.value, 2584);
  EXPECT_EQ(r.tree.size(), 1u);
  EXPECT_EQ(r.tree.root().worker, 0u);
  EXPECT_EQ(r.tree.worker_count(), 1u);
  EXPECT_NO_THROW(r.tree.validate());
}

// Under work-first (cilk, and the replay scheduler between replays) every record is a
// continuation steal and the tree is valid: keys unique per phase, the validity rule, the
// StOWS orders acyclic. The number of nodes is the number of successful steals plus the root.
class TracedWorkFirst : public ::testing::TestWithParam<unsigned> {};

TEST_P(TracedWorkFirst, TreeIsValidAndCountsTheSteals) {
  locus::config c = cfg(GetParam());
  c.scheduler = locus::scheduler_kind::cilk;
  locus::runtime rt{c};
  for (int round = 0; round < 3; ++round) {
    rt.reset_stats();
    replay_test::observed obs(replay_test::tree_nodes(9));
    auto r = run_traced(rt, replay_test::tree(9, 1, &obs, 2000));
    EXPECT_EQ(r.value, 512);
    EXPECT_TRUE(obs.every_node_once());
    EXPECT_NO_THROW(r.tree.validate());
    EXPECT_EQ(r.tree.worker_count(), GetParam());
    const auto steals = rt.stats().total().steals_succeeded;
    EXPECT_EQ(r.tree.size(), steals + 1) << "round " << round;
    for (std::size_t i = 1; i < r.tree.size(); ++i)
      EXPECT_EQ(r.tree.node(static_cast<locus::schedule::node_id>(i)).kind,
                steal_kind::continuation);
  }
}

TEST_P(TracedWorkFirst, ReplaySchedulerBetweenReplaysTracesLikeCilk) {
  replay_test::replay_runtime rr(GetParam());
  auto r = run_traced(*rr.rt, locus_test::fib(20));
  EXPECT_EQ(r.value, 6765);
  EXPECT_NO_THROW(r.tree.validate(locus::schedule::validity_rule::with_calls));
}

INSTANTIATE_TEST_SUITE_P(Workers, TracedWorkFirst, ::testing::Values(1u, 2u, 3u, 4u));

// Records carry the frame's level and the spawn index after which the continuation was
// taken (tree() spawns twice per frame, inner frames are at levels 0..7), a worker in range,
// and per-worker seqs in the order the worker began its phases. (That the records name the
// right thief is checked by replaying them: replay_test.cpp, StOWS reproduces the workers.)
TEST(ReplayTrace, RecordsLevelSpawnIndexAndThief) {
  locus::config c = cfg(4);
  c.scheduler = locus::scheduler_kind::cilk;
  locus::runtime rt{c};
  for (int round = 0; round < 5; ++round) {
    replay_test::observed obs(replay_test::tree_nodes(8));
    auto r = run_traced(rt, replay_test::tree(8, 1, &obs, 3000));
    const auto& t = r.tree;
    for (locus::schedule::node_id i = 1; i < t.size(); ++i) {
      const auto& n = t.node(i);
      EXPECT_LE(n.spawn_index, 1u);  // tree() spawns twice per frame
      EXPECT_LT(n.level, 8u);        // inner nodes of depth 8 are at levels 0..7
      EXPECT_LT(n.worker, 4u);
    }
    // Seqs: each worker's phases are numbered 0, 1, 2, ... in the order it began them.
    const auto orders = t.worker_orders();
    for (unsigned w = 0; w < orders.size(); ++w)
      for (std::size_t k = 1; k < orders[w].size(); ++k)
        EXPECT_LT(t.node(orders[w][k - 1]).seq, t.node(orders[w][k]).seq);
  }
}

// Tracing is per phase: an untraced run in between records nothing, and each traced phase's
// tree describes that phase alone.
TEST(ReplayTrace, PhasesAreIndependent) {
  locus::config c = cfg(3);
  c.scheduler = locus::scheduler_kind::cilk;
  locus::runtime rt{c};
  auto a = run_traced(rt, locus_test::fib(20));
  EXPECT_EQ(rt.run(locus_test::fib(21)), 10946);
  auto b = run_traced(rt, locus_test::fib(16));
  EXPECT_EQ(b.value, 987);
  // fib calls (co_await fib(n - 2)): its traces follow the rule for programs that call.
  EXPECT_NO_THROW(a.tree.validate(locus::schedule::validity_rule::with_calls));
  EXPECT_NO_THROW(b.tree.validate(locus::schedule::validity_rule::with_calls));
  // seqs restart per phase: the root of every traced phase is its worker's first phase.
  EXPECT_EQ(a.tree.root().seq, 0u);
  EXPECT_EQ(b.tree.root().seq, 0u);
}

TEST(ReplayTrace, TreesSaveAndLoad) {
  locus::config c = cfg(4);
  c.scheduler = locus::scheduler_kind::cilk;
  locus::runtime rt{c};
  auto r = run_traced(rt, locus_test::fib(21));
  const auto bytes = locus::schedule::serialize(r.tree);
  locus::schedule::load_options o;
  o.validity = locus::schedule::validity_rule::with_calls;  // fib calls
  const auto back = locus::schedule::deserialize(bytes, "memory", o);
  EXPECT_EQ(back.size(), r.tree.size());
  EXPECT_EQ(locus::schedule::serialize(back), bytes);
}

// A task's exception still reaches the caller; the runtime is usable (and traceable) after.
TEST(ReplayTrace, ExceptionPropagatesAndTracingStops) {
  locus::runtime rt{cfg(2)};
  auto boom = []() -> locus::task<int> {
    auto f = co_await locus::spawn(locus_test::fib(15));
    co_await locus::sync();
    throw std::runtime_error("boom");
    co_return f.get();
  };
  EXPECT_THROW((void)run_traced(rt, boom()), std::runtime_error);
  auto r = run_traced(rt, locus_test::fib(15));
  EXPECT_EQ(r.value, 610);
}

TEST(ReplayTrace, VoidTasksAndTheDefaultScheduler) {
  locus::runtime rt{cfg(2)};  // slaw, adaptive
  std::atomic<long> leaves{0};
  auto r = run_traced(rt, [](std::atomic<long>* l) -> locus::task<void> {
    co_await replay_test::wide(4, 3, 500, l);
  }(&leaves));
  EXPECT_EQ(leaves.load(), 81);
  EXPECT_GE(r.tree.size(), 1u);
}

// A task that calls one spawning loop after another (an iterative kernel's time loop in one
// task) is never picked up, so it keeps its phase and every loop's steals are recorded under
// it at the same steal points. The extracted tree keeps the first steal of each point (no two
// siblings share one), is valid, and replays.
TEST(ReplayTrace, LoopsCalledFromOneTaskKeepTheFirstStealOfEachPoint) {
  replay_test::replay_runtime rr(2);
  auto loops = [](int count, std::atomic<long>* leaves) -> locus::task<long> {
    long s = 0;
    for (int i = 0; i < count; ++i)
      s += co_await replay_test::wide(3, 4, 20000, leaves);
    co_return s;
  };
  std::atomic<long> leaves{0};
  auto r = run_traced(*rr.rt, loops(40, &leaves));
  EXPECT_EQ(r.value, 40 * 64);
  EXPECT_NO_THROW(r.tree.validate(locus::schedule::validity_rule::with_calls));
  for (locus::schedule::node_id p = 0; p < r.tree.size(); ++p) {
    std::set<std::pair<std::uint32_t, std::uint32_t>> points;
    for (auto c : r.tree.children(p))
      EXPECT_TRUE(points.insert({r.tree.node(c).level, r.tree.node(c).spawn_index}).second)
          << "node " << c;
  }
  for (auto m : {locus::schedule::replay_mode::stows, locus::schedule::replay_mode::relws})
    EXPECT_EQ(locus::schedule::run_replayed(*rr.rt, loops(40, &leaves), r.tree, m), 40 * 64);
}

}  // namespace
