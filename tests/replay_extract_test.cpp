// Extraction at a spawn inside a traced phase (locus/schedule/extract.hpp): the steal-tree
// arithmetic on hand-built trees, and trace -> extract at an inner spawn -> replay of that
// sub-computation on its own.
#include <gtest/gtest.h>

#include <locus/schedule/extract.hpp>

#include <stdexcept>

#include "replay_support.hpp"

namespace {

using locus::schedule::extract_previous;
using locus::schedule::replay_mode;
using locus::schedule::spawn_point;
using locus::schedule::steal_kind;
using locus::schedule::steal_tree;
using locus::schedule::validity_rule;
using replay_test::observed;
using replay_test::replay_runtime;
using replay_test::tree;
using replay_test::tree_nodes;

spawn_point at(std::uint32_t worker, std::uint32_t seq, std::uint32_t level, std::uint32_t spawn) {
  return {true, worker, seq, level, spawn};
}

// Root phase (w0, 0): the continuation after spawn 0 of the level-0 frame stolen by (w1, 0);
// the root phase went on into child 0 and had its level-1 continuations stolen there.
steal_tree two_children() {
  steal_tree t(4, 0);
  const auto c = t.add_steal(0, 0, 0, 1, 0);  // root continuation after spawn 0
  const auto d = t.add_steal(0, 1, 0, 2, 0);  // inside child 0
  t.add_steal(d, 1, 1, 3, 0);                 // the next continuation of child 0's frame
  t.add_steal(c, 1, 0, 3, 1);                 // inside child 1 (the stolen continuation's)
  return t;
}

TEST(ExtractPrevious, StolenContinuationGivesTheSpawningPhasesDeeperSteals) {
  const steal_tree t = two_children();
  // After the sync the frame is in the thief's phase (w1, 0): child 0's schedule.
  const steal_tree s = extract_previous(t, at(1, 0, 0, 0));
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s.root().worker, 0u);  // child 0 ran where it was spawned
  EXPECT_EQ(s.root().kind, steal_kind::root);
  const auto kids = s.children(0);
  ASSERT_EQ(kids.size(), 1u);
  EXPECT_EQ(s.node(kids[0]).level, 0u);  // level 1 in the phase, the child's own level 0
  EXPECT_EQ(s.node(kids[0]).worker, 2u);
  const auto grand = s.children(kids[0]);
  ASSERT_EQ(grand.size(), 1u);
  EXPECT_EQ(s.node(grand[0]).level, 0u);
  EXPECT_EQ(s.node(grand[0]).spawn_index, 1u);
  EXPECT_EQ(s.node(grand[0]).worker, 3u);
  EXPECT_NO_THROW(s.validate());
}

TEST(ExtractPrevious, UnstolenSpawnIsOneNodeOnThePhasesWorker) {
  const steal_tree t = two_children();
  // In phase (w1, 0), the frame at level 1 spawned child 2 and nobody took its continuation.
  const steal_tree s = extract_previous(t, at(1, 0, 1, 2));
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s.root().worker, 1u);
}

TEST(ExtractPrevious, HelpFirstStolenChildIsItsOwnSubtree) {
  steal_tree t(3, 0);
  const auto c = t.add_steal(0, 2, 4, 1, 0, steal_kind::child);  // child 4 of a level-2 frame
  t.add_steal(c, 5, 0, 2, 0);
  const steal_tree s = extract_previous(t, at(0, 0, 2, 4));
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s.root().worker, 1u);
  EXPECT_EQ(s.node(1).level, 2u);  // 5 - (2 + 1)
}

TEST(ExtractPrevious, RefusesUntracedOrForeignPoints) {
  const steal_tree t = two_children();
  EXPECT_THROW((void)extract_previous(t, spawn_point{}), std::invalid_argument);
  EXPECT_THROW((void)extract_previous(t, at(3, 7, 0, 0)), std::invalid_argument);
}

// ---- on a runtime: trace a computation, extract at a spawn two levels down, replay ----

struct inner_run {
  observed target{tree_nodes(8)};
  observed before{tree_nodes(2)};
  observed beside{tree_nodes(2)};
  spawn_point point;
};

/// Level 1: spawns a small tree, then the target tree, syncs, and notes the target's spawn.
/// The trees around the target are small, so idle workers soon take the continuation after
/// the target's spawn (the extraction's deeper-steals case).
locus::task<long> middle(inner_run* r) {
  auto a = co_await locus::spawn(tree(2, 1, &r->before, 2000));
  auto b = co_await locus::spawn(tree(8, 1, &r->target, 20000));
  co_await locus::sync();
  r->point = co_await locus::schedule::previous_spawn();
  co_return a.get() + b.get();
}

locus::task<long> outer(inner_run* r) {
  auto x = co_await locus::spawn(tree(2, 1, &r->beside, 2000));
  auto y = co_await locus::spawn(middle(r));
  co_await locus::sync();
  co_return x.get() + y.get();
}

class ExtractInner : public ::testing::TestWithParam<unsigned> {};

// The target's sub-schedule, replayed on its own under StOWS and StUWS, puts every
// continuation of the target where the traced run put it, and reaches every extracted steal
// point (the levels were shifted right).
TEST_P(ExtractInner, ReplayOfTheSubComputationReproducesItsWorkers) {
  const unsigned workers = GetParam();
  replay_runtime rr(workers);
  unsigned stolen_rounds = 0;
  // At least 6 rounds; with several workers, more until some round had a steal inside the
  // target (a loaded machine may keep the thieves off their cores for whole rounds).
  for (int round = 0; round < 6 || (workers > 1 && stolen_rounds == 0 && round < 300); ++round) {
    inner_run r;
    auto traced = locus::schedule::run_traced(*rr.rt, outer(&r));
    ASSERT_EQ(traced.value, 4 + 4 + 256);
    ASSERT_TRUE(r.point.traced);
    EXPECT_EQ(r.point.level, 1u);
    EXPECT_EQ(r.point.spawn_index, 1u);
    const steal_tree sub = extract_previous(traced.tree, r.point);
    EXPECT_NO_THROW(sub.validate(validity_rule::with_calls));
    EXPECT_LT(sub.size(), traced.tree.size() + 1);
    if (sub.size() > 1) ++stolen_rounds;
    for (auto mode : {replay_mode::stows, replay_mode::stuws}) {
      observed again(tree_nodes(8));
      EXPECT_EQ(locus::schedule::run_replayed(*rr.rt, tree(8, 1, &again, 20000), sub, mode), 256);
      EXPECT_TRUE(again.every_node_once());
      EXPECT_EQ(again.continuation_workers(), r.target.continuation_workers())
          << to_string(mode) << " round " << round << ", " << sub.size() << " nodes";
      const auto rep = rr.sched->report();
      EXPECT_EQ(rep.reached_nodes, sub.size() - 1) << to_string(mode);
      EXPECT_EQ(rep.random_steals, 0u);
    }
  }
  if (workers == 1) EXPECT_EQ(stolen_rounds, 0u);
  // With several workers the spawn's continuation is stolen in some round, so the
  // deeper-steals branch of the extraction is exercised, not only the one-node one.
  if (workers > 1) EXPECT_GT(stolen_rounds, 0u);
}

INSTANTIATE_TEST_SUITE_P(Workers, ExtractInner, ::testing::Values(1u, 2u, 4u));

TEST(ExtractInner, UntracedRunsGiveNoPoint) {
  replay_runtime rr(2);
  inner_run r;
  EXPECT_EQ(rr.rt->run(outer(&r)), 4 + 4 + 256);
  EXPECT_FALSE(r.point.traced);
}

}  // namespace
