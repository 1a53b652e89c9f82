// locus/config.hpp — runtime configuration: in code, or from LOCUS_* environment variables.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace locus {

/// Thrown for any bad configuration input. The message names the input (an environment
/// variable or a config field), the bad value, and the accepted forms.
class config_error : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// What becomes stealable at a spawn (SLAW section III).
enum class spawn_policy : std::uint8_t {
  work_first,  ///< run the child now; the parent's continuation is stealable (Cilk)
  help_first,  ///< push the child; the parent continues (HJ, TBB)
  adaptive,    ///< SLAW: per worker, re-evaluated every `interval` spawns, bounded by S and F
};

/// How a thief picks victims.
enum class victim_policy : std::uint8_t {
  random,        ///< uniformly at random among the allowed workers (the Cilk baseline)
  hierarchical,  ///< same L3 group first, then same NUMA node / socket, then the rest
};

/// SLAW's adaptive-policy parameters; units are spawns (interval), fresh tasks (F) and
/// activation frames (S). See docs/design/slaw-adaptive.md for how S maps onto coroutine frames.
struct slaw_params {
  std::uint32_t interval = 64;      ///< INT: re-evaluate the policy every INT spawns
  std::uint32_t fresh_limit = 128;  ///< F: at or above this many fresh tasks, spawn work-first
  std::uint32_t stack_limit = 256;  ///< S: at or above this many on-stack frames, spawn help-first
  /// The heuristic spawns help-first for the next interval when more than this many tasks were
  /// stolen from the worker during the last one. The paper compares with INT (the default).
  std::uint32_t steal_threshold = 64;
};

/// Runtime configuration. Defaults: one pinned worker per core of the real machine, adaptive
/// spawning, hierarchical victims, one place per socket, no cross-place stealing.
struct config {
  unsigned workers = 0;                          ///< 0: one per core of the topology
  spawn_policy policy = spawn_policy::adaptive;  ///< default policy of spawns without an option
  victim_policy victims = victim_policy::hierarchical;
  std::string topology;             ///< empty: discover with hwloc; else a virtual spec
  std::string places = "socket";    ///< socket | numa | l3 | none | N (N equal groups)
  bool cross_place_steals = false;  ///< may idle workers steal from other places?
  bool pin = true;                  ///< pin each worker to its processor
  slaw_params slaw{};

  /// Reads LOCUS_WORKERS, LOCUS_POLICY, LOCUS_VICTIMS, LOCUS_TOPOLOGY, LOCUS_PLACES,
  /// LOCUS_CROSS_PLACE_STEALS, LOCUS_PIN and LOCUS_SLAW over the defaults. Unset or empty
  /// variables keep the default; any other bad value throws config_error.
  [[nodiscard]] static config from_env();
};

/// The one error format every parser uses:
///   WHAT="VALUE" is not valid[ (REASON)]; expected EXPECTED
/// Non-printable characters of VALUE are written as \xNN.
[[nodiscard]] config_error make_config_error(std::string_view what, std::string_view value,
                                             std::string_view expected,
                                             std::string_view reason = {});

/// Parsers shared by from_env() and the benchmark harness. `what` names the input in errors.
[[nodiscard]] spawn_policy parse_spawn_policy(std::string_view value, std::string_view what);
[[nodiscard]] victim_policy parse_victim_policy(std::string_view value, std::string_view what);
/// "int=64,f=128,s=256": any subset of keys, each a positive integer.
[[nodiscard]] slaw_params parse_slaw(std::string_view value, std::string_view what);
/// A positive worker count (at most 4096).
[[nodiscard]] unsigned parse_workers(std::string_view value, std::string_view what);
/// "0" | "1" | "true" | "false" | "on" | "off".
[[nodiscard]] bool parse_bool(std::string_view value, std::string_view what);
/// Validates a places spec (see config::places) without a topology; throws config_error.
void validate_places(std::string_view value, std::string_view what);

[[nodiscard]] std::string_view to_string(spawn_policy p) noexcept;
[[nodiscard]] std::string_view to_string(victim_policy v) noexcept;

}  // namespace locus
