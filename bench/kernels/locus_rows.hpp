// bench/kernels/locus_rows.hpp — the locus versions' row decomposition with declared data.
//
// split_rows(lo, hi, leaf, f) halves [lo, hi) until at most `leaf` rows remain and calls
// f(lo, hi) there: the first half spawned, the second called (Cilk's heat). That is LAWS's
// binary split, so a task carrying row ranges (locus/data.hpp) hands each half exactly its
// rows: annotate the root with rows_of(...) and every leaf's share is its own rows (the grain
// is one row, and the split point lo + (hi - lo) / 2 is Eq. 1's with b = 2).
#pragma once

#include <locus/locus.hpp>

#include <cstddef>

namespace bench {

template <class Leaf>
locus::task<void> split_rows(int lo, int hi, int leaf, const Leaf* f) {
  if (hi - lo <= leaf) {
    (*f)(lo, hi);
    co_return;
  }
  const int mid = lo + (hi - lo) / 2;
  co_await locus::spawn(split_rows(lo, mid, leaf, f));
  co_await split_rows(mid, hi, leaf, f);
  co_await locus::sync();
}

/// Rows [lo, hi) of a row-major grid of `cols` elements per row, as a data range.
template <class T>
[[nodiscard]] locus::data_range rows_of(const T* grid, int cols, int lo, int hi,
                                        locus::access mode) {
  return locus::data_range::of(grid + static_cast<std::size_t>(lo) * cols,
                               static_cast<std::size_t>(hi - lo) * cols, mode);
}

/// How rows_of ranges split: in halves, never inside a row.
template <class T>
[[nodiscard]] locus::data_split row_split(int cols) {
  return {2, static_cast<std::size_t>(cols) * sizeof(T)};
}

}  // namespace bench
