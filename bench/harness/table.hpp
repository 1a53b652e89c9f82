// bench/harness/table.hpp — the human-readable results table.
#pragma once

#include <initializer_list>
#include <optional>
#include <ostream>
#include <string_view>
#include <vector>

#include "json.hpp"
#include "results.hpp"

namespace bench {

/// Prints the table, then one line per failed or unimplemented configuration with its reason.
/// Speedup is the serial median of the same kernel and size over this median ("-" without a
/// serial row).
void print_table(std::ostream& out, const std::vector<config_summary>& rows);

/// The first of `names` found as a number in the runtime's counters, looked up at the top
/// level and then inside a "total" or "totals" object (per-worker layouts usually keep a sum
/// there).
[[nodiscard]] std::optional<double> find_counter(const json& stats,
                                                 std::initializer_list<std::string_view> names);

}  // namespace bench
