// src/laws/state.hpp — LAWS's state for one runtime: sockets, their CF pools, the iteration's
// root and what the first iteration learned (docs/design/0017-laws.md). An extension: built
// from locus/ext/ and public headers only (tests/include_boundary.cmake).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "locus/ext/data.hpp"
#include "locus/ext/pool.hpp"
#include "locus/ext/scheduler.hpp"
#include "locus/ext/sockets.hpp"
#include "locus/laws.hpp"

namespace locus::laws {

/// What the scheduler does in the iteration that runs now.
enum class stage : std::uint8_t {
  first_touch,  ///< the first iteration, or runs outside locus::iterate: pools open, no
                ///< cross-socket work, every task with data through its socket's pool
  packed,       ///< later iterations of a memory-bound program: CF pools gated on the heads
  plain         ///< a cpu-bound program: random stealing, spawns off the rule
};

/// A socket's workers and its CF pool (CF roots and the tasks above them): ext/sockets.hpp.
using socket_state = ext::socket_group;
/// Per worker: its socket (an index into sockets, the populated ones in package order).
using layout = ext::socket_layout;

/// What the first iteration learned about the task tree (spawn depths of children).
struct tree_shape {
  std::atomic<int> cf_depth{-1};        ///< deepest first depth with S_alpha <= S_c
  std::atomic<int> socket_depth{-1};    ///< shallowest first depth inside one socket's part
  std::atomic<bool> overflows{false};   ///< some task's declared bytes exceed S_c
  std::atomic<int> leaf_depth{-1};      ///< deepest spawn with data
  std::atomic<std::uint64_t> tasks{0};  ///< spawns under the root
  void reset() noexcept {
    cf_depth.store(-1, std::memory_order_relaxed);
    socket_depth.store(-1, std::memory_order_relaxed);
    leaf_depth.store(-1, std::memory_order_relaxed);
    overflows.store(false, std::memory_order_relaxed);
    tasks.store(0, std::memory_order_relaxed);
  }
};

/// Raise `a` to at least `v` (relaxed: read between runs, after run()'s synchronisation).
inline void raise_to(std::atomic<int>& a, int v) noexcept {
  int cur = a.load(std::memory_order_relaxed);
  while (cur < v && !a.compare_exchange_weak(cur, v, std::memory_order_relaxed)) {
  }
}

/// Lower `a` to at most `v`, -1 meaning unset (relaxed, as raise_to).
inline void lower_to(std::atomic<int>& a, int v) noexcept {
  int cur = a.load(std::memory_order_relaxed);
  while ((cur < 0 || v < cur) && !a.compare_exchange_weak(cur, v, std::memory_order_relaxed)) {
  }
}

}  // namespace locus::laws
