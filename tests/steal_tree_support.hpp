// Steal trees the steal tree tests share: a small hand-built one whose every node the tests
// name, and random valid ones of the shape a work-first run records.
#pragma once

#include <locus/schedule/steal_tree.hpp>

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace locus_test {

/// Four workers. The root phase (w0) runs the frame at level 0:
///   a: w1 steals the root frame's continuation after spawn 0 (level 0, spawn 0);
///   b: w0 went on into child 0 (level 1); w2 steals its continuation after spawn 0;
///   d: under a, w3 steals the root frame's continuation after spawn 1;
///   c: under a, w1 went on into child 1 (level 1); w2 steals its continuation after spawn 0;
///   e: under b, w1 steals child 0's continuation after spawn 1.
struct sample_tree {
  locus::schedule::steal_tree tree{4, 0, 0, 0, "sockets=1,cores=4"};
  locus::schedule::node_id a = tree.add_steal(0, 0, 0, 1, 0);
  locus::schedule::node_id b = tree.add_steal(0, 1, 0, 2, 0);
  locus::schedule::node_id d = tree.add_steal(a, 0, 1, 3, 0);
  locus::schedule::node_id c = tree.add_steal(a, 1, 0, 2, 1);
  locus::schedule::node_id e = tree.add_steal(b, 1, 1, 1, 1);
};

/// A random tree that validate() accepts: each new steal goes under a random earlier node, at
/// the next level below that phase's deepest stolen continuation (so every deeper steal has
/// its parent frame stolen), by a random worker whose seq counts up (so the orders follow the
/// steal ancestry).
inline locus::schedule::steal_tree random_tree(std::mt19937_64& rng, std::size_t steals,
                                               unsigned workers) {
  using namespace locus::schedule;
  steal_tree tree(workers, static_cast<std::uint32_t>(rng() % workers), 0,
                  static_cast<std::uint32_t>(rng() % 3));
  std::vector<std::uint32_t> next_seq(workers, 0);
  next_seq[tree.root().worker] = 1;
  std::vector<std::uint32_t> depth_used(1, 0);  // continuation steals below each node's phase
  for (std::size_t i = 0; i < steals; ++i) {
    const auto parent = static_cast<node_id>(rng() % tree.size());
    const steal_node& p = tree.node(parent);
    const auto level = static_cast<std::uint32_t>(p.phase_level() + depth_used[parent]);
    const std::uint64_t first = level == p.phase_level() ? p.first_spawn() : 0;
    const auto spawn = static_cast<std::uint32_t>(first + rng() % 8);
    const auto worker = static_cast<std::uint32_t>(rng() % workers);
    (void)tree.add_steal(parent, level, spawn, worker, next_seq[worker]++);
    ++depth_used[parent];
    depth_used.push_back(0);
  }
  return tree;
}

}  // namespace locus_test
