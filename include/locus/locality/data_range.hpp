// locus/locality/data_range.hpp — the bytes a task says it will touch, and LAWS's split of a
// parent's range among its children (Eq. 1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "locus/detail/enum_names.hpp"

namespace locus {

/// What a task does to a range. The values are bits: read_write == read | write.
enum class access : std::uint8_t { read = 1, write = 2, read_write = 3 };

/// True if `mode` includes writing (write or read_write): only a write may first-touch a page.
[[nodiscard]] constexpr bool writes(access mode) noexcept {
  return (static_cast<std::uint8_t>(mode) & static_cast<std::uint8_t>(access::write)) != 0;
}

namespace locality::detail {
// Out of line so that the factories below stay small; each throws std::invalid_argument
// (locus::config_error) in the project's message format.
[[noreturn]] void throw_null_range(const char* factory);
[[noreturn]] void throw_empty_range(const char* factory, const char* input);
[[noreturn]] void throw_inverted_range(const void* first, const void* last);
}  // namespace locality::detail

/// A non-empty byte range [begin, begin + bytes) with an access intent. The factories refuse
/// empty and inverted ranges, so a data_range that came from one always has bytes > 0; a
/// default-constructed one (bytes == 0) means "no data" and part() of a range smaller than its
/// number of parts may yield one too.
struct data_range {
  const std::byte* begin = nullptr;
  std::size_t bytes = 0;
  access mode = access::read;

  /// `count` elements of T starting at `p`. Throws std::invalid_argument for count == 0 or a
  /// null `p`.
  template <class T>
  [[nodiscard]] static data_range of(const T* p, std::size_t count, access mode) {
    if (count == 0) locality::detail::throw_empty_range("data_range::of", "count");
    if (p == nullptr) locality::detail::throw_null_range("data_range::of");
    return {reinterpret_cast<const std::byte*>(p), count * sizeof(T), mode};
  }

  /// The elements of `s`. Throws std::invalid_argument for an empty span.
  template <class T, std::size_t N>
  [[nodiscard]] static data_range of(std::span<T, N> s, access mode) {
    if (s.empty()) locality::detail::throw_empty_range("data_range::of", "span.size()");
    return of(static_cast<const T*>(s.data()), s.size(), mode);
  }

  /// The half-open range [first, last). Throws std::invalid_argument if last <= first (empty
  /// or inverted).
  [[nodiscard]] static data_range between(const void* first, const void* last, access mode);

  [[nodiscard]] const std::byte* end() const noexcept { return begin + bytes; }
  [[nodiscard]] bool empty() const noexcept { return bytes == 0; }
  friend bool operator==(const data_range&, const data_range&) = default;
};

/// LAWS Eq. 1: the i-th (0-based) of `b` equal parts of `r`, for a task that spawns b children
/// without ranges of their own. Parts are cut on multiples of `grain` bytes (pass sizeof(T) to
/// keep elements whole); each of the first b-1 parts has floor(units / b) grains, and the last
/// absorbs the remainder (the leftover grains and any bytes past the last whole grain). When r
/// holds fewer than b grains the leading parts are empty (bytes == 0: no data). The mode is r's.
/// Throws std::invalid_argument for b == 0, i >= b or grain == 0.
[[nodiscard]] data_range part(const data_range& r, std::size_t i, std::size_t b,
                              std::size_t grain = 1);

/// "0x7f..+4096 (read)" — for messages and logs.
[[nodiscard]] std::string to_string(const data_range& r);
[[nodiscard]] const char* to_string(access mode) noexcept;
/// The name table (locus/detail/enum_names.hpp): "read", "write", "read_write".
[[nodiscard]] std::span<const detail::enum_name<access>> names_of(access) noexcept;

}  // namespace locus
