// tests/split_support.hpp — the halving split the locality schedulers' tests run (laws, cab),
// replayed outside the runtime: which [lo, hi) leaves the recursion `mid = lo + (hi - lo) / 2`
// reaches when it stops at `leaf` elements or fewer.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace locus_test {

/// The leaves of the halving split of [lo, hi), in order.
inline void halving_leaves(std::size_t lo, std::size_t hi, std::size_t leaf,
                           std::vector<std::pair<std::size_t, std::size_t>>& out) {
  if (hi - lo <= leaf) {
    out.emplace_back(lo, hi);
    return;
  }
  const std::size_t mid = lo + (hi - lo) / 2;
  halving_leaves(lo, mid, leaf, out);
  halving_leaves(mid, hi, leaf, out);
}

}  // namespace locus_test
