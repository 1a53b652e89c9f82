// locus/stats.hpp — the scheduler's counters, always on, one set per worker.
//
// Every counter is declared once, in LOCUS_COUNTED_FIELDS or LOCUS_MEASURED_FIELDS below: the
// worker_stats fields, the workers' atomic counters (detail/counters.hpp), their reset and
// snapshot, sums, the summary line and the JSON form are all generated from those two lists.
// A new counter is one line there plus the place that increments it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

/// The counters a worker increments: X(field, group, label, brief). `group` and `label` name
/// it in the summary line ("spawns wf=120"); the JSON key is the field name.
#define LOCUS_COUNTED_FIELDS(X)                                                             \
  X(spawns_work_first, "spawns", "wf", "spawns that ran the child at once")                 \
  X(spawns_help_first, "spawns", "hf", "spawns that pushed the child")                      \
  X(spawns_remote, "spawns", "remote", "spawns sent to another place's mailbox")            \
  X(stack_condition, "adaptive", "S", "adaptive spawns forced help-first by S")             \
  X(fresh_condition, "adaptive", "F", "adaptive spawns forced work-first by F")             \
  X(policy_switches, "adaptive", "switches", "adaptive re-evaluations that changed policy") \
  X(steals_attempted, "steals", "tried", "steal attempts on other workers' deques")         \
  X(steals_succeeded, "steals", "took", "steal attempts that took an item")                 \
  X(heavy_fences, "steals", "membarrier",                                                   \
    "steal attempts that made the membarrier call (pop_fence asymmetric or adaptive)")      \
  X(mailbox_takes, "mailbox", "takes", "items taken from a place mailbox")                  \
  X(syncs_suspended, "syncs", "waited", "syncs that had to wait for children")              \
  X(sleeps, "idle", "sleeps", "times the worker went to sleep")

/// The quantities measured otherwise: X(field, group, label, brief, unit). idle_ns comes from
/// the worker's idle clock, peak_stack_bytes from its frame stack (runtime::stats()),
/// fence_episodes from its deque (the adaptive pop's switches to the full fence, docs/design/
/// 0021: one membarrier-requesting steal starts each; 0 under pop_fence full or asymmetric).
#define LOCUS_MEASURED_FIELDS(X)                                                                \
  X(idle_ns, "idle", "time", "time spent looking for work or asleep, till now", seconds)        \
  X(peak_stack_bytes, "stack", "peak", "peak bytes held by the frame stack (>= at reset)", kib) \
  X(fence_episodes, "pop", "fenced",                                                            \
    "episodes of stealing in which the worker's pops took the full fence (adaptive)", count)

namespace locus {

/// A snapshot of one worker's counters (or their sum), counted since the runtime started or
/// its last reset_stats(). Taken between runs the counts are exact; taken during a run they
/// are racy but monotone (each field at least what an earlier runtime::stats() returned, until
/// a reset): see runtime::stats(). The fields are those of the two lists above, in order.
struct worker_stats {
#define LOCUS_STATS_FIELD(field, ...) std::uint64_t field = 0;
  LOCUS_COUNTED_FIELDS(LOCUS_STATS_FIELD)
  LOCUS_MEASURED_FIELDS(LOCUS_STATS_FIELD)
#undef LOCUS_STATS_FIELD
  unsigned place = 0;    ///< the worker's place
  std::size_t core = 0;  ///< the worker's core (an index into topology::cores(); config::bind)
  unsigned socket = 0;   ///< the package of that core

  worker_stats& operator+=(const worker_stats& o) noexcept;
};

/// How a field reads in the summary line: a count, seconds from nanoseconds, KiB from bytes.
enum class stat_unit : std::uint8_t { count, seconds, kib };

/// One field of worker_stats, as the lists above declare it.
struct stat_field {
  std::string_view name;  ///< the field's name, also its JSON key
  std::uint64_t worker_stats::*member;
  std::string_view group;  ///< summary: the group the field is printed in
  std::string_view label;  ///< summary: its label inside the group
  std::string_view brief;  ///< what it counts
  stat_unit unit;
};

/// Every field of worker_stats, in declaration order.
inline constexpr std::array stat_fields = {
#define LOCUS_STAT_COUNTED(field, group, label, brief) \
  stat_field{#field, &worker_stats::field, group, label, brief, stat_unit::count},
#define LOCUS_STAT_MEASURED(field, group, label, brief, unit) \
  stat_field{#field, &worker_stats::field, group, label, brief, stat_unit::unit},
    LOCUS_COUNTED_FIELDS(LOCUS_STAT_COUNTED) LOCUS_MEASURED_FIELDS(LOCUS_STAT_MEASURED)
#undef LOCUS_STAT_COUNTED
#undef LOCUS_STAT_MEASURED
};

/// One iteration of locus::iterate (locus/iterate.hpp), as measured by iterate and completed
/// by the scheduler's iteration hooks (ext::iteration_record is this type). Counts are the
/// iteration's own (differences across its run). Self-contained: it owns its strings, so a
/// record (in runtime_stats or iterate's result) stays valid after its runtime is gone.
struct iteration_stats {
  std::size_t index = 0;      ///< 0-based, within its iterate() call
  std::uint64_t time_ns = 0;  ///< wall time of the iteration's run
  bool accounting = false;    ///< the locality fields below are measured (config::accounting)
  std::optional<double> local_share;   ///< local / placed bytes (no value: no placed bytes)
  std::uint64_t bytes = 0;             ///< bytes accessed (locality accounting)
  std::uint64_t l3_misses = 0;         ///< modelled L3 misses (lines), all sockets
  std::uint64_t l3_remote_misses = 0;  ///< of which served by another socket's memory
  std::uint64_t private_misses = 0;    ///< modelled private-level misses (lines)
  std::vector<std::uint64_t> bytes_per_socket;  ///< bytes accessed by each socket's workers
  // Filled by the scheduler (ext::iteration_hooks::end); defaults when it has none.
  std::string scheduler;                 ///< its name
  std::string stage;                     ///< e.g. "first-touch", "searching", "tuned", "plain"
  std::string workload;                  ///< "memory-bound", "cpu-bound" or "" (not judged)
  std::uint64_t cross_socket_takes = 0;  ///< work taken from another socket's pool
  std::uint64_t cf_roots = 0;            ///< CF subtrees started (taken from CF pools)
  int cf_level = -1;                     ///< spawn depth of the CF roots (-1: none)
  int packing_offset = 0;                ///< levels below (+) or above (-) the initial packing
};

/// The records as a JSON array of objects, one per iteration: index, time_ns, scheduler,
/// stage, workload, cross_socket_takes, cf_roots, cf_level, packing_offset, and with
/// accounting on local_share (null: no placed bytes), bytes, l3_misses, l3_remote_misses,
/// private_misses, bytes_per_socket. runtime_stats::to_json writes each record the same way.
[[nodiscard]] std::string to_json(const std::vector<iteration_stats>& records);

/// How many iteration records a runtime keeps (runtime_stats::iterations): the latest ones;
/// older records are dropped and counted (runtime_stats::iterations_dropped), so a long
/// iterative program holds bounded memory. locus::iterate's own result has them all.
inline constexpr std::size_t k_iteration_records_kept = 4096;

/// Counters of every worker, as returned by runtime::stats().
struct runtime_stats {
  std::vector<worker_stats> workers;
  /// The records of the iterations locus::iterate ran on the runtime since start or the last
  /// reset_stats(), oldest first, at most k_iteration_records_kept (the latest). Each record
  /// is added when its iteration ends, so between runs the list is exact.
  std::vector<iteration_stats> iterations;
  /// Records dropped (the oldest) to keep iterations within k_iteration_records_kept.
  std::uint64_t iterations_dropped = 0;

  /// Sums of all workers (peak_stack_bytes: the sum of per-worker peaks).
  [[nodiscard]] worker_stats total() const noexcept;
  /// The totals on one line, exactly in this form (numbers aside):
  ///   workers=2 | spawns wf=120 hf=8 remote=1 | adaptive S=4 F=5 switches=6 |
  ///   steals tried=40 took=7 membarrier=2 | mailbox takes=9 | syncs waited=10 |
  ///   idle sleeps=3 time=0.012s | stack peak=12.5KiB | pop fenced=1
  /// (wrapped here; one line, no newline): one group per run of fields with the same group in
  /// stat_fields, each field as label=value; seconds with 3 decimals, KiB with 1.
  [[nodiscard]] std::string summary() const;
  /// A JSON object of the totals plus a "workers" array, each with its place, core and socket,
  /// and, when locus::iterate ran since the reset, an "iterations" array (the records, as
  /// to_json(iterations) writes them) and, when records were dropped, "iterations_dropped".
  [[nodiscard]] std::string to_json() const;
};

}  // namespace locus
