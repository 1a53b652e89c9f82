// locus/detail/enum_names.hpp — one table of names per enum, from which its to_string, its
// parser and the "expected ..." part of its error messages all follow.
//
// An enum E takes part by declaring, in its own namespace (so that lookup finds it),
//   std::span<const detail::enum_name<E>> names_of(E) noexcept;
// whose table lists every accepted spelling: each value's canonical name first (the one
// to_string prints), its aliases after it, values in the order messages should list them.
// Parsing is case-insensitive and ignores surrounding white space, so the table holds each
// spelling once, in lower case.
#pragma once

#include <concepts>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "locus/detail/strings.hpp"

namespace locus::detail {

/// One accepted spelling of an enum value.
template <class E>
struct enum_name {
  E value;
  std::string_view name;
};

template <class E>
concept named_enum = std::is_enum_v<E> && requires(E e) {
  { names_of(e) } -> std::convertible_to<std::span<const enum_name<E>>>;
};

/// The canonical name of `v` (the first spelling of its value in the table), or `unknown` for
/// a value the table does not list (a corrupted or newer value).
template <named_enum E>
[[nodiscard]] std::string_view name_of(E v, std::string_view unknown = "unknown") noexcept {
  for (const auto& n : names_of(v)) {
    if (n.value == v) return n.name;
  }
  return unknown;
}

/// The value spelled `s` (any case, surrounding white space ignored), or nullopt.
template <named_enum E>
[[nodiscard]] std::optional<E> parse_name(std::string_view s) noexcept {
  const std::string_view t = trim(s);
  for (const auto& n : names_of(E{})) {
    if (iequals(t, n.name)) return n.value;
  }
  return std::nullopt;
}

/// What a message expects, e.g. "one of: work-first, help-first, adaptive (any case; also
/// work_first, help_first)": the canonical names, then the aliases.
template <named_enum E>
[[nodiscard]] std::string name_forms() {
  std::string canonical, aliases;
  const auto names = names_of(E{});
  for (std::size_t i = 0; i < names.size(); ++i) {
    bool first = true;  // the first spelling of its value?
    for (std::size_t j = 0; j < i && first; ++j)
      first = names[j].value != names[i].value;
    std::string& list = first ? canonical : aliases;
    if (!list.empty()) list += ", ";
    list += names[i].name;
  }
  std::string out = "one of: " + canonical + " (any case";
  if (!aliases.empty()) out += "; also " + aliases;
  return out + ")";
}

}  // namespace locus::detail
