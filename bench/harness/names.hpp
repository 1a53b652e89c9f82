// bench/harness/names.hpp — the names locus-bench's options accept and print.
//
// One table per name, from locus/detail/enum_names.hpp: the library's wherever it has one
// (locus::names_of for spawn_policy, victim_policy and scheduler_kind, dataflow's for
// steal_mode and ready_queue, schedule's for replay_mode: the stows, stuws and relws of
// --schedule), the harness's own for what only the harness names (runtime_kind in
// registry.cpp; schedule_mode's random, loop, designed and traced; the --flow placement
// tokens, as locus::dataflow::placement has no names). The parsers, the printers, the
// "expected ..." of the errors and the lists in --help all read those tables, so a spelling a
// table gains is accepted, printed and documented by locus-bench with no edit here.
//
// Unlike the library's parsers (LOCUS_POLICY and the like, which take any case), the command
// line takes each spelling exactly as its table writes it: a value is a name, not a guess.
#pragma once

#include <locus/config.hpp>
#include <locus/dataflow/graph.hpp>
#include <locus/detail/enum_names.hpp>

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "../kernel.hpp"
#include "../registry.hpp"

namespace bench {

/// --schedule's values: random, the library's replay modes (stows, stuws, relws), then loop,
/// designed and traced; what schedule_name prints and parse_schedule_name accepts.
[[nodiscard]] std::span<const locus::detail::enum_name<schedule_mode>> names_of(
    schedule_mode) noexcept;

/// "a, b or c": the canonical spelling of each value in `names` (its first), in table order,
/// joined by `sep`, the last two by `last` (" or " in messages).
template <class E>
[[nodiscard]] std::string name_list(std::span<const locus::detail::enum_name<E>> names,
                                    std::string_view last = " or ", std::string_view sep = ", ") {
  std::vector<std::string_view> canonical;
  for (std::size_t i = 0; i < names.size(); ++i) {
    bool alias = false;  // a later spelling of a value listed before
    for (std::size_t j = 0; j < i; ++j)
      alias = alias || names[j].value == names[i].value;
    if (!alias) canonical.push_back(names[i].name);
  }
  std::string out;
  for (std::size_t i = 0; i < canonical.size(); ++i) {
    if (i > 0) out += i + 1 == canonical.size() ? last : sep;
    out += canonical[i];
  }
  return out;
}

/// name_list of E's own table (names_of).
template <locus::detail::named_enum E>
[[nodiscard]] std::string name_list(std::string_view last = " or ", std::string_view sep = ", ") {
  return name_list(names_of(E{}), last, sep);
}

/// A spelling of E's table (exactly), or a cli_error "OPTION: unknown WHAT 'S'; expected ...".
/// Names of library enums: work-first | help-first | adaptive (also work_first, help_first).
[[nodiscard]] locus::spawn_policy parse_policy_name(std::string_view s);
/// random | hierarchical.
[[nodiscard]] locus::victim_policy parse_victims_name(std::string_view s);
/// slaw | cilk | laws | cab.
[[nodiscard]] locus::scheduler_kind parse_scheduler_name(std::string_view s);
/// random | stows | stuws | relws | loop | designed | traced.
[[nodiscard]] schedule_mode parse_schedule_name(std::string_view s);
/// serial | locus | tbb | omp | omp-tasks | starpu | blas.
[[nodiscard]] runtime_kind parse_runtime_name(std::string_view s);
/// "off", or an option set: "+"-joined tokens, at most one of each group: a steal mode (one |
/// half-pessimistic | half-optimistic), a ready queue (deque | priority), a placement
/// (enabling | near-data); the groups left out keep their defaults (one, deque, enabling).
/// Throws cli_error naming the bad token and the accepted ones.
[[nodiscard]] flow_choice parse_flow_name(std::string_view s);
/// What --flow accepts, for messages.
[[nodiscard]] std::string flow_tokens();
/// --flow's placement tokens: enabling, near-data.
[[nodiscard]] std::span<const locus::detail::enum_name<locus::dataflow::placement>>
flow_placements() noexcept;

/// The canonical names used in the table, the JSON and the child's command line.
[[nodiscard]] std::string_view policy_name(locus::spawn_policy p) noexcept;
[[nodiscard]] std::string_view victims_name(locus::victim_policy v) noexcept;
[[nodiscard]] std::string_view schedule_name(schedule_mode m) noexcept;
/// "off", or the steal mode followed by "+priority" and "+near-data" where they are chosen
/// (the defaults deque and enabling are left out): "one", "half-pessimistic+priority+near-data".
[[nodiscard]] std::string flow_name(const flow_choice& f);

}  // namespace bench
