// bench/kernels/locus_blocks.hpp — index-range splits whose every task declares its own data.
//
// locus_rows.hpp annotates a root and lets LAWS's Eq. 1 hand each child half of every range.
// That is exact only when a range's bytes split where the indices do (one grid row per index).
// Where they do not (a CSR matrix's rows hold different numbers of entries, a last block is
// short, a reduction reads a whole vector), the split below asks declare(lo, hi) for the exact
// ranges of [lo, hi) and attaches them to each task it makes, so every task, leaf or not,
// carries what it touches. The split is split_rows's (midpoint, first half spawned, second
// called), so a reduction combines in the same tree as locus::parallel_reduce with the same
// grain and its result is the same bit for bit.
//
// Cost: one small allocation per task for its ranges (with_data stores them whether or not
// accounting is on); leaves here are coarse (hundreds of rows or a 128 KiB block).
#pragma once

#include <locus/locus.hpp>

#include <array>
#include <cstddef>
#include <span>
#include <utility>

namespace bench {

/// Up to N ranges for one task; add() skips empty ones (data_range::of refuses them, and a
/// task's share of some array may be empty).
template <std::size_t N>
struct ranges {
  std::array<locus::data_range, N> r{};
  std::size_t count = 0;

  template <class T>
  ranges& add(const T* p, std::size_t n, locus::access mode) {
    if (n != 0) r[count++] = locus::data_range::of(p, n, mode);
    return *this;
  }
  [[nodiscard]] std::span<const locus::data_range> span() const { return {r.data(), count}; }
};

/// `t` carrying `d` (unchanged if d is empty).
template <class T, std::size_t N>
[[nodiscard]] locus::task<T> declared(locus::task<T>&& t, const ranges<N>& d) {
  if (d.count == 0) return std::move(t);
  return locus::with_data(std::move(t), d.span());
}

template <class Leaf, class Declare>
locus::task<void> for_declared(int lo, int hi, int leaf, const Leaf* f, const Declare* d);

/// The body of for_declared: halves [lo, hi) down to at most `leaf` indices, f(lo, hi) there.
template <class Leaf, class Declare>
locus::task<void> for_split(int lo, int hi, int leaf, const Leaf* f, const Declare* d) {
  if (hi - lo <= leaf) {
    (*f)(lo, hi);
    co_return;
  }
  const int mid = lo + (hi - lo) / 2;
  co_await locus::spawn(for_declared(lo, mid, leaf, f, d));
  co_await for_declared(mid, hi, leaf, f, d);
  co_await locus::sync();
}

/// f over [lo, hi) in chunks of at most `leaf` indices, each task carrying (*d)(its lo, its hi).
/// Call it (co_await) or spawn it; an empty [lo, hi) is f(lo, lo).
template <class Leaf, class Declare>
locus::task<void> for_declared(int lo, int hi, int leaf, const Leaf* f, const Declare* d) {
  // Ranges are computed (and a data slot allocated) only when accounting will count them.
  if (!locus::accounting_active()) return for_split(lo, hi, leaf, f, d);
  return declared(for_split(lo, hi, leaf, f, d), (*d)(lo, hi));
}

template <class T, class Map, class Combine, class Declare>
locus::task<T> reduce_declared(int lo, int hi, int leaf, const Map* map, const Combine* combine,
                               const Declare* d);

/// The body of reduce_declared.
template <class T, class Map, class Combine, class Declare>
locus::task<T> reduce_split(int lo, int hi, int leaf, const Map* map, const Combine* combine,
                            const Declare* d) {
  if (hi - lo <= leaf) co_return static_cast<T>((*map)(lo, hi));
  const int mid = lo + (hi - lo) / 2;
  auto left = co_await locus::spawn(reduce_declared<T>(lo, mid, leaf, map, combine, d));
  T right = co_await reduce_declared<T>(mid, hi, leaf, map, combine, d);
  co_await locus::sync();
  co_return static_cast<T>((*combine)(std::move(left.get()), std::move(right)));
}

/// combine over map(lo, hi) of chunks of at most `leaf` indices (parallel_reduce's tree), each
/// task carrying (*d)(its lo, its hi).
template <class T, class Map, class Combine, class Declare>
locus::task<T> reduce_declared(int lo, int hi, int leaf, const Map* map, const Combine* combine,
                               const Declare* d) {
  if (!locus::accounting_active()) return reduce_split<T>(lo, hi, leaf, map, combine, d);
  return declared(reduce_split<T>(lo, hi, leaf, map, combine, d), (*d)(lo, hi));
}

}  // namespace bench
