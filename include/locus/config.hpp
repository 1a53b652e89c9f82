// locus/config.hpp — runtime configuration: in code, or from LOCUS_* environment variables.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include "locus/detail/enum_names.hpp"

namespace locus {

namespace ext {
struct scheduler;  // locus/ext/scheduler.hpp
}

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

/// How workers are laid onto the cores of the topology (OpenMP's proc_bind). Both give every
/// core one worker when there are as many workers as cores, and number workers in core order,
/// so that the workers of a socket (and of a place) have adjacent indices; they differ in
/// which cores fewer workers take. With more workers than cores, each full round of workers
/// takes every core once and the last, partial round follows the policy.
enum class bind_policy : std::uint8_t {
  spread,  ///< as far apart as the tree allows: one core per socket, then per NUMA node, per
           ///< L3 group, then the next core of each (the default)
  close,   ///< the first cores in order: a socket's cores before the next socket's
};

/// How a worker's deque orders the owner's pop against thieves (docs/design/0021). The pop
/// runs once per completed work-first child, a steal once per steal: which fixed form is faster
/// depends on how often the program steals (docs/benchmarks.md, 2026-11-27g); the adaptive
/// form follows the steals (2026-11-28).
enum class pop_fence_policy : std::uint8_t {
  full,        ///< Chase–Lev's fence in every pop (one locked instruction on x86); a steal
               ///< costs no system call
  asymmetric,  ///< no fence in the pop; every steal attempt at a deque that looks non-empty
               ///< makes a membarrier(2) system call, which briefly interrupts every running
               ///< thread of the process: faster for programs that rarely steal (fib at one
               ///< worker), slower for those that steal often (fj-rec at two). Linux x86-64 and
               ///< AArch64 only: elsewhere the runtime refuses to start with it (config_error)
  adaptive,    ///< no fence in the pop while nobody steals from the deque; the first steal of
               ///< an episode makes the membarrier call and switches the owner to the full
               ///< fence, which it keeps until 4096 of its pops pass with no steal. Where
               ///< membarrier is not available it is `full`, with no error (the default)
};

/// Which scheduler runs the tasks: a combination of a spawn rule, a placement and an
/// acquisition (locus/ext/scheduler.hpp, docs/design/0006-scheduler-strategies.md).
enum class scheduler_kind : std::uint8_t {
  slaw,  ///< SLAW: `policy` (adaptive by default), `victims`, `places`, as configured
  cilk,  ///< Cilk: work-first spawns, random victims among all workers, one place; the
         ///< policy, victims, places and cross_place_steals fields are not used
  laws,  ///< LAWS (locus/laws.hpp, docs/design/0017): tasks on the socket holding their
         ///< declared data, cache-fitting subtrees tuned across iterations (locus/iterate.hpp),
         ///< three-level stealing; places are sockets, no cross-place stealing
  cab,   ///< CAB (locus/cab.hpp, docs/design/0018): squads per socket, a boundary level that
         ///< splits the task tree into an inter-socket tier (parent-first into the squads'
         ///< pools) and an intra-socket tier (child-first, stolen within the squad); places
         ///< are sockets, no cross-place stealing; options in `cab` (LOCUS_CAB)
};

/// CAB's parameters (locus/cab.hpp, docs/design/0018-cab.md): what Eq. 4 reads, or the
/// boundary level itself. Unset fields (the defaults) are found at run time.
struct cab_params {
  static constexpr int k_auto = -1;
  static constexpr int k_max_level = 63;  ///< a deeper boundary would need 2^62 tasks
  /// BL, the boundary level: k_auto (Eq. 4), or 0..k_max_level (0: no inter-socket tier).
  int boundary_level = k_auto;
  /// B, the branching degree: 0 reads it from the declared data (the root's S_d over its
  /// first spawned child's, rounded, at least 2; 2 when that child declares none), else >= 2.
  unsigned branching = 0;
  /// S_d in bytes: 0 is what the root reads (its ranges declared read or read_write, added up;
  /// all its ranges if it reads none: cab::data_size), e.g. one of a stencil's two grids.
  std::size_t data_bytes = 0;
  /// S_c in bytes: 0 is one socket's L3 from the topology (as LAWS computes it).
  std::size_t cache_bytes = 0;
  /// Manual tiers: no automatic inter-socket tier (every spawn is intra-socket, stolen within
  /// its squad); only cab::spawn_inter places tasks on other squads.
  bool manual = false;
};

/// SLAW's adaptive-policy parameters; units are spawns (interval), fresh tasks (F) and
/// activation frames (S). See docs/design/slaw-adaptive.md for how S maps onto coroutine frames.
struct slaw_params {
  std::uint32_t interval = 64;      ///< INT: re-evaluate the policy every INT spawns
  std::uint32_t fresh_limit = 128;  ///< F: at or above this many fresh tasks, spawn work-first
  std::uint32_t stack_limit = 256;  ///< S: at or above this many on-stack frames, spawn help-first
  /// The heuristic spawns help-first for the next interval when more than this many tasks were
  /// stolen from the worker during the last one. The paper compares with INT (the default).
  /// 0 is valid: any steal during an interval switches the next one to help-first.
  std::uint32_t steal_threshold = 64;
};

/// Runtime configuration. Defaults: one pinned worker per core of the real machine, adaptive
/// spawning, hierarchical victims, one place per socket, no cross-place stealing.
struct config {
  scheduler_kind scheduler = scheduler_kind::slaw;
  /// A scheduler built from other strategies (an extension's); when set it replaces the
  /// acquisition (and, if it has one, the spawn rule) of `scheduler`.
  std::shared_ptr<const ext::scheduler> custom_scheduler;
  unsigned workers = 0;                          ///< 0: one per core of the topology
  spawn_policy policy = spawn_policy::adaptive;  ///< default policy of spawns without an option
  victim_policy victims = victim_policy::hierarchical;
  std::string topology;                    ///< empty: discover with hwloc; else a virtual spec
  std::string places = "socket";           ///< socket | numa | l3 | none | N (N equal groups)
  bind_policy bind = bind_policy::spread;  ///< which cores the workers take (and their order)
  bool cross_place_steals = false;         ///< may idle workers steal from other places?
  bool pin = true;                         ///< pin each worker to its processor
  pop_fence_policy pop_fence = pop_fence_policy::adaptive;  ///< the deques' pop (LOCUS_POP_FENCE)
  /// Locality accounting (locus/data.hpp, runtime::locality()): count every declared access
  /// by its distance to the data's home and feed a model of each L3. Off: no cost.
  bool accounting = false;
  /// Tracing (locus/ext/tracing.hpp): a Chrome trace-event JSON file written when the runtime
  /// is destroyed (open it in ui.perfetto.dev or chrome://tracing). Empty: off, no cost.
  std::string trace;
  /// The line of the accounting's cache models in bytes: a power of two from 8 to 4096.
  /// Coarser lines cost less and model less (exact only for accesses of whole lines).
  std::size_t line_bytes = 64;
  /// Accounting without the cache models: bytes by distance to their homes only, no misses.
  bool homes_only = false;
  slaw_params slaw{};
  /// CAB's parameters (scheduler_kind::cab; LOCUS_CAB).
  cab_params cab{};
  /// The value from_env() read from LOCUS_PLACES into `places`, or empty. While `places` still
  /// holds it, errors raised when the runtime starts (N places but fewer workers) name
  /// LOCUS_PLACES; otherwise they name the `places` field.
  std::string places_from_env;

  /// The input that errors about `places` name: "LOCUS_PLACES" or "places" (see above).
  [[nodiscard]] std::string_view places_input() const noexcept;

  /// Reads LOCUS_SCHEDULER, LOCUS_ACCOUNTING, LOCUS_LINE_BYTES, LOCUS_HOMES_ONLY, LOCUS_TRACE,
  /// LOCUS_WORKERS, LOCUS_POLICY, LOCUS_VICTIMS, LOCUS_TOPOLOGY, LOCUS_PLACES, LOCUS_BIND,
  /// LOCUS_CROSS_PLACE_STEALS, LOCUS_PIN, LOCUS_POP_FENCE, LOCUS_SLAW and LOCUS_CAB over the
  /// defaults. Unset or empty variables keep the default; any other bad value throws
  /// config_error.
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
/// "slaw" | "cilk" | "laws" | "cab", in any case.
[[nodiscard]] scheduler_kind parse_scheduler(std::string_view value, std::string_view what);
[[nodiscard]] victim_policy parse_victim_policy(std::string_view value, std::string_view what);
/// "spread" | "close", in any case.
[[nodiscard]] bind_policy parse_bind(std::string_view value, std::string_view what);
/// "full" | "asymmetric" | "adaptive", in any case.
[[nodiscard]] pop_fence_policy parse_pop_fence(std::string_view value, std::string_view what);
/// "int=64,f=128,s=256,steals=64": any subset of keys; int, f, s positive integers, steals a
/// non-negative one (0: any steal switches to help-first).
[[nodiscard]] slaw_params parse_slaw(std::string_view value, std::string_view what);
/// The rules of parse_slaw for parameters set in code: throws config_error naming the field,
/// e.g. `slaw.interval="0" is not valid; expected ...` for what = "slaw".
void validate_slaw(const slaw_params& p, std::string_view what);
/// "bl=N,b=B,sd=BYTES,sc=BYTES" (any subset, any case) or "manual" (alone or as one item):
/// CAB's parameters (cab_params). bl in 0..63, b >= 2, sd and sc positive byte counts.
[[nodiscard]] cab_params parse_cab(std::string_view value, std::string_view what);
/// The rules of parse_cab for parameters set in code: throws config_error naming the field,
/// e.g. `cab.branching="1" is not valid; expected ...` for what = "cab".
void validate_cab(const cab_params& p, std::string_view what);
/// A positive worker count (at most 4096).
[[nodiscard]] unsigned parse_workers(std::string_view value, std::string_view what);
/// A line size of the cache models: a power of two from 8 to 4096 (config::line_bytes).
[[nodiscard]] std::size_t parse_line_bytes(std::string_view value, std::string_view what);
/// "1" | "0" | "true" | "false" | "on" | "off", in any case.
[[nodiscard]] bool parse_bool(std::string_view value, std::string_view what);
/// Validates a places spec (see config::places) without a topology; throws config_error.
void validate_places(std::string_view value, std::string_view what);

/// The message of the std::out_of_range raised when at(place) names no place of a runtime with
/// `num_places` places, e.g. "WHO at(5) names no place; expected at(0) to at(1) (this runtime
/// has 2 places)", or "... expected at(0) (this runtime has 1 place)".
[[nodiscard]] std::string bad_place_message(std::string_view who, std::uint64_t place,
                                            std::size_t num_places);

[[nodiscard]] std::string_view to_string(spawn_policy p) noexcept;
[[nodiscard]] std::string_view to_string(scheduler_kind s) noexcept;
[[nodiscard]] std::string_view to_string(victim_policy v) noexcept;
[[nodiscard]] std::string_view to_string(bind_policy b) noexcept;
[[nodiscard]] std::string_view to_string(pop_fence_policy f) noexcept;

/// The name tables of the enums above (locus/detail/enum_names.hpp): what to_string prints and
/// the parsers accept.
[[nodiscard]] std::span<const detail::enum_name<spawn_policy>> names_of(spawn_policy) noexcept;
[[nodiscard]] std::span<const detail::enum_name<scheduler_kind>> names_of(scheduler_kind) noexcept;
[[nodiscard]] std::span<const detail::enum_name<victim_policy>> names_of(victim_policy) noexcept;
[[nodiscard]] std::span<const detail::enum_name<bind_policy>> names_of(bind_policy) noexcept;
[[nodiscard]] std::span<const detail::enum_name<pop_fence_policy>> names_of(
    pop_fence_policy) noexcept;

}  // namespace locus
