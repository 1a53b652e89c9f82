// uts, locus: the traversal itself, shared by the locus-bench kernel (locus.cpp) and the
// standalone locus-uts (bench/standalone/), which measures memory without the peers' libraries.
// A node with children spawns each child as a task writing its tally into this frame's slots
// (spawned in place with no result: no future to drop), and combines them after the sync.
#pragma once

#include <locus/locus.hpp>

#include "common.hpp"

namespace uts_kernel {

inline locus::task<void> visit_locus(const tree_spec* t, node n, tally* result) {
  const int count = num_children(*t, n);
  if (count == 0) {
    *result = tally{1, 1, n.height};
    co_return;
  }
  child_slots slots(count);
  for (int i = 0; i < count; ++i)
    co_await locus::spawn(locus::discard, visit_locus, t, child(n, i), slots[i]);  // no future
  co_await locus::sync();
  *result = combine(n, slots, count);
}

}  // namespace uts_kernel
