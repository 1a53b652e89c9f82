// bench/harness/names.cpp — the names of locus-bench's option values (names.hpp): lookups in
// the library's name tables and the harness's own.
#include "names.hpp"

#include <locus/dataflow/flow_scheduler.hpp>
#include <locus/schedule/replay.hpp>

#include <array>
#include <optional>
#include <vector>

#include "cli.hpp"

namespace bench {

namespace {

namespace df = locus::dataflow;
using locus::detail::enum_name;
using locus::detail::named_enum;

// The --schedule value that replays under library mode `m`. A replay mode the library adds
// needs a schedule_mode (the kernels must follow it): -Wswitch names this switch, and
// bench_cli.every_library_name_is_accepted_as_the_library_spells_it fails until it
// has one.
schedule_mode schedule_of(locus::schedule::replay_mode m) noexcept {
  switch (m) {
    case locus::schedule::replay_mode::stows:
      return schedule_mode::stows;
    case locus::schedule::replay_mode::stuws:
      return schedule_mode::stuws;
    case locus::schedule::replay_mode::relws:
      return schedule_mode::relws;
  }
  return schedule_mode::random;  // not reached for a listed mode
}

// random first, the library's replay modes in its order, then the harness's own modes.
std::vector<enum_name<schedule_mode>> make_schedule_names() {
  std::vector<enum_name<schedule_mode>> out{{schedule_mode::random, "random"}};
  for (const auto& n : names_of(locus::schedule::replay_mode{}))
    out.push_back({schedule_of(n.value), n.name});
  for (const auto& n :
       std::initializer_list<enum_name<schedule_mode>>{{schedule_mode::loop, "loop"},
                                                       {schedule_mode::designed, "designed"},
                                                       {schedule_mode::traced, "traced"}})
    out.push_back(n);
  return out;
}

// --flow's placement tokens (the library names no dataflow::placement).
constexpr std::array<enum_name<df::placement>, 2> placement_names{{
    {df::placement::enabling_worker, "enabling"},
    {df::placement::near_data, "near-data"},
}};
constexpr std::span<const enum_name<df::placement>> placements(placement_names);

// The value whose spelling in `names` is exactly `s`.
template <class E>
std::optional<E> lookup(std::span<const enum_name<E>> names, std::string_view s) noexcept {
  for (const auto& n : names)
    if (n.name == s) return n.value;
  return std::nullopt;
}

// The canonical (first) spelling of `v` in `names`.
template <class E>
std::string_view first_name(std::span<const enum_name<E>> names, E v) noexcept {
  for (const auto& n : names)
    if (n.value == v) return n.name;
  return "?";
}

template <named_enum E>
E parse_named(std::string_view s, std::string_view option, std::string_view what) {
  if (auto v = lookup(names_of(E{}), s)) return *v;
  throw cli_error(std::string(option) + ": unknown " + std::string(what) + " '" + std::string(s) +
                  "'; expected " + name_list<E>());
}

// Takes `tok` from a --flow group: sets `out` and `seen` when it is one of `names`; a second
// token of the same group is an error.
template <class E>
bool take_token(std::string_view s, std::string_view tok, std::span<const enum_name<E>> names,
                E& out, bool& seen) {
  const std::optional<E> v = lookup(names, tok);
  if (!v) return false;
  if (seen) {
    throw cli_error("--flow: '" + std::string(s) + "' names more than one of " +
                    name_list(names, ", "));
  }
  seen = true;
  out = *v;
  return true;
}

}  // namespace

// The runtimes' names (declared in registry.hpp; here so that the command line's fuzz target,
// which stubs the registry, links the one table).
namespace {
constexpr std::array<enum_name<runtime_kind>, 7> runtime_names{{
    {runtime_kind::serial, "serial"},
    {runtime_kind::locus, "locus"},
    {runtime_kind::tbb, "tbb"},
    {runtime_kind::omp, "omp"},
    {runtime_kind::omp_tasks, "omp-tasks"},
    {runtime_kind::starpu, "starpu"},
    {runtime_kind::blas, "blas"},
}};
}  // namespace

std::span<const enum_name<runtime_kind>> names_of(runtime_kind) noexcept {
  return runtime_names;
}

std::string_view to_string(runtime_kind rt) noexcept {
  return locus::detail::name_of(rt, "?");
}

std::span<const enum_name<df::placement>> flow_placements() noexcept {
  return placements;
}

std::span<const enum_name<schedule_mode>> names_of(schedule_mode) noexcept {
  static const std::vector<enum_name<schedule_mode>> names = make_schedule_names();
  return names;
}

locus::spawn_policy parse_policy_name(std::string_view s) {
  return parse_named<locus::spawn_policy>(s, "--policy", "policy");
}

locus::victim_policy parse_victims_name(std::string_view s) {
  return parse_named<locus::victim_policy>(s, "--victims", "victim policy");
}

locus::scheduler_kind parse_scheduler_name(std::string_view s) {
  return parse_named<locus::scheduler_kind>(s, "--scheduler", "scheduler");
}

schedule_mode parse_schedule_name(std::string_view s) {
  return parse_named<schedule_mode>(s, "--schedule", "schedule");
}

runtime_kind parse_runtime_name(std::string_view s) {
  return parse_named<runtime_kind>(s, "--runtime", "runtime");
}

std::string flow_tokens() {
  return "off, or '+'-joined tokens, at most one of each group: " +
         name_list<df::steal_mode>(", ") + " (steal); " + name_list<df::ready_queue>(", ") +
         " (queue); " + name_list(placements, ", ") + " (placement)";
}

flow_choice parse_flow_name(std::string_view s) {
  flow_choice f;
  if (s == "off") return f;
  f.on = true;
  bool steal = false, queue = false, place = false;
  df::placement where = df::placement::enabling_worker;
  for (const std::string_view tok : split(s, '+')) {
    if (!take_token(s, tok, names_of(df::steal_mode{}), f.options.steal, steal) &&
        !take_token(s, tok, names_of(df::ready_queue{}), f.options.queue, queue) &&
        !take_token(s, tok, placements, where, place)) {
      if (tok == "off") {
        throw cli_error("--flow: off stands alone, not in an option set ('" + std::string(s) +
                        "')");
      }
      throw cli_error("--flow: unknown option '" + std::string(tok) + "' in '" + std::string(s) +
                      "'; expected " + flow_tokens());
    }
  }
  f.near_data = where == df::placement::near_data;
  return f;
}

std::string flow_name(const flow_choice& f) {
  if (!f.on) return "off";
  std::string out(df::to_string(f.options.steal));
  // The defaults (deque, enabling) are left out.
  if (f.options.queue != df::flow_options{}.queue) (out += '+') += df::to_string(f.options.queue);
  if (f.near_data) (out += '+') += first_name(placements, df::placement::near_data);
  return out;
}

std::string_view policy_name(locus::spawn_policy p) noexcept {
  return locus::to_string(p);
}

std::string_view victims_name(locus::victim_policy v) noexcept {
  return locus::to_string(v);
}

std::string_view schedule_name(schedule_mode m) noexcept {
  return locus::detail::name_of(m, "?");
}

}  // namespace bench
