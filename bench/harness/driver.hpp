// bench/harness/driver.hpp — the parent side: runs the scheduled grid, one child process per
// run, and collects the summaries.
#pragma once

#include <string>
#include <vector>

#include "cli.hpp"
#include "grid.hpp"
#include "progress.hpp"
#include "results.hpp"

namespace bench {

/// The file descriptor on which a child finds its result pipe.
inline constexpr int child_result_fd = 3;

/// The command line that makes `exe` run `c` once in --child mode (argv[0] = `argv0`).
[[nodiscard]] std::vector<std::string> child_argv(const std::string& argv0, const bench_config& c);

/// Runs every implemented configuration of `configs` `reps` times, interleaved, each run in a
/// fresh child of `exe`, and returns one summary per configuration (in the grid's order).
[[nodiscard]] std::vector<config_summary> run_grid(const std::string& exe, const std::string& argv0,
                                                   const std::vector<bench_config>& configs,
                                                   unsigned reps, double timeout_s,
                                                   progress_line& progress);

/// Defaults for the options the command line leaves out: policy and victims from
/// locus::config::from_env(), the runtimes built into this binary, workers 1, 2, 4, ... nproc.
[[nodiscard]] cli_defaults environment_defaults();

}  // namespace bench
