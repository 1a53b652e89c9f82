// bench/harness/scheduler_stats.hpp — a locality scheduler's own counts in a run's JSON, under
// stats.<scheduler> beside the runtime's counters (stats.iterations and the rest).
#pragma once

#include <locus/cab.hpp>

#include <string>
#include <utility>

#include "json.hpp"

namespace locus {
class runtime;
}

namespace bench {

/// cab::stats_of as JSON: every field of locus::cab::stats under its own name.
[[nodiscard]] json cab_json(const locus::cab::stats& s);

/// The counts of the scheduler `rt` runs, when it has counts of its own (cab: stats.cab), as
/// the member name and its value; {"", null} for any other scheduler.
[[nodiscard]] std::pair<std::string, json> scheduler_json(locus::runtime& rt);

}  // namespace bench
