// bench/kernels/dag_hints.hpp — steal-half hints (locus::dataflow::task_hint) for a static
// task DAG: for each task, how many tasks it dominates and how many descend from it (the OCR
// paper's pessimistic and optimistic counts, section III).
#pragma once

#include <locus/dataflow.hpp>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace bench {

/// `preds[t]`: the tasks t waits for, all with smaller indices (the list is in a topological
/// order). Descendants by bitsets (n^2 / 8 bytes), dominators by the DAG rule: a task's
/// immediate dominator is the nearest common dominator of its predecessors (a virtual root
/// above the sources), so the dominated count is the size of its dominator subtree minus 1.
[[nodiscard]] inline std::vector<locus::dataflow::task_hint> dag_hints(
    const std::vector<std::vector<std::size_t>>& preds) {
  const std::size_t n = preds.size(), words = (n + 63) / 64;
  constexpr std::size_t root = ~std::size_t{0};
  std::vector<std::size_t> idom(n, root), depth(n, 0);
  const auto lca = [&](std::size_t a, std::size_t b) {
    while (a != b) {
      if (a == root || b == root) return root;
      if (depth[a] < depth[b]) std::swap(a, b);
      a = idom[a];
    }
    return a;
  };
  for (std::size_t t = 0; t < n; ++t) {
    std::size_t d = preds[t].empty() ? root : preds[t][0];
    for (std::size_t p : preds[t])
      d = lca(d, p);
    idom[t] = d;
    depth[t] = d == root ? 1 : depth[d] + 1;
  }
  std::vector<locus::dataflow::task_hint> hints(n);
  std::vector<std::uint32_t> subtree(n, 1);
  for (std::size_t t = n; t-- > 0;)
    if (idom[t] != root) subtree[idom[t]] += subtree[t];
  std::vector<std::vector<std::size_t>> succ(n);
  for (std::size_t t = 0; t < n; ++t)
    for (std::size_t p : preds[t])
      succ[p].push_back(t);
  std::vector<std::uint64_t> desc(n * words, 0);
  for (std::size_t t = n; t-- > 0;) {
    std::uint64_t* mine = &desc[t * words];
    for (std::size_t s : succ[t]) {
      mine[s / 64] |= std::uint64_t{1} << (s % 64);
      const std::uint64_t* theirs = &desc[s * words];
      for (std::size_t w = s / 64; w < words; ++w)  // descendants of s are all above s
        mine[w] |= theirs[w];
    }
    std::uint32_t count = 0;
    for (std::size_t w = t / 64; w < words; ++w)
      count += static_cast<std::uint32_t>(std::popcount(mine[w]));
    hints[t] = {subtree[t] - 1, count};
  }
  return hints;
}

}  // namespace bench
