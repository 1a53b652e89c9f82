// bench/kernels/dims.hpp — parsing of "AxBxC" kernel sizes shared by the grid kernels.
#pragma once

#include <array>
#include <charconv>
#include <cstddef>
#include <string_view>
#include <system_error>

namespace bench {

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
