// bench/harness/results.hpp — what each run reported, and the per-configuration summary
// (median, spread, verification, peak memory, counters) that the table and JSON show.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "child_process.hpp"
#include "grid.hpp"
#include "json.hpp"

namespace bench {

/// One run of one configuration, as the parent saw it.
struct rep_result {
  bool ok = false;        ///< the child finished cleanly and sent a well-formed report
  double seconds = 0;     ///< the kernel's timed region
  bool verified = false;  ///< the kernel's own check
  std::string detail;     ///< the kernel's detail, or why the run failed
  json stats;             ///< the runtime's counters (an object; empty for non-locus)
  long peak_rss_kib = 0;
};

/// Turns a finished child into a rep_result: parses its report line and folds crashes,
/// signals, time-outs and malformed reports into ok=false with a reason.
[[nodiscard]] rep_result interpret_child(const child_outcome& child, double timeout_s);

/// The state of a configuration after all its runs.
enum class run_status {
  ok,               ///< every run finished and verified
  failed,           ///< some run crashed, timed out, threw, or did not verify
  not_implemented,  ///< no implementation in this binary; never run
};

/// One row of the table / one element of the JSON results.
struct config_summary {
  bench_config config;
  run_status status = run_status::not_implemented;
  unsigned reps = 0;                             ///< runs made
  std::optional<double> median_s, min_s, max_s;  ///< over the runs that finished cleanly
  bool verified = false;
  long peak_rss_kib = 0;  ///< max over runs
  json stats;             ///< the counters of the last clean run (null: none)
  std::string detail;     ///< the first failure's reason, else the last run's detail

  /// (max - min) / median in percent, when there are times.
  [[nodiscard]] std::optional<double> spread_percent() const;
};

/// Summarizes the runs of `c` (empty for an unimplemented configuration).
[[nodiscard]] config_summary summarize(const bench_config& c, const std::vector<rep_result>& reps);

/// The median of a non-empty sample (mean of the middle two for an even count).
[[nodiscard]] double median(std::vector<double> v);

/// The text for an unimplemented configuration, e.g. "n/a (not implemented): no tbb
/// implementation of fib" or "... tbb not built (LOCUS_BENCH_PEERS=OFF or oneTBB not found)".
[[nodiscard]] std::string not_implemented_detail(const bench_config& c);
/// What a runtime that is not built needed: "LOCUS_BENCH_PEERS=OFF or oneTBB not found", ...
[[nodiscard]] std::string_view build_requirement(runtime_kind rt) noexcept;

}  // namespace bench
