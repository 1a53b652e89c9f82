// src/schedule/replay_state.hpp — the replay scheduler's internal state, shared by the
// strategies (replay.cpp) and the phases that arm them (replay_phase.cpp). Private: not
// installed. The protocol these structures serve is in replay.cpp's header comment and
// docs/design/0008-steal-trees.md.
#pragma once

#include <atomic>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "locus/ext/pool.hpp"
#include "locus/schedule/replay.hpp"

namespace locus::schedule {

inline constexpr std::size_t k_cache_line = 64;

namespace replay_internal {

/// A StOWS slot: the paper's seqs[w][i]. 0 empty; k_claimed while a donor fills it; k_taken
/// once its worker took it (or skipped it: a continuation the template gives the worker that
/// already runs it); otherwise the item.
constexpr std::uint64_t k_claimed = 1;
constexpr std::uint64_t k_taken = ~std::uint64_t{0};

struct slot {
  std::atomic<std::uint64_t> state{0};
  unsigned from = 0;  ///< the donor; written after the claim, before the release store
};

/// One child in the template's child index, sorted by (level, spawn index) under its parent.
struct child_key {
  std::uint32_t level;
  std::uint32_t spawn_index;
  node_id node;
};

/// What only worker w writes (its cursor, designation, patience), on its own cache line.
struct alignas(k_cache_line) worker_plan {
  std::uint32_t cursor = 0;                        ///< stows: the next slot of this worker's order
  std::uint32_t fails = 0;                         ///< stows: looks that found the next slot empty
  unsigned designation = ext::spawn_site::k_keep;  ///< designate_after_next_spawn
  std::int64_t quiet_since = -1;  ///< stows: since when no worker was seen running (us)
};

/// How many empty looks a StOWS worker makes before it considers the next slot unreachable
/// (and only then if no worker runs anything).
constexpr std::uint32_t k_patience = 64;
/// ... and for how long no worker may have been seen running (microseconds).
constexpr std::int64_t k_quiet_us = 2000;

}  // namespace replay_internal
using namespace replay_internal;  // this file's users: replay.cpp, replay_phase.cpp

/// One armed phase's plan.
struct plan {
  replay_mode mode = replay_mode::stows;
  bool designed = false;  ///< no template: designations lead (slots hold head levels)
  std::optional<steal_tree> tree;
  std::vector<std::uint32_t> child_begin;  ///< per node, its range in `children`
  std::vector<child_key> children;
  std::vector<std::uint32_t> position;         ///< stows: per node, its slot index
  std::vector<std::unique_ptr<slot[]>> slots;  ///< stows: per worker
  std::vector<std::uint32_t> slot_count;       ///< stows: per worker
  std::vector<worker_plan> workers;
  std::atomic<std::uint64_t> donations{0}, kept_full{0}, out_of_order{0}, reached{0},
      random_steals{0};

  [[nodiscard]] node_id find(node_id n, std::uint32_t level, std::uint32_t spawn_index) const {
    const auto first = children.begin() + child_begin[n];
    const auto last = children.begin() + child_begin[n + 1];
    const auto it =
        std::lower_bound(first, last, std::pair{level, spawn_index},
                         [](const child_key& c, const std::pair<std::uint32_t, std::uint32_t>& k) {
                           return std::pair{c.level, c.spawn_index} < k;
                         });
    if (it != last && it->level == level && it->spawn_index == spawn_index) return it->node;
    return k_no_node;
  }
  /// Whether node n has a help-first steal (kind child) at `level`.
  [[nodiscard]] bool has_child_steal_at(node_id n, std::uint32_t level) const {
    const auto last = children.begin() + child_begin[n + 1];
    auto it = std::lower_bound(children.begin() + child_begin[n], last, level,
                               [](const child_key& c, std::uint32_t l) { return c.level < l; });
    for (; it != last && it->level == level; ++it)
      if (tree->node(it->node).kind == steal_kind::child) return true;
    return false;
  }
};

/// A worker's donation buffer (stuws, relws, designed phases): a bounded shared pool (the
/// paper's buffer under a mutex), bound to its worker's idle domain (ext/pool.hpp).
struct alignas(k_cache_line) donation_buffer {
  explicit donation_buffer(std::size_t capacity) : pool(capacity) {}
  ext::shared_pool pool;
};

/// What plan a worker's acquire() call works with (see replay_scheduler::acquire and the arm
/// in phase::publish).
struct worker_view {
  std::atomic<bool> busy{false};
  std::atomic<const plan*> view{nullptr};
};

struct replay_scheduler::state {
  replay_options options;
  /// Per worker index (any runtime size up to the steal tree's maximum), from construction:
  /// workers call acquire() before any arm.
  std::unique_ptr<worker_view[]> views{new worker_view[k_max_steal_tree_workers]};
  /// The armed plan, or null between phases. Release on arm, acquire on every read: the
  /// plan's contents are visible to whoever sees the pointer.
  std::atomic<plan*> armed{nullptr};
  /// Every plan ever armed. A worker may still be inside acquire() with a plan it loaded just
  /// before the disarm; plans live as long as the scheduler (a few bytes per template node).
  std::vector<std::unique_ptr<plan>> plans;
  /// Per worker; allocated and bound by the first arm (before any plan is visible), never
  /// resized.
  std::vector<std::unique_ptr<donation_buffer>> buffers;
  unsigned buffer_workers = 0;
  std::uint64_t buffer_runtime = 0;  ///< core_ref::id of the runtime the buffers are bound to
  replay_report last;                ///< the report of the last disarmed plan
};

}  // namespace locus::schedule
