// pdfs: SLAW's parallel depth-first search, building a spanning tree of a W x H torus (every
// node has 4 neighbours, wrapping at the edges). A visit of node v coming from u claims v by a
// compare-and-swap of parent[v] from -1 to u; only the winner goes on, spawning a visit of each
// neighbour that still looks unvisited. The visits form a terminally strict computation (SLAW's
// async inside one finish). Size "WxH": small 100x100, default 1000x1000; 2000x2000 (SLAW's 4M
// nodes) must run too.
//
// Verification: parent[] must be a spanning tree rooted at node 0: every node has a parent,
// the root is its own parent, every other node's parent is one of its torus neighbours, and
// following parents from any node reaches the root without a cycle (checked by an iterative
// walk that remembers depths, so it is linear). The check also reports the tree's depth.
#pragma once

#include <atomic>
#include <charconv>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "../../kernel.hpp"
#include "../dims.hpp"

namespace pdfs_kernel {

/// Node count limit: 2^27 nodes is 512 MiB of parents, far past SLAW's 4M.
inline constexpr std::int64_t max_nodes = std::int64_t{1} << 27;

/// The torus; node id = y * w + x.
struct torus {
  int w = 0;
  int h = 0;

  [[nodiscard]] int nodes() const noexcept { return w * h; }

  /// The four neighbours of v: left, right, up, down (wrapping).
  void neighbours(int v, int out[4]) const noexcept {
    const int x = v % w;
    const int row = v - x;
    out[0] = row + (x == 0 ? w - 1 : x - 1);
    out[1] = row + (x == w - 1 ? 0 : x + 1);
    out[2] = v < w ? v + (h - 1) * w : v - w;
    out[3] = v >= (h - 1) * w ? v - (h - 1) * w : v + w;
  }
};

/// Parses "WxH" with W, H >= 3 (so the four neighbours are distinct) and W * H <= 2^27.
[[nodiscard]] inline torus parse(const std::string& size) {
  torus t;
  std::array<int, 2> v{};
  const bool ok = bench::parse_dims(size, v);
  t.w = v[0];
  t.h = v[1];
  if (!ok || t.w < 3 || t.h < 3 || static_cast<std::int64_t>(t.w) * t.h > max_nodes) {
    throw std::invalid_argument(
        "pdfs: size must be WxH with W, H >= 3 and W * H <= 2^27 (e.g. "
        "100x100), got '" +
        size + "'");
  }
  return t;
}

/// The shared parent array; -1 means unvisited.
class parents {
 public:
  explicit parents(int n) : m_parent(std::make_unique<std::atomic<int>[]>(n)), m_n(n) {
    for (int v = 0; v < n; ++v)
      m_parent[v].store(-1, std::memory_order_relaxed);
  }

  /// Claims v for the visit coming from `from`; true for exactly one caller per node. Relaxed
  /// is enough: the CAS only has to pick one winner, and the tree is read after the join,
  /// which orders every claim before the check.
  bool claim(int v, int from) noexcept {
    int expected = -1;
    return m_parent[v].compare_exchange_strong(expected, from, std::memory_order_relaxed);
  }

  /// Whether v looks unvisited (a hint to skip a spawn; the claim decides).
  [[nodiscard]] bool unvisited(int v) const noexcept {
    return m_parent[v].load(std::memory_order_relaxed) == -1;
  }

  [[nodiscard]] int parent(int v) const noexcept {
    return m_parent[v].load(std::memory_order_relaxed);
  }

  [[nodiscard]] int size() const noexcept { return m_n; }

 private:
  std::unique_ptr<std::atomic<int>[]> m_parent;
  int m_n;
};

/// The root of the search; it claims itself as its own parent.
inline constexpr int root = 0;

/// A run's input: the torus and its parent array, every node unvisited.
struct instance {
  torus t;
  parents p;
};

/// bench::measure()'s setup: parses `size` and allocates the parents.
[[nodiscard]] inline instance setup(const std::string& size) {
  const torus t = parse(size);
  return instance{t, parents(t.nodes())};
}

/// Checks that the parents form a spanning tree of the torus rooted at `root`; fills the
/// verdict and detail.
inline void check(bench::outcome& out, const instance& in) {
  const torus& t = in.t;
  const parents& p = in.p;
  const int n = t.nodes();
  out.verified = false;
  if (p.parent(root) != root) {
    out.detail = "the root is not its own parent";
    return;
  }
  for (int v = 0; v < n; ++v) {
    const int u = p.parent(v);
    if (u < 0) {
      out.detail = "node " + std::to_string(v) + " was never visited";
      return;
    }
    if (v == root) continue;
    int nb[4];
    t.neighbours(v, nb);
    if (u != nb[0] && u != nb[1] && u != nb[2] && u != nb[3]) {
      out.detail = "parent of node " + std::to_string(v) + " is not a neighbour";
      return;
    }
  }
  // depth[v]: -1 not yet known, -2 on the walk in progress, else the distance to the root.
  std::vector<int> depth(n, -1);
  depth[root] = 0;
  std::vector<int> path;
  int deepest = 0;
  for (int v = 0; v < n; ++v) {
    int u = v;
    path.clear();
    while (depth[u] == -1) {
      depth[u] = -2;
      path.push_back(u);
      u = p.parent(u);
    }
    if (depth[u] == -2) {
      out.detail = "following parents from node " + std::to_string(v) + " runs into a cycle";
      return;
    }
    int d = depth[u];
    for (auto it = path.rbegin(); it != path.rend(); ++it)
      depth[*it] = ++d;
    if (d > deepest) deepest = d;
  }
  out.verified = true;
  out.detail = "spanning tree of " + std::to_string(n) + " nodes, depth " + std::to_string(deepest);
}

}  // namespace pdfs_kernel
