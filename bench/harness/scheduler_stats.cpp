// bench/harness/scheduler_stats.cpp — stats.cab of a locus-bench result (scheduler_stats.hpp).
#include "scheduler_stats.hpp"

#include <locus/ext/core.hpp>
#include <locus/locus.hpp>

#include <string>
#include <utility>

namespace bench {

json cab_json(const locus::cab::stats& s) {
  return {{"boundary_level", s.boundary_level},
          {"root_depth", s.root_depth},
          {"leaf_depth", s.leaf_depth},
          {"branching", s.branching},
          {"data_bytes", s.data_bytes},
          {"cache_bytes", s.cache_bytes},
          {"squads", s.squads},
          {"inter_spawns", s.inter_spawns},
          {"leaf_spawns", s.leaf_spawns},
          {"pool_takes", s.pool_takes},
          {"cross_squad_takes", s.cross_squad_takes},
          {"manual_spawns", s.manual_spawns},
          {"sent_home", s.sent_home}};
}

std::pair<std::string, json> scheduler_json(locus::runtime& rt) {
  // The name says which scheduler serves the runtime (a replay or flow scheduler installed by
  // --schedule or --flow is not cab even under LOCUS_SCHEDULER=cab).
  if (rt.scheduler_name() == "cab")
    return {"cab", cab_json(locus::cab::stats_of(locus::ext::core_ref::of(rt)))};
  return {"", nullptr};
}

}  // namespace bench
