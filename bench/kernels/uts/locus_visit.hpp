// uts, locus: the traversal itself, shared by the locus-bench kernel (locus.cpp) and the
// standalone locus-uts (bench/standalone/), which measures memory without the peers' libraries.
// A node with children spawns each child as a task writing its tally into this frame's slots
// (spawned in place with no result: no future to drop), and combines them after the sync.
#pragma once

#include <locus/locus.hpp>

#include <utility>

#include "common.hpp"

namespace uts_kernel {

/// The traversal with K inline child slots. The slots are kept across the spawns and the sync,
/// so they are part of the coroutine frame, one frame per level of the path the runtime holds
/// (uts T3L: 17,844 levels): slots nobody uses there are memory on every level.
template <int K>
locus::task<void> visit_locus_k(const tree_spec* t, node n, tally* result) {
  const int count = num_children(*t, n);
  if (count == 0) {
    *result = tally{1, 1, n.height};
    co_return;
  }
  basic_child_slots<K> slots(count);
  for (int i = 0; i < count; ++i)
    co_await locus::spawn(locus::discard, visit_locus_k<K>, t, child(n, i), slots[i]);
  co_await locus::sync();
  *result = combine(n, slots, count);
}

/// Inline slots for a tree: a binomial tree gives every node but the root 0 or m children, so m
/// slots (m <= 8) hold every count but the root's (on the heap); other trees get 8 (their
/// counts vary). T3L (m = 5): a frame block of 416 bytes instead of 496 with 8 (gcc 12, -O3).
[[nodiscard]] inline int inline_slots_for(const tree_spec& t) {
  return t.type == tree_type::binomial && t.m >= 1 && t.m <= 8 ? t.m : 8;
}

namespace detail {
template <int... K>
locus::task<void> visit_with(std::integer_sequence<int, K...>, int slots, const tree_spec* t,
                             node n, tally* result) {
  locus::task<void> picked;
  ((slots == K + 1 ? (picked = visit_locus_k<K + 1>(t, n, result), 0) : 0), ...);
  return picked;
}
}  // namespace detail

/// The traversal of tree *t from node n, its tally written to *result.
[[nodiscard]] inline locus::task<void> visit_locus(const tree_spec* t, node n, tally* result) {
  return detail::visit_with(std::make_integer_sequence<int, 8>{}, inline_slots_for(*t), t, n,
                            result);
}

}  // namespace uts_kernel
