// bench/kernels/dims.hpp — parsing of kernel sizes: one integer ("35") or several ("256x256x10").
#pragma once

#include <array>
#include <charconv>
#include <cstddef>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

namespace bench {

/// Parses the whole of `s` as a decimal integer in [lo, hi], with std::stoll's syntax (leading
/// blanks and a sign accepted); nullopt for anything else.
[[nodiscard]] inline std::optional<long long> parse_int(const std::string& s, long long lo,
                                                        long long hi) {
  std::size_t used = 0;
  long long v = 0;
  try {
    v = std::stoll(s, &used);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (used != s.size() || v < lo || v > hi) return std::nullopt;
  return v;
}

/// Parses exactly N decimal integers separated by 'x' (e.g. "256x256x10") into `out`.
/// Returns false for anything else; range checks are the caller's.
template <class I, std::size_t N>
[[nodiscard]] bool parse_dims(std::string_view s, std::array<I, N>& out) {
  const char* p = s.data();
  const char* end = p + s.size();
  for (std::size_t k = 0; k < N; ++k) {
    auto [next, ec] = std::from_chars(p, end, out[k]);
    if (ec != std::errc{} || next == p) return false;
    p = next;
    if (k + 1 < N && (p == end || *p++ != 'x')) return false;
  }
  return p == end;
}

}  // namespace bench
