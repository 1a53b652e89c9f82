// bench/harness/report.hpp — the --json file: the machine, the command, the results.
#pragma once

#include <string>
#include <vector>

#include "json.hpp"
#include "results.hpp"

namespace bench {

/// {"nproc":..,"cpu_model":..,"hostname":..,"os":..,"compiler":..,"peers":{..}} of this machine.
[[nodiscard]] json machine_json();

/// The command line as a shell would accept it back (arguments quoted where needed).
[[nodiscard]] std::string command_line(const std::vector<std::string>& argv);

/// One element of "results": kernel, size, runtime, policy, victims, workers, reps, median_s,
/// min_s, max_s, verified, peak_rss_kib, stats, detail (null for times that do not exist).
[[nodiscard]] json result_json(const config_summary& s);

/// The whole document {"machine":..,"command":..,"results":[..]}, one result per line so that
/// diffs and greps stay readable.
[[nodiscard]] std::string report_json(const json& machine, const std::string& command,
                                      const std::vector<config_summary>& results);

/// Writes report_json to `path`; throws std::runtime_error naming the path on failure.
void write_report(const std::string& path, const json& machine, const std::string& command,
                  const std::vector<config_summary>& results);

}  // namespace bench
