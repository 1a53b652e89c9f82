// locus/algorithm/index_range.hpp — index arithmetic shared by parallel_for and parallel_reduce:
// mixed index types, and range lengths that cannot overflow.
#pragma once

#include <concepts>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace locus {

/// An integer type usable as a loop index: not bool, not a character type (char, wchar_t,
/// char8_t, char16_t, char32_t); signed char and unsigned char are.
template <class I>
concept index_integral =
    std::integral<I> && !std::same_as<std::remove_cv_t<I>, bool> &&
    !std::same_as<std::remove_cv_t<I>, char> && !std::same_as<std::remove_cv_t<I>, wchar_t> &&
    !std::same_as<std::remove_cv_t<I>, char8_t> && !std::same_as<std::remove_cv_t<I>, char16_t> &&
    !std::same_as<std::remove_cv_t<I>, char32_t>;

namespace detail {

/// The index type of a range given as (first, last) of possibly different integer types: their
/// common type, e.g. std::size_t for parallel_for(0, v.size(), ...).
template <index_integral I, index_integral J>
using common_index_t = std::common_type_t<I, J>;

/// The length of [lo, hi) for lo <= hi, exact for every pair of I values: the true difference
/// of two I values is below 2^bits(I), so it fits in the unsigned type (hi - lo in I itself
/// overflows, e.g. for [INT_MIN, INT_MAX)).
template <index_integral I>
[[nodiscard]] constexpr std::make_unsigned_t<I> range_length(I lo, I hi) noexcept {
  using U = std::make_unsigned_t<I>;
  return static_cast<U>(static_cast<U>(hi) - static_cast<U>(lo));
}

/// lo + n, for n <= range_length(lo, hi) of some hi: computed modulo 2^bits(I), so the result
/// is the exact value and no intermediate overflows.
template <index_integral I>
[[nodiscard]] constexpr I advance_index(I lo, std::make_unsigned_t<I> n) noexcept {
  using U = std::make_unsigned_t<I>;
  return static_cast<I>(static_cast<U>(static_cast<U>(lo) + n));
}

/// Where [lo, hi) splits: the midpoint. Only called with range_length(lo, hi) > grain >= 1.
template <index_integral I>
[[nodiscard]] constexpr I split_point(I lo, I hi) noexcept {
  return advance_index(lo, static_cast<std::make_unsigned_t<I>>(range_length(lo, hi) / 2));
}

/// `grain` as a chunk length in make_unsigned_t<I>: at least 1, and a grain beyond the largest
/// length means "one chunk".
template <index_integral I, index_integral G>
[[nodiscard]] constexpr std::make_unsigned_t<I> chunk_grain(G grain) noexcept {
  using U = std::make_unsigned_t<I>;
  if (grain < 1) return 1;
  if (!std::in_range<U>(grain)) return static_cast<U>(-1);
  return static_cast<U>(grain);
}

/// `v` in the index type I, or std::out_of_range naming `what` (e.g. first = -1 with a
/// std::size_t last: the range would silently become [SIZE_MAX, last)).
template <index_integral I, index_integral V>
[[nodiscard]] I to_index(V v, const char* algorithm, const char* what) {
  if (!std::in_range<I>(v)) {
    throw std::out_of_range(std::string("locus::") + algorithm + ": " + what + " = " +
                            std::to_string(v) + " is not representable in the index type " +
                            "(the common type of first and last)");
  }
  return static_cast<I>(v);
}

}  // namespace detail

}  // namespace locus
