// locus/cab.hpp — CAB (Chen, Guo, Huang, ICPP'11): cache-aware bi-tier task stealing on
// several sockets (docs/design/0018-cab.md).
//
//   locus::config cfg;
//   cfg.scheduler = locus::scheduler_kind::cab;    // or LOCUS_SCHEDULER=cab
//   cfg.cab.boundary_level = 4;                    // or LOCUS_CAB=bl=4; unset: Eq. 4
//   // or, with options: cfg.custom_scheduler = locus::make_cab_scheduler({...});
//   locus::runtime rt(cfg);
//
// What it does:
//  * squads: one per socket that has workers, its lowest-numbered worker the head; each squad
//    has one inter-socket pool, each worker its own deque (the intra-socket pool);
//  * the boundary level BL (Eq. 4, in integers) splits the task tree: the paper's level 1 is
//    the root of the divide-and-conquer (the frame that declared the root data: the first
//    spawn carrying data, its parent if the parent declared any, else the child), so a task
//    of paper level l has locus spawn depth root_depth + l - 1, and the leaf inter-socket
//    tasks have depth root_depth + BL - 1;
//  * bi-tier spawning: a spawn whose child is at or above the leaf inter-socket depth goes
//    parent-first into the inter-socket pool of the squad that owns the child's data (LAWS's
//    Eq. 1 part of the root, laws::owner_of; the spawning worker's squad when the child has
//    none); a deeper spawn is child-first onto the own deque, stolen only within the squad;
//  * Algorithm I: own deque; squad-mates' deques; the place's mailbox; then the head alone,
//    while its squad is not busy, takes from its squad's pool, then from another squad's pool
//    holding two or more tasks. "Busy" is "a worker of the squad is running a task" (a worker
//    suspended at a sync is not running), so a head suspended inside a non-leaf inter-socket
//    task does not keep the pools from being served (no livelock);
//  * BL = 0 (plain random stealing over every worker, spawns inline) on one socket and for a
//    cpu-bound program (ext::classify_workload, LAWS's rule).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <utility>

#include "locus/config.hpp"
#include "locus/ext/core.hpp"
#include "locus/ext/scheduler.hpp"
#include "locus/locality/data_range.hpp"
#include "locus/task.hpp"

namespace locus {

/// make_cab_scheduler's options: the configuration's (config::cab, LOCUS_CAB) as a value of
/// its own; the object given wins over LOCUS_CAB.
using cab_options = cab_params;

/// A CAB scheduler for one runtime (config::custom_scheduler). Throws config_error for bad
/// options (validate_cab); a second runtime made with the same object throws config_error.
[[nodiscard]] std::shared_ptr<const ext::scheduler> make_cab_scheduler(cab_options o = {});

namespace cab {

/// Eq. 4 in integers: BL = max(ceil(log_B M + 1), ceil(log_B(S_d / S_c) + 1)) =
/// 1 + max(smallest k >= 0 with B^k >= M, smallest k >= 0 with B^k * S_c >= S_d); 0 when
/// M <= 1 (one socket) or S_d == 0 (no declared data: cpu-bound). Exact at powers: M = 4,
/// B = 2 gives 3; S_d = 8 S_c gives 4; S_d = S_c + 1 gives 2. Throws config_error naming
/// "cab.branching" for B <= 1 and "cab.cache_bytes" for S_c == 0.
[[nodiscard]] unsigned boundary_level(unsigned sockets, unsigned branching, std::size_t data_bytes,
                                      std::size_t cache_bytes);

/// S_d of Eq. 4 from a root's declared ranges: the bytes the root reads (its ranges declared
/// read or read_write, added up), or all its bytes when it reads none (a write-only root, as a
/// first touch). The paper's S_d is the procedure's input data size (its worked example counts
/// one of heat's two grids) and its Eq. 2 asks that a leaf inter-socket task's share of it fit
/// one socket's L3, where the squad's workers share the rows they read; a grid written in the
/// step is written once per element and shared by no one (docs/design/0018-cab.md). B read
/// from the data is the same measure, the root's over its first child's.
[[nodiscard]] std::size_t data_size(std::span<const data_range> root) noexcept;

/// What a CAB scheduler has decided and done (counts since the runtime began, relaxed: exact
/// between runs).
struct stats {
  int boundary_level = -1;         ///< BL in force (-1: not decided yet, no data seen)
  int root_depth = -1;             ///< spawn depth of the paper's level 1 (-1: not learned)
  int leaf_depth = -1;             ///< spawn depth of the leaf inter-socket tasks (-1: no tier)
  unsigned branching = 0;          ///< B used by Eq. 4 (0: not decided)
  std::size_t data_bytes = 0;      ///< S_d used by Eq. 4 (data_size of the root, or sd=)
  std::size_t cache_bytes = 0;     ///< S_c used by Eq. 4
  unsigned squads = 0;             ///< M
  std::uint64_t inter_spawns = 0;  ///< spawns decided in the inter-socket tier
  std::uint64_t leaf_spawns = 0;   ///< of which the child is a leaf inter-socket task
  std::uint64_t pool_takes = 0;    ///< inter-socket tasks heads took from their own pool
  std::uint64_t cross_squad_takes = 0;  ///< ... from another squad's pool
  std::uint64_t manual_spawns = 0;      ///< spawn_inter calls
  /// Items a worker stole from another squad while its look began before the run's first
  /// spawn decided a tier, and posted back to that squad's place (0018: the first spawn).
  std::uint64_t sent_home = 0;
};

/// The CAB scheduler's stats of the runtime `core` (core_ref::of(rt)); std::logic_error if
/// the runtime does not run CAB.
[[nodiscard]] stats stats_of(ext::core_ref core);

/// The squad (an index, package order) of worker `w` of the runtime `core` runs; throws
/// std::logic_error if the runtime does not run CAB.
[[nodiscard]] unsigned squad_of(ext::core_ref core, unsigned w);

namespace detail {
/// Checks a manual inter-socket spawn from the calling worker and returns the place that
/// serves `squad` (counted in stats::manual_spawns). Throws std::logic_error off a CAB
/// runtime's workers or on one squad, std::out_of_range for a squad that does not exist.
[[nodiscard]] unsigned inter_place(unsigned squad);
}  // namespace detail

/// Manual control: spawn `t` as an inter-socket task of squad `squad` (any tier, any BL):
/// `co_await cab::spawn_inter(child(), 2)`. It goes parent-first to the squad's mailbox (the
/// place of its socket), where that squad's workers take it, and its frame is homed there; to
/// the spawning worker's own place it is a help-first spawn onto the own deque. Its subtree's
/// spawns follow the mode in force: within the squad under a tier or LOCUS_CAB=manual (which
/// turns the automatic tier off), by any worker with BL = 0. Throws (from the call, before anything
/// is spawned) std::logic_error off a CAB runtime's workers or on a runtime with one squad (nothing
/// to place), std::out_of_range for a squad that does not exist. The result and sync are spawn's.
template <class T>
[[nodiscard]] auto spawn_inter(task<T>&& t, unsigned squad) {
  return locus::spawn(std::move(t), at(detail::inter_place(squad)) | help_first);
}

}  // namespace cab
}  // namespace locus
