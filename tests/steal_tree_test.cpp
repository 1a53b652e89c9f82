// tests/steal_tree_test.cpp — locus/schedule/steal_tree.hpp and steal_tree_io.hpp: building,
// walking, validating, pruning and merging steal trees; the file format; DOT.
#include <gtest/gtest.h>

#include <locus/schedule/steal_tree.hpp>
#include <locus/schedule/steal_tree_io.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "steal_tree_support.hpp"

namespace {

using namespace locus::schedule;
using locus_test::random_tree;
using locus_test::sample_tree;

// Runs validate() and returns its message, or "" when the tree is valid.
std::string validation_error(const steal_tree& t) {
  try {
    t.validate();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

bool same_tree(const steal_tree& x, const steal_tree& y) {
  return serialize(x) == serialize(y);
}

// ------------------------------------------------------------------- building, walking

TEST(StealTree, children_keep_insertion_order_and_are_found_by_level_and_spawn_index) {
  const sample_tree s;
  EXPECT_EQ(s.tree.size(), 6u);
  EXPECT_EQ(s.tree.children(0), (std::vector<node_id>{s.a, s.b}));
  EXPECT_EQ(s.tree.children(s.a), (std::vector<node_id>{s.d, s.c}));
  EXPECT_EQ(s.tree.find_child(s.a, 1, 0), s.c);
  EXPECT_EQ(s.tree.find_child(s.a, 1, 1), k_no_node);
  EXPECT_EQ(s.tree.node(s.e).parent, s.b);
  EXPECT_EQ(s.tree.topology(), "sockets=1,cores=4");
}

TEST(StealTree, preorder_visits_parents_first_and_level_order_goes_by_depth) {
  const sample_tree s;
  EXPECT_EQ(s.tree.preorder(), (std::vector<node_id>{0, s.a, s.d, s.c, s.b, s.e}));
  EXPECT_EQ(s.tree.level_order(), (std::vector<node_id>{0, s.a, s.b, s.d, s.c, s.e}));
}

TEST(StealTree, add_steal_rejects_a_missing_parent_and_an_unknown_worker) {
  sample_tree s;
  EXPECT_THROW(s.tree.add_steal(99, 0, 0, 0, 9), std::invalid_argument);
  EXPECT_THROW(s.tree.add_steal(0, 0, 3, 4, 9), std::invalid_argument);
  EXPECT_THROW(steal_tree(0, 0), std::invalid_argument);
  EXPECT_THROW(steal_tree(2, 2), std::invalid_argument);
  EXPECT_THROW(steal_tree(4097, 0), std::invalid_argument);
  EXPECT_THROW(s.tree.remap_workers(0), std::invalid_argument);
}

TEST(StealTree, stows_orders_list_each_workers_phases_by_seq) {
  const sample_tree s;
  const auto orders = s.tree.worker_orders();
  ASSERT_EQ(orders.size(), 4u);
  EXPECT_EQ(orders[0], (std::vector<node_id>{0}));
  EXPECT_EQ(orders[1], (std::vector<node_id>{s.a, s.e}));
  EXPECT_EQ(orders[2], (std::vector<node_id>{s.b, s.c}));
  EXPECT_EQ(orders[3], (std::vector<node_id>{s.d}));
  EXPECT_EQ(s.tree.order_positions(), (std::vector<std::uint32_t>{0, 0, 0, 0, 1, 1}));
}

TEST(StealTree, extract_subtree_makes_the_node_the_root_of_a_valid_tree) {
  const sample_tree s;
  const steal_tree sub = s.tree.extract_subtree(s.a);
  ASSERT_EQ(sub.size(), 3u);
  EXPECT_EQ(sub.root().worker, 1u);
  EXPECT_EQ(sub.root().kind, steal_kind::continuation);
  EXPECT_EQ(sub.root().parent, k_no_node);
  EXPECT_EQ(sub.root().first_spawn(), 1u) << "the replay resumes where the steal did";
  EXPECT_EQ(sub.node(sub.find_child(0, 0, 1)).worker, 3u);
  EXPECT_EQ(validation_error(sub), "");
  EXPECT_EQ(s.tree.extract_subtree(0).size(), s.tree.size());
}

// ------------------------------------------------------------------------- validation

TEST(StealTree, a_recorded_shape_is_valid) {
  EXPECT_EQ(validation_error(sample_tree{}.tree), "");
  std::mt19937_64 rng(1);
  for (int i = 0; i < 50; ++i)
    EXPECT_EQ(validation_error(random_tree(rng, 40, 1 + i % 6)), "") << i;
}

TEST(StealTree, a_continuation_whose_parent_frame_was_not_stolen_is_invalid) {
  steal_tree t(2, 0);
  (void)t.add_steal(0, 2, 0, 1, 0);  // level 2 under a phase at 0 with no level-1 steal
  const std::string e = validation_error(t);
  EXPECT_NE(e.find("node 1 (level 2, spawn index 0"), std::string::npos) << e;
  EXPECT_NE(e.find("parent frame (level 1) has no stolen continuation"), std::string::npos) << e;
}

TEST(StealTree, a_help_first_child_steal_needs_no_stolen_parent_frame) {
  steal_tree t(2, 0);
  (void)t.add_steal(0, 2, 0, 1, 0, steal_kind::child);
  EXPECT_EQ(validation_error(t), "");
}

TEST(StealTree, a_steal_before_the_phase_resumed_its_frame_is_invalid) {
  sample_tree s;
  (void)s.tree.add_steal(s.a, 0, 0, 3, 1);  // a resumed the root frame after spawn 0
  EXPECT_NE(validation_error(s.tree).find("resumes that frame only after spawn index 0"),
            std::string::npos)
      << validation_error(s.tree);
}

TEST(StealTree, a_steal_shallower_than_its_parents_phase_is_invalid) {
  steal_tree t(2, 0, 0, 3);
  (void)t.add_steal(0, 2, 0, 1, 0);
  EXPECT_NE(validation_error(t).find("shallower than its parent's phase, which starts at level 3"),
            std::string::npos);
}

TEST(StealTree, a_stolen_child_at_the_deepest_level_does_not_wrap_to_level_0) {
  steal_tree t(2, 0);
  const node_id deepest = t.add_steal(0, 0xffffffffU, 0, 1, 0, steal_kind::child);
  (void)t.add_steal(deepest, 0, 0, 0, 1);
  EXPECT_NE(validation_error(t).find("which starts at level 4294967296"), std::string::npos)
      << validation_error(t);
}

TEST(StealTree, two_steals_at_the_same_point_of_one_phase_are_invalid) {
  steal_tree t(3, 0);
  (void)t.add_steal(0, 0, 4, 1, 0);
  (void)t.add_steal(0, 0, 4, 2, 0);
  EXPECT_NE(validation_error(t).find("same (level, spawn index)"), std::string::npos);
}

TEST(StealTree, a_repeated_worker_and_seq_is_invalid) {
  steal_tree t(3, 0);
  (void)t.add_steal(0, 0, 4, 1, 0);
  (void)t.add_steal(0, 0, 5, 1, 0);
  EXPECT_NE(validation_error(t).find("also the name of node 1"), std::string::npos);
}

TEST(StealTree, orders_that_wait_on_each_other_are_invalid) {
  steal_tree t(2, 0);
  const node_id a = t.add_steal(0, 0, 0, 1, 5);
  (void)t.add_steal(a, 0, 1, 1, 2);  // w1 would run this before the phase it is stolen from
  EXPECT_NE(validation_error(t).find("wait on each other"), std::string::npos)
      << validation_error(t);
}

// ---------------------------------------------------------------- replay lookups (4.1/4.2)

TEST(StealTree, designated_worker_follows_the_path_of_steal_points) {
  const sample_tree s;
  EXPECT_EQ(s.tree.designated_worker({}, 0, 0), 1u);
  EXPECT_EQ(s.tree.designated_worker({}, 1, 0), 2u);
  EXPECT_EQ(s.tree.designated_worker({}, 0, 5), std::nullopt) << "no steal: the runner keeps it";
  const std::vector<steal_point> via_a{{0, 0}};
  EXPECT_EQ(s.tree.designated_worker(via_a, 0, 1), 3u);
  EXPECT_EQ(s.tree.designated_worker(via_a, 1, 0), 2u);
  const std::vector<steal_point> via_b{{1, 0}};
  EXPECT_EQ(s.tree.designated_worker(via_b, 1, 1), 1u);
}

TEST(StealTree, rule_4_1_a_deeper_computation_is_governed_by_the_deepest_templated_node) {
  const sample_tree s;
  // The run crossed a's steal point, then steals the template does not have (deeper frames,
  // or a relaxed run's own steals): a's node stays in charge.
  const std::vector<steal_point> path{{0, 0}, {5, 2}, {1, 0}, {9, 9}};
  const template_match m = s.tree.match(path);
  EXPECT_EQ(m.node, s.c);
  EXPECT_EQ(m.matched, 2u);
  EXPECT_EQ(m.skipped, 2u);
  EXPECT_EQ(s.tree.node(m.node).worker, 2u) << "who runs the deeper frames";
  EXPECT_EQ(s.tree.designated_worker(path, 12, 0), std::nullopt);
}

TEST(StealTree, rule_4_2_steals_at_spawns_a_frame_never_made_are_reported_unreached) {
  const sample_tree s;
  // Under a, the root frame (level 0) stopped after 1 spawn: the steal after spawn 1 (d) is
  // never reached, nor is c, which hangs below that spawn's child.
  EXPECT_EQ(s.tree.unreached(s.a, 0, 1), (std::vector<node_id>{s.d, s.c}));
  EXPECT_TRUE(s.tree.unreached(s.a, 0, 2).empty()) << "extra spawns are simply not designated";
  // Under the root, child 0 (level 1) made no spawn: b and everything below it is unreached.
  EXPECT_EQ(s.tree.unreached(0, 1, 0), (std::vector<node_id>{s.b, s.e}));
}

// ------------------------------------------------------------------------------- prune

TEST(StealTree, prune_keeps_the_top_steal_points_in_level_order) {
  const sample_tree s;
  EXPECT_TRUE(same_tree(prune_tree(s.tree, 0), s.tree));
  EXPECT_EQ(prune_tree(s.tree, 100).size(), 1u);
  const steal_tree half = prune_tree(s.tree, 50);  // 5 steal points, keep 2: a and b
  ASSERT_EQ(half.size(), 3u);
  EXPECT_EQ(half.children(0).size(), 2u);
  EXPECT_EQ(half.node(1).worker, 1u);
  EXPECT_EQ(half.node(2).worker, 2u);
  const steal_tree most = prune_tree(s.tree, 85);  // keep 5 * 15 / 100 = 0
  EXPECT_EQ(most.size(), 1u);
  EXPECT_THROW((void)prune_tree(s.tree, 101), std::invalid_argument);
}

TEST(StealTree, a_pruned_tree_stays_valid_and_has_the_promised_size) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 100; ++i) {
    const steal_tree t = random_tree(rng, 1 + rng() % 60, 4);
    const auto percent = static_cast<unsigned>(rng() % 101);
    const steal_tree p = prune_tree(t, percent);
    EXPECT_EQ(p.size(), 1 + (t.size() - 1) * (100 - percent) / 100);
    EXPECT_EQ(validation_error(p), "") << "percent " << percent;
  }
}

// -------------------------------------------------------------- memory, remap, assemble

TEST(StealTree, memory_is_reported_per_worker_and_is_proportional_to_steals) {
  const sample_tree s;
  const memory_report m = s.tree.memory();
  EXPECT_EQ(m.total_bytes, s.tree.bytes());
  EXPECT_EQ(s.tree.bytes(), 6 * (sizeof(steal_node) + sizeof(node_id)) + 17);
  ASSERT_EQ(m.bytes_per_worker.size(), 4u);
  EXPECT_EQ(m.bytes_per_worker[1], 2 * (sizeof(steal_node) + sizeof(node_id)));
  EXPECT_NEAR(m.kib_per_worker(), static_cast<double>(s.tree.bytes()) / 1024 / 4, 1e-12);
  EXPECT_EQ(sizeof(steal_node), 32u) << "the compact layout the header promises";
}

TEST(StealTree, remap_merges_workers_and_rederives_orders_that_cannot_deadlock) {
  std::mt19937_64 rng(3);
  for (int i = 0; i < 50; ++i) {
    steal_tree t = random_tree(rng, 30, 8);
    t.remap_workers(3);
    EXPECT_EQ(t.worker_count(), 3u);
    EXPECT_EQ(validation_error(t), "");
  }
  sample_tree s;
  s.tree.remap_workers(8);  // nothing merges: seqs stay
  EXPECT_EQ(s.tree.node(s.c).seq, 1u);
  EXPECT_EQ(validation_error(s.tree), "");
}

TEST(StealTree, assemble_merges_per_worker_logs_into_the_recorded_tree) {
  const sample_tree s;
  std::vector<steal_log> logs(4);
  for (node_id n = 1; n < s.tree.size(); ++n) {
    const steal_node& x = s.tree.node(n);
    const steal_node& p = s.tree.node(x.parent);
    logs[x.worker].append({x.level, x.spawn_index, x.worker, x.seq, p.worker, p.seq, x.kind});
  }
  logs[3].append({4, 4, 3, 7, 3, 6});  // a steal under a phase outside this tree: left out
  const steal_tree t = assemble(4, 0, 0, 0, logs, "sockets=1,cores=4");
  EXPECT_TRUE(same_tree(t, s.tree));
  // Extraction at a's phase takes its record's kind and spawn index.
  const steal_tree sub = assemble(4, 1, 0, 0, logs);
  EXPECT_EQ(sub.size(), 3u);
  EXPECT_EQ(sub.root().kind, steal_kind::continuation);
  EXPECT_EQ(validation_error(sub), "");
}

TEST(StealTree, assemble_survives_parent_cycles_and_rejects_repeated_names) {
  std::vector<steal_log> logs(2);
  logs[1].append({0, 0, 1, 0, 0, 0});
  logs[0].append({0, 1, 0, 0, 1, 0});  // names the root itself, under the root's child
  EXPECT_EQ(assemble(2, 0, 0, 0, logs).size(), 2u);
  logs[1].append({0, 2, 1, 0, 0, 0});
  EXPECT_THROW((void)assemble(2, 0, 0, 0, logs), std::invalid_argument);
}

// ------------------------------------------------------------------------------ scale

// A long chain (each phase stolen from the previous one) and a wide star (every steal from the
// root phase): every walk is a loop, so neither depth nor fan-out costs stack or quadratic time.
TEST(StealTree, deep_chains_and_wide_stars_are_walked_without_recursion) {
  constexpr std::uint32_t n = 100000;
  steal_tree chain(2, 0);
  for (std::uint32_t i = 1; i <= n; ++i)
    (void)chain.add_steal(i - 1, 0, i - 1, i % 2, i / 2);
  steal_tree star(1, 0);
  for (std::uint32_t i = 1; i <= n; ++i)
    (void)star.add_steal(0, 0, i, 0, i);
  for (const steal_tree* t : {&chain, &star}) {
    EXPECT_EQ(validation_error(*t), "");
    EXPECT_EQ(t->preorder().size(), n + 1);
    EXPECT_EQ(t->level_order().size(), n + 1);
    EXPECT_EQ(prune_tree(*t, 50).size(), 1 + n / 2);
    EXPECT_EQ(t->extract_subtree(1).size(), t == &chain ? n : 1);
    EXPECT_EQ(serialize(deserialize(serialize(*t), "mem")), serialize(*t));
    EXPECT_GT(to_dot(*t).size(), n * 20);
    steal_tree merged = *t;
    merged.remap_workers(1);
    EXPECT_EQ(validation_error(merged), "");
  }
}

}  // namespace
