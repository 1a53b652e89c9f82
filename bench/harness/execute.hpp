// bench/harness/execute.hpp — running one configuration once, in this process: set up the
// runtime (locus, oneTBB's global_control, OpenMP's thread count), call the kernel, and
// collect the runtime's counters. The child mode of locus-bench and the tests both use it.
// starpu and blas have nothing to set up here: the kernel starts StarPU with args.workers CPU
// workers, or sets OpenBLAS's thread count to args.workers, itself.
#pragma once

#include <string>

#include "../kernel.hpp"
#include "cli.hpp"
#include "grid.hpp"
#include "json.hpp"

namespace bench {

/// What one run produced.
struct run_report {
  outcome result;
  /// locus: runtime_stats::to_json() as the runtime wrote it. The child passes it through to
  /// its report unparsed (encode_report): parsing and rewriting it cost the child more
  /// instructions than the small kernels' runtime work once the per-iteration records came.
  std::string runtime_stats;
  /// Members added after the runtime's (locality, the scheduler's counters, flow), or the
  /// whole stats when runtime_stats is empty; the report's stats are the two joined.
  json stats = json::object();

  /// Both joined and parsed (the report's "stats"), for callers in this process (tests).
  [[nodiscard]] json all_stats() const;
};

/// Runs `c` once. Throws std::runtime_error when the configuration has no implementation,
/// and lets the kernel's own exceptions (a bad size, a runtime error) through.
[[nodiscard]] run_report execute(const bench_config& c);

/// The JSON line a child sends to its parent for a finished run (no newline).
[[nodiscard]] std::string encode_report(const run_report& r);
/// The JSON line for a run that threw (no newline).
[[nodiscard]] std::string encode_error(const std::string& message);

/// The hidden --child mode: runs the single configuration of `o` and writes one JSON line
/// to o.result_fd. Returns the process exit status: 0 when the run finished (verified or
/// not), 1 when it threw.
int child_main(const options& o);

}  // namespace bench
