// locus/detail/strings.hpp — the string helpers the parsers share (config, topology specs,
// enum names): ASCII-only, locale-free, allocation-free where they can be.
#pragma once

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace locus::detail {

/// `s` without leading and trailing white space (the C locale's isspace).
[[nodiscard]] inline std::string_view trim(std::string_view s) noexcept {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
    s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.remove_suffix(1);
  return s;
}

/// `s` with ASCII letters lowered.
[[nodiscard]] inline std::string lowercase(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

/// Case-insensitive equality of ASCII keywords.
[[nodiscard]] inline bool iequals(std::string_view a, std::string_view b) noexcept {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

/// A leading run of decimal digits (no sign, no space); the rest of `s` goes to `rest`.
/// nullopt when `s` does not start with a digit or the number overflows 64 bits.
[[nodiscard]] inline std::optional<std::uint64_t> leading_uint(std::string_view s,
                                                               std::string_view& rest) noexcept {
  std::uint64_t v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || ptr == s.data()) return std::nullopt;
  rest = s.substr(static_cast<std::size_t>(ptr - s.data()));
  return v;
}

/// Digits only, the whole of `s`: no sign, no spaces, no suffix. nullopt on anything else or
/// on overflow.
[[nodiscard]] inline std::optional<std::uint64_t> parse_uint(std::string_view s) noexcept {
  std::string_view rest;
  auto v = leading_uint(s, rest);
  if (!v || !rest.empty()) return std::nullopt;
  return v;
}

}  // namespace locus::detail
