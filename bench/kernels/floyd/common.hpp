// floyd: Floyd-Warshall all-pairs shortest paths on N nodes. The graph is random and directed:
// each edge i -> j (i != j) exists with probability 1/4 and has an integer weight in [1, 1000],
// both drawn from a fixed-seed LCG; a missing edge is `inf`. For each k in turn,
//   D[i][j] = min(D[i][j], D[i][k] + D[k][j])
// over the whole (i, j) square; the parallel versions split that square into blocks.
// Size N: small 128, default 1024.
//
// Row k and column k do not change during step k (D[k][k] = 0), so every version first copies
// them into two small vectors; the step then reads only those copies and each block writes
// only its own entries, with no data race at all. Weights are integers, so every version must
// equal the serial result exactly; independently, the rows of 64 sources are checked against
// Dijkstra's algorithm.
#pragma once

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "../../kernel.hpp"
#include "../reference_cache.hpp"

namespace floyd_kernel {

/// Distance type; `inf` + `inf` still fits, so the update needs no overflow test.
using dist = std::int32_t;
inline constexpr dist inf = 1 << 29;

/// Block of the (i, j) square that a leaf updates: 64 rows by 512 columns (128 KiB), about
/// 10 us of work, so the fork/join of each k costs little next to it.
inline constexpr int leaf_rows = 64;
inline constexpr int leaf_cols = 512;

/// Parses N in [2, 8192].
[[nodiscard]] inline int parse(const std::string& size) {
  int n = 0;
  auto [p, ec] = std::from_chars(size.data(), size.data() + size.size(), n);
  if (ec != std::errc{} || p != size.data() + size.size() || n < 2 || n > 8192) {
    throw std::invalid_argument("floyd: size must be a node count N in [2, 8192], got '" + size +
                                "'");
  }
  return n;
}

/// The adjacency matrix D0, row-major n x n.
[[nodiscard]] inline std::vector<dist> graph(int n) {
  std::vector<dist> d(static_cast<std::size_t>(n) * n);
  std::uint64_t x = 20240613;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      const auto r = static_cast<std::uint32_t>(x >> 32);
      dist w = inf;
      if (i == j) {
        w = 0;
      } else if ((r & 3) == 0) {
        w = 1 + static_cast<dist>((r >> 2) % 1000);
      }
      d[static_cast<std::size_t>(i) * n + j] = w;
    }
  }
  return d;
}

/// Copies row k and column k of `d` (n x n) into `row` and `col` before step k.
inline void take_pivot(const dist* d, int n, int k, dist* row, dist* col) {
  std::copy_n(d + static_cast<std::size_t>(k) * n, n, row);
  for (int i = 0; i < n; ++i)
    col[i] = d[static_cast<std::size_t>(i) * n + k];
}

/// Step k on the block rows [i0, i1) x columns [j0, j1), from the pivot copies.
inline void relax_block(dist* d, int n, const dist* row, const dist* col, int i0, int i1, int j0,
                        int j1) {
  for (int i = i0; i < i1; ++i) {
    dist* di = d + static_cast<std::size_t>(i) * n;
    const dist dik = col[i];
    for (int j = j0; j < j1; ++j)
      di[j] = std::min(di[j], dik + row[j]);
  }
}

/// The whole algorithm serially, for the reference.
[[nodiscard]] inline std::vector<dist> solve_serial(int n) {
  std::vector<dist> d = graph(n);
  std::vector<dist> row(n);
  std::vector<dist> col(n);
  for (int k = 0; k < n; ++k) {
    take_pivot(d.data(), n, k, row.data(), col.data());
    relax_block(d.data(), n, row.data(), col.data(), 0, n, 0, n);
  }
  return d;
}

/// The serial result for n, computed once per size.
[[nodiscard]] inline const std::vector<dist>& serial_reference(int n) {
  return bench::cached_reference(n, [n] { return solve_serial(n); });
}

/// Single-source shortest paths by dense Dijkstra on the original graph (O(n^2)).
[[nodiscard]] inline std::vector<dist> dijkstra(const std::vector<dist>& g, int n, int source) {
  std::vector<dist> best(n, inf);
  std::vector<char> done(n, 0);
  best[source] = 0;
  for (int round = 0; round < n; ++round) {
    int u = -1;
    for (int v = 0; v < n; ++v) {
      if (!done[v] && (u < 0 || best[v] < best[u])) u = v;
    }
    if (best[u] >= inf) break;
    done[u] = 1;
    const dist* gu = g.data() + static_cast<std::size_t>(u) * n;
    for (int v = 0; v < n; ++v) {
      if (gu[v] < inf && best[u] + gu[v] < best[v]) best[v] = best[u] + gu[v];
    }
  }
  return best;
}

/// Checks `d` against Dijkstra from min(n, 64) evenly spread sources (O(64 n^2), cheap next
/// to the O(n^3) kernel) and, for parallel versions, against the serial result entry for
/// entry; fills the verdict and detail.
inline void check_distances(bench::outcome& out, int n, const std::vector<dist>& d,
                            bool compare_to_serial) {
  const std::vector<dist> g = graph(n);
  const int sources = std::min(n, 64);
  bool ok = true;
  for (int s = 0; s < sources && ok; ++s) {
    const int source = static_cast<int>((static_cast<std::int64_t>(s) * n) / sources);
    const std::vector<dist> want = dijkstra(g, n, source);
    ok = std::equal(want.begin(), want.end(), d.begin() + static_cast<std::ptrdiff_t>(source) * n);
    if (!ok) out.detail = "row " + std::to_string(source) + " differs from Dijkstra";
  }
  std::int64_t sum = 0;
  std::int64_t unreachable = 0;
  for (dist v : d) {
    if (v >= inf) {
      ++unreachable;
    } else {
      sum += v;
    }
  }
  if (ok && compare_to_serial) {
    const std::vector<dist>& ref = serial_reference(n);
    ok = std::memcmp(ref.data(), d.data(), ref.size() * sizeof(dist)) == 0;
    if (!ok) out.detail = "differs from the serial result";
  }
  out.verified = ok;
  if (ok) {
    out.detail =
        "sum of distances=" + std::to_string(sum) + " unreachable=" + std::to_string(unreachable);
  }
}

/// A run's input: the distance matrix (the graph at first) and the pivot copies.
/// What every block of a step reads and writes: raw pointers, what the parallel loops capture.
struct step {
  dist* d;
  const dist* row;
  const dist* col;
  int n;

  /// The step on the block rows [i0, i1) x columns [j0, j1).
  void relax(int i0, int i1, int j0, int j1) const { relax_block(d, n, row, col, i0, i1, j0, j1); }
};

struct instance {
  int n = 0;
  std::vector<dist> d;
  std::vector<dist> row;
  std::vector<dist> col;

  [[nodiscard]] step pointers() { return step{d.data(), row.data(), col.data(), n}; }

  /// For each k in turn, copies the pivot row and column, then calls relax(s), which must
  /// relax the whole square: the k loop of the versions whose step is a plain call (all but
  /// locus's coroutine).
  template <class Relax>
  void for_each_pivot(Relax relax) {
    const step s = pointers();
    for (int k = 0; k < n; ++k) {
      take_pivot(d.data(), n, k, row.data(), col.data());
      relax(s);
    }
  }
};

/// bench::measure()'s setup: parses `size` and draws the graph.
[[nodiscard]] inline instance setup(const std::string& size) {
  const int n = parse(size);
  return instance{n, graph(n), std::vector<dist>(n), std::vector<dist>(n)};
}

/// bench::measure()'s verify for the parallel versions: Dijkstra and the serial result.
inline void check(bench::outcome& out, const instance& in) {
  check_distances(out, in.n, in.d, true);
}

/// The serial version's verify: it is the reference, so Dijkstra only.
inline void check_serial(bench::outcome& out, const instance& in) {
  check_distances(out, in.n, in.d, false);
}

}  // namespace floyd_kernel
