// locus/stats.hpp — the scheduler's counters, always on, one set per worker.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace locus {

/// A snapshot of one worker's counters (or their sum), counted since the runtime started or
/// its last reset_stats(). Taken between runs the counts are exact; taken during a run they
/// are racy but monotone (each field at least what an earlier runtime::stats() returned, until
/// a reset): see runtime::stats().
struct worker_stats {
  std::uint64_t spawns_work_first = 0;  ///< spawns that ran the child at once
  std::uint64_t spawns_help_first = 0;  ///< spawns that pushed the child
  std::uint64_t spawns_remote = 0;      ///< spawns sent to another place's mailbox
  std::uint64_t stack_condition = 0;    ///< adaptive spawns forced help-first by S
  std::uint64_t fresh_condition = 0;    ///< adaptive spawns forced work-first by F
  std::uint64_t policy_switches = 0;    ///< adaptive re-evaluations that changed the policy
  std::uint64_t steals_attempted = 0;   ///< steal attempts on other workers' deques
  std::uint64_t steals_succeeded = 0;   ///< ... that took an item
  std::uint64_t mailbox_takes = 0;      ///< items taken from a place mailbox
  std::uint64_t syncs_suspended = 0;    ///< syncs that had to wait for children
  std::uint64_t idle_ns = 0;            ///< time spent looking for work or asleep, till now
  std::uint64_t sleeps = 0;             ///< times the worker went to sleep
  std::uint64_t peak_stack_bytes = 0;   ///< peak bytes held by the frame stack (>= at reset)
  unsigned place = 0;                   ///< the worker's place

  worker_stats& operator+=(const worker_stats& o) noexcept;
};

/// Counters of every worker, as returned by runtime::stats().
struct runtime_stats {
  std::vector<worker_stats> workers;

  /// Sums of all workers (peak_stack_bytes: the sum of per-worker peaks).
  [[nodiscard]] worker_stats total() const noexcept;
  /// The totals on one line, exactly in this form (numbers aside):
  ///   workers=2 | spawns wf=120 hf=8 remote=1 | adaptive S=4 F=5 switches=6 | steals 7/40 |
  ///   mailbox 9 | syncs-waited 10 | idle 0.012s sleeps 3 | peak-stack 12.5 KiB
  /// (wrapped here; one line, no newline): spawns work-first, help-first and to other places;
  /// adaptive spawns forced by SLAW's S (stack) and F (fresh) conditions and policy switches;
  /// steals succeeded/attempted; mailbox takes; syncs that waited; idle seconds and sleeps; the
  /// sum of the workers' peak frame-stack bytes.
  [[nodiscard]] std::string summary() const;
  /// A JSON object of the totals plus a "workers" array.
  [[nodiscard]] std::string to_json() const;
};

}  // namespace locus
