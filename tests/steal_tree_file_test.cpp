// tests/steal_tree_file_test.cpp — locus/schedule/steal_tree_io.hpp: the versioned file (round
// trips, every kind of bad file a clear error), worker remapping on load, and DOT output.
#include <gtest/gtest.h>

#include <locus/schedule/steal_tree_io.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "steal_tree_support.hpp"

namespace {

using namespace locus::schedule;
using bytes_t = std::vector<std::byte>;

// Byte offsets of the sample tree's file (topology "sockets=1,cores=4", 17 bytes).
constexpr std::size_t k_count_at = 20 + 17;
constexpr std::size_t k_nodes_at = k_count_at + 4;

void poke_u32(bytes_t& b, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i)
    b[at + i] = static_cast<std::byte>(v >> (8 * i));
}

// Rewrites the checksum so that a deliberate change reaches the checks behind it.
void reseal(bytes_t& b) {
  const std::uint64_t sum = checksum(std::span<const std::byte>(b).first(b.size() - 8));
  for (int i = 0; i < 8; ++i)
    b[b.size() - 8 + i] = static_cast<std::byte>(sum >> (8 * i));
}

// The message of the steal_tree_file_error that reading `b` raises (fails the test if none).
std::string load_error(const bytes_t& b, const load_options& o = {}) {
  try {
    (void)deserialize(b, "t.st", o);
  } catch (const steal_tree_file_error& e) {
    EXPECT_EQ(e.file(), "t.st");
    return e.what();
  }
  ADD_FAILURE() << "the file loaded";
  return "";
}

bytes_t sample_bytes() {
  return serialize(locus_test::sample_tree{}.tree);
}

TEST(StealTreeFile, a_tree_round_trips_through_bytes_and_files) {
  const locus_test::sample_tree s;
  const bytes_t b = serialize(s.tree);
  EXPECT_EQ(b.size(), k_nodes_at + 6 * 21 + 8);
  const steal_tree back = deserialize(b, "mem");
  EXPECT_EQ(serialize(back), b);
  EXPECT_EQ(back.topology(), "sockets=1,cores=4");
  EXPECT_EQ(back.children(back.node(1).parent), s.tree.children(0));

  const auto path = std::filesystem::temp_directory_path() / "locus_steal_tree_test.st";
  save(s.tree, path);
  EXPECT_EQ(serialize(load(path)), b);
  std::filesystem::remove(path);
}

TEST(StealTreeFile, random_trees_round_trip) {
  std::mt19937_64 rng(11);
  for (int i = 0; i < 30; ++i) {
    const steal_tree t = locus_test::random_tree(rng, rng() % 200, 1 + i % 9);
    EXPECT_EQ(serialize(deserialize(serialize(t), "mem")), serialize(t));
  }
}

TEST(StealTreeFile, bad_magic_and_version_are_named) {
  bytes_t b = sample_bytes();
  b[0] = std::byte{'X'};
  EXPECT_NE(load_error(b).find(
                R"(offset 0: magic="XOCUSST\x1a" is not valid (not a locus steal tree file))"),
            std::string::npos);
  b = sample_bytes();
  poke_u32(b, 8, 2);
  EXPECT_NE(load_error(b).find(R"(offset 8: version="2" is not valid (unsupported); expected 1)"),
            std::string::npos);
  EXPECT_NE(load_error(bytes_t(3)).find("the file ends inside the magic"), std::string::npos);
}

TEST(StealTreeFile, truncated_and_overlong_files_are_named) {
  const bytes_t full = sample_bytes();
  for (std::size_t n = 0; n < full.size(); ++n) {
    const bytes_t cut(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(n));
    const std::string e = load_error(cut);
    EXPECT_TRUE(e.find("the file is truncated") != std::string::npos ||
                e.find("the file ends inside") != std::string::npos)
        << n << ": " << e;
  }
  bytes_t longer = full;
  longer.push_back(std::byte{0});
  EXPECT_NE(
      load_error(longer).find("fills this file of " + std::to_string(longer.size()) + " bytes"),
      std::string::npos);
}

TEST(StealTreeFile, a_flipped_bit_fails_the_checksum) {
  bytes_t b = sample_bytes();
  b[k_nodes_at + 3] ^= std::byte{0x10};
  EXPECT_NE(load_error(b).find("(checksum mismatch: the file is corrupt)"), std::string::npos);
}

TEST(StealTreeFile, huge_counts_are_refused_before_anything_is_allocated) {
  bytes_t b = sample_bytes();
  poke_u32(b, k_count_at, 0xffffffffU);
  reseal(b);
  EXPECT_NE(load_error(b).find(
                R"(offset 37: node count="4294967295" is not valid; expected 1 to 16777216)"),
            std::string::npos)
      << load_error(b);
  b = sample_bytes();
  poke_u32(b, k_count_at, 1000000);
  reseal(b);
  EXPECT_NE(load_error(b).find("it needs 21000049 bytes: the file is truncated"),
            std::string::npos);
  b = sample_bytes();
  poke_u32(b, 16, 0x7fffffff);  // topology length
  EXPECT_NE(load_error(b).find(
                R"(offset 16: topology length="2147483647" is not valid; expected 0 to 4096)"),
            std::string::npos);
  b = sample_bytes();
  poke_u32(b, 12, 0);
  reseal(b);
  EXPECT_NE(load_error(b).find(R"(offset 12: worker count="0" is not valid; expected 1 to 4096)"),
            std::string::npos);
}

TEST(StealTreeFile, out_of_range_indices_and_kinds_are_named) {
  bytes_t b = sample_bytes();
  poke_u32(b, k_nodes_at + 2 * 21 + 16, 2);  // node 2 names itself as parent: a cycle
  reseal(b);
  EXPECT_NE(
      load_error(b).find(
          R"(node 2 parent="2" is not valid (parents precede their children); expected an earlier node, 0 to 1)"),
      std::string::npos)
      << load_error(b);
  b = sample_bytes();
  poke_u32(b, k_nodes_at + 16, 0);  // the root has a parent
  reseal(b);
  EXPECT_NE(load_error(b).find(R"(node 0 parent="0" is not valid; expected 4294967295)"),
            std::string::npos);
  b = sample_bytes();
  poke_u32(b, k_nodes_at + 21 + 8, 9);  // worker 9 of 4
  reseal(b);
  EXPECT_NE(
      load_error(b).find(
          R"(node 1 worker="9" is not valid (the file's worker count is 4); expected 0 to 3)"),
      std::string::npos);
  b = sample_bytes();
  b[k_nodes_at + 21 + 20] = std::byte{7};
  reseal(b);
  EXPECT_NE(load_error(b).find(R"(node 1 kind="7" is not valid; expected 0 (root), 1)"),
            std::string::npos);
}

TEST(StealTreeFile, a_tree_that_breaks_the_validity_rule_is_a_file_error) {
  steal_tree t(2, 0);
  (void)t.add_steal(0, 3, 0, 1, 0);
  const std::string e = load_error(serialize(t));
  EXPECT_NE(e.find("steal tree file 't.st', offset 45:"), std::string::npos) << e << " (node 1)";
  EXPECT_NE(e.find("(level 3, spawn index 0"), std::string::npos) << e;
  EXPECT_NE(e.find("no stolen continuation"), std::string::npos) << e;
}

TEST(StealTreeFile, a_different_worker_count_is_refused_or_remapped_as_asked) {
  const bytes_t b = sample_bytes();
  const std::string e = load_error(b, {2, worker_mismatch::refuse});
  EXPECT_NE(
      e.find(
          R"(worker count="4" is not valid (load with worker_mismatch::remap to run worker w on w mod 2); expected 2, the count asked for)"),
      std::string::npos)
      << e;
  const steal_tree t = deserialize(b, "t.st", {2, worker_mismatch::remap});
  EXPECT_EQ(t.worker_count(), 2u);
  EXPECT_EQ(t.node(1).worker, 1u);
  EXPECT_EQ(t.node(3).worker, 1u) << "worker 3 runs on 3 mod 2";
  t.validate();
  EXPECT_EQ(serialize(deserialize(b, "t.st", {4, worker_mismatch::refuse})), b);
}

TEST(StealTreeFile, a_missing_file_is_named) {
  try {
    (void)load("/nonexistent/dir/x.st");
    FAIL();
  } catch (const steal_tree_file_error& e) {
    EXPECT_NE(std::string(e.what()).find("'/nonexistent/dir/x.st', offset 0: cannot be opened"),
              std::string::npos);
  }
}

// ---------------------------------------------------------------------------------- DOT

TEST(StealTreeDot, is_well_formed_with_one_coloured_node_line_per_node_and_a_legend) {
  const locus_test::sample_tree s;
  const std::string dot = to_dot(s.tree);
  EXPECT_EQ(dot.rfind("digraph steal_tree {", 0), 0u);
  int depth = 0;
  for (const char c : dot) {
    depth += c == '{' ? 1 : c == '}' ? -1 : 0;
    ASSERT_GE(depth, 0);
  }
  EXPECT_EQ(depth, 0);
  const std::regex node_line(R"re(^  n(\d+) \[label="([^"]*)", fillcolor="(#[0-9a-f]{6})"\];$)re");
  const std::regex edge_line(R"(^  n(\d+) -> n(\d+);$)");
  std::istringstream lines(dot);
  std::string line;
  std::vector<bool> seen(s.tree.size(), false);
  std::size_t edges = 0, legend = 0;
  std::smatch m;
  while (std::getline(lines, line)) {
    if (std::regex_match(line, m, node_line)) {
      const auto id = std::stoul(m[1]);
      ASSERT_LT(id, s.tree.size());
      EXPECT_FALSE(seen[id]) << "one line per node";
      seen[id] = true;
      EXPECT_EQ(m[3], std::string(worker_colour(s.tree.node(id).worker))) << line;
    } else if (std::regex_match(line, m, edge_line)) {
      EXPECT_EQ(s.tree.node(std::stoul(m[2])).parent, std::stoul(m[1]));
      ++edges;
    } else if (line.find("legend_w") != std::string::npos) {
      ++legend;
    }
  }
  EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](bool b) { return b; }));
  EXPECT_EQ(edges, s.tree.size() - 1);
  EXPECT_EQ(legend, 4u);
  EXPECT_NE(dot.find(R"(n4 [label="(1, 0)\nw2 seq 1")"), std::string::npos) << dot;
  EXPECT_NE(worker_colour(0), worker_colour(1));
  EXPECT_EQ(worker_colour(12), worker_colour(0));
}

}  // namespace
