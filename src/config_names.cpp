// config_names.cpp — the name tables of the configuration enums (locus/detail/enum_names.hpp)
// and the to_string and parse functions that follow from them.
#include <array>
#include <span>
#include <string_view>

#include "locus/config.hpp"
#include "locus/detail/enum_names.hpp"

namespace locus {

namespace {

using detail::enum_name;

constexpr std::array<enum_name<spawn_policy>, 5> spawn_policy_names{{
    {spawn_policy::work_first, "work-first"},
    {spawn_policy::work_first, "work_first"},
    {spawn_policy::help_first, "help-first"},
    {spawn_policy::help_first, "help_first"},
    {spawn_policy::adaptive, "adaptive"},
}};

constexpr std::array<enum_name<scheduler_kind>, 4> scheduler_names{{
    {scheduler_kind::slaw, "slaw"},
    {scheduler_kind::cilk, "cilk"},
    {scheduler_kind::laws, "laws"},
    {scheduler_kind::cab, "cab"},
}};

constexpr std::array<enum_name<victim_policy>, 2> victim_names{{
    {victim_policy::random, "random"},
    {victim_policy::hierarchical, "hierarchical"},
}};

constexpr std::array<enum_name<bind_policy>, 2> bind_names{{
    {bind_policy::spread, "spread"},
    {bind_policy::close, "close"},
}};

constexpr std::array<enum_name<pop_fence_policy>, 3> pop_fence_names{{
    {pop_fence_policy::full, "full"},
    {pop_fence_policy::asymmetric, "asymmetric"},
    {pop_fence_policy::adaptive, "adaptive"},
}};

/// The value `value` spells, or a config_error naming `what` and listing the table's forms.
template <detail::named_enum E>
E parse_or_throw(std::string_view value, std::string_view what) {
  if (auto v = detail::parse_name<E>(value)) return *v;
  throw make_config_error(what, value, detail::name_forms<E>());
}

}  // namespace

std::span<const enum_name<spawn_policy>> names_of(spawn_policy) noexcept {
  return spawn_policy_names;
}
std::span<const enum_name<scheduler_kind>> names_of(scheduler_kind) noexcept {
  return scheduler_names;
}
std::span<const enum_name<victim_policy>> names_of(victim_policy) noexcept {
  return victim_names;
}
std::span<const enum_name<bind_policy>> names_of(bind_policy) noexcept {
  return bind_names;
}
std::span<const enum_name<pop_fence_policy>> names_of(pop_fence_policy) noexcept {
  return pop_fence_names;
}

std::string_view to_string(spawn_policy p) noexcept {
  return detail::name_of(p);
}
std::string_view to_string(scheduler_kind s) noexcept {
  return detail::name_of(s);
}
std::string_view to_string(victim_policy v) noexcept {
  return detail::name_of(v);
}
std::string_view to_string(bind_policy b) noexcept {
  return detail::name_of(b);
}
std::string_view to_string(pop_fence_policy f) noexcept {
  return detail::name_of(f);
}

spawn_policy parse_spawn_policy(std::string_view value, std::string_view what) {
  return parse_or_throw<spawn_policy>(value, what);
}
scheduler_kind parse_scheduler(std::string_view value, std::string_view what) {
  return parse_or_throw<scheduler_kind>(value, what);
}
victim_policy parse_victim_policy(std::string_view value, std::string_view what) {
  return parse_or_throw<victim_policy>(value, what);
}
bind_policy parse_bind(std::string_view value, std::string_view what) {
  return parse_or_throw<bind_policy>(value, what);
}
pop_fence_policy parse_pop_fence(std::string_view value, std::string_view what) {
  return parse_or_throw<pop_fence_policy>(value, what);
}

}  // namespace locus
