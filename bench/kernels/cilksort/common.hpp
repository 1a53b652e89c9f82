// cilksort: Cilk's parallel merge sort. A range of at least k_quick_size elements splits into
// four quarters sorted in parallel; the quarters merge pairwise in parallel into the scratch
// array, and the two halves merge back. A merge whose smaller input has at least
// k_merge_size elements splits at the larger input's middle element, finds that element's
// place in the smaller input by binary search, and runs both sides in parallel. Below the
// thresholds: median-of-three quicksort down to k_insertion_size, then insertion sort.
// Input: 0..n-1 shuffled by the LCG x = x * 1103515245 + 12345 (seed 1), swapping a[i] with
// a[x % n]; the check is a[i] == i. Small 100000, default 3000000.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "../../kernel.hpp"
#include "../dims.hpp"

namespace cilksort_kernel {

using elem = long;

inline constexpr std::size_t k_merge_size = 2048;
inline constexpr std::size_t k_quick_size = 2048;
inline constexpr std::size_t k_insertion_size = 20;

[[nodiscard]] inline std::size_t parse_n(const std::string& size) {
  const auto n = bench::parse_int(size, 1, 1ll << 32);
  if (!n) {
    throw std::invalid_argument("cilksort: size must be an integer n in [1, 2^32], got '" + size +
                                "'");
  }
  return static_cast<std::size_t>(*n);
}

/// 0..n-1 shuffled as the Cilk example does.
[[nodiscard]] inline std::vector<elem> make_input(std::size_t n) {
  std::vector<elem> a(n);
  for (std::size_t i = 0; i < n; ++i)
    a[i] = static_cast<elem>(i);
  std::uint64_t x = 1;
  for (std::size_t i = 0; i < n; ++i) {
    x = x * 1103515245u + 12345u;
    std::swap(a[i], a[x % n]);
  }
  return a;
}

inline void insertion_sort(elem* lo, elem* hi) {
  for (elem* p = lo + 1; p < hi; ++p) {
    const elem v = *p;
    elem* q = p;
    for (; q > lo && *(q - 1) > v; --q)
      *q = *(q - 1);
    *q = v;
  }
}

/// Partitions [lo, hi) (at least 3 elements) around the median of its first, middle and last
/// elements; returns m with [lo, m) <= pivot <= [m, hi) and both sides non-empty.
[[nodiscard]] inline elem* partition(elem* lo, elem* hi) {
  elem* mid = lo + (hi - lo) / 2;
  elem* last = hi - 1;
  if (*mid < *lo) std::swap(*mid, *lo);
  if (*last < *mid) std::swap(*last, *mid);
  if (*mid < *lo) std::swap(*mid, *lo);
  const elem pivot = *mid;
  elem* i = lo - 1;
  elem* j = hi;
  for (;;) {
    do
      ++i;
    while (*i < pivot);
    do
      --j;
    while (*j > pivot);
    if (i >= j) return j + 1;
    std::swap(*i, *j);
  }
}

/// Sequential quicksort, recursing on the smaller side so the stack stays logarithmic.
inline void seq_quick(elem* lo, elem* hi) {
  while (static_cast<std::size_t>(hi - lo) > k_insertion_size) {
    elem* m = partition(lo, hi);
    if (m - lo < hi - m) {
      seq_quick(lo, m);
      lo = m;
    } else {
      seq_quick(m, hi);
      hi = m;
    }
  }
  insertion_sort(lo, hi);
}

/// Merges sorted [lo1, hi1) and [lo2, hi2) into dest.
inline void seq_merge(const elem* lo1, const elem* hi1, const elem* lo2, const elem* hi2,
                      elem* dest) {
  while (lo1 < hi1 && lo2 < hi2)
    *dest++ = *lo2 < *lo1 ? *lo2++ : *lo1++;
  dest = std::copy(lo1, hi1, dest);
  std::copy(lo2, hi2, dest);
}

/// One merge's inputs and output, normalised so that the first input is the larger.
struct merge_args {
  const elem* lo1;
  const elem* hi1;
  const elem* lo2;
  const elem* hi2;
  elem* dest;

  [[nodiscard]] merge_args normalised() const {
    if (hi1 - lo1 < hi2 - lo2) return {lo2, hi2, lo1, hi1, dest};
    return *this;
  }
  /// Small enough to merge sequentially (the smaller input is below k_merge_size).
  [[nodiscard]] bool sequential() const {
    return static_cast<std::size_t>(hi2 - lo2) < k_merge_size;
  }
};

/// Splits a normalised, non-sequential merge at the first input's middle element, which is
/// stored at its final place; the two returned merges are independent.
[[nodiscard]] inline std::pair<merge_args, merge_args> split_merge(const merge_args& m) {
  const elem* split1 = m.lo1 + (m.hi1 - m.lo1) / 2;
  const elem* split2 = std::lower_bound(m.lo2, m.hi2, *split1);
  const std::ptrdiff_t low_size = (split1 - m.lo1) + (split2 - m.lo2);
  m.dest[low_size] = *split1;
  return {merge_args{m.lo1, split1, m.lo2, split2, m.dest},
          merge_args{split1 + 1, m.hi1, split2, m.hi2, m.dest + low_size + 1}};
}

/// The four quarters of a sort of [lo, lo + n) with scratch tmp: quarter q is
/// [lo + start(q), lo + start(q + 1)).
[[nodiscard]] inline std::size_t quarter_start(std::size_t n, int q) {
  return q == 4 ? n : (n / 4) * static_cast<std::size_t>(q);
}

/// The merge's base case, shared by every version: a normalised merge whose smaller input is
/// below k_merge_size is merged here (true); otherwise nothing is done (false: split it).
[[nodiscard]] inline bool merge_leaf(const merge_args& normalised) {
  if (!normalised.sequential()) return false;
  const merge_args& m = normalised;
  seq_merge(m.lo1, m.hi1, m.lo2, m.hi2, m.dest);
  return true;
}

/// The sort's base case, shared by every version: below k_quick_size elements [a, a + n) is
/// sorted here (true); otherwise nothing is done (false: split it with a sort_plan).
[[nodiscard]] inline bool sort_leaf(elem* a, std::size_t n) {
  if (n >= k_quick_size) return false;
  seq_quick(a, a + n);
  return true;
}

/// One split of a sort of [a, a + n) with scratch tmp: sort the four quarters, merge them
/// pairwise into the scratch array (pair_merge(0) and (1), independent), then merge the two
/// halves back (final_merge()).
struct sort_plan {
  elem* a;
  elem* tmp;
  std::array<std::size_t, 5> s;  ///< quarter q is [s[q], s[q + 1])

  sort_plan(elem* a_, elem* tmp_, std::size_t n) : a(a_), tmp(tmp_), s{} {
    for (int q = 0; q <= 4; ++q)
      s[static_cast<std::size_t>(q)] = quarter_start(n, q);
  }
  [[nodiscard]] elem* part(int q) const { return a + s[idx(q)]; }
  [[nodiscard]] elem* scratch(int q) const { return tmp + s[idx(q)]; }
  [[nodiscard]] std::size_t size(int q) const { return s[idx(q) + 1] - s[idx(q)]; }
  /// Quarters 2h and 2h + 1 into the scratch array.
  [[nodiscard]] merge_args pair_merge(int h) const {
    const std::size_t q = idx(2 * h);
    return {a + s[q], a + s[q + 1], a + s[q + 1], a + s[q + 2], tmp + s[q]};
  }
  /// The two merged halves, from the scratch array back into [a, a + n).
  [[nodiscard]] merge_args final_merge() const {
    return {tmp + s[0], tmp + s[2], tmp + s[2], tmp + s[4], a};
  }

 private:
  static std::size_t idx(int q) { return static_cast<std::size_t>(q); }
};

/// A run's input: the shuffled array and its scratch space.
struct instance {
  std::vector<elem> data;
  std::vector<elem> tmp;
};

/// bench::measure()'s setup: parses `size` and shuffles 0..n-1.
[[nodiscard]] inline instance setup(const std::string& size) {
  instance in{make_input(parse_n(size)), {}};
  in.tmp.resize(in.data.size());
  return in;
}

inline void check(bench::outcome& out, const instance& in) {
  const std::vector<elem>& a = in.data;
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] != static_cast<elem>(i)) ++wrong;
  }
  out.verified = wrong == 0;
  out.detail =
      std::to_string(a.size()) + " longs, " +
      (out.verified ? std::string("all in place") : std::to_string(wrong) + " out of place");
}

}  // namespace cilksort_kernel
