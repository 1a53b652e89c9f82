// bench/kernels/locus_declared_rows.hpp — a row split whose every task declares its own data,
// always (accounting on or off).
//
// locus_rows.hpp annotates the root and lets Eq. 1 hand each half its rows; that cannot say
// "and one halo row on each side", which a stencil's task really reads. locus_blocks.hpp's
// for_declared gives each task its exact ranges, but only while accounting is on (it exists
// to count). The iterative kernels' ranges are also what LAWS's allocator and CAB's boundary
// level read at a spawn, with accounting off (issue 18, item 2), so here every task of the
// split carries declare(lo, hi), inner tasks included: an inner task's ranges cover its whole
// subtree (a scheduler places it by them), and each leaf's are what it touches.
//
// Counting (docs/design/0007): an inner task hands its two parts to its two children, which
// both replace them with their own declarations, so only the leaves' ranges are counted, each
// once: the declared total is the sum over leaves and does not depend on the schedule.
//
// Cost: one data slot (a small allocation) per task; leaves are 8 rows or planes of a grid.
#pragma once

#include <locus/locus.hpp>

#include "locus_blocks.hpp"

namespace bench {

template <class Leaf, class Declare>
locus::task<void> rows_declared(int lo, int hi, int leaf, const Leaf* f, const Declare* d);

/// The body of rows_declared: split_rows's tree (midpoint, first half spawned, second called).
template <class Leaf, class Declare>
locus::task<void> rows_declared_split(int lo, int hi, int leaf, const Leaf* f, const Declare* d) {
  if (hi - lo <= leaf) {
    (*f)(lo, hi);
    co_return;
  }
  const int mid = lo + (hi - lo) / 2;
  co_await locus::spawn(rows_declared(lo, mid, leaf, f, d));
  co_await rows_declared(mid, hi, leaf, f, d);
  co_await locus::sync();
}

/// f over [lo, hi) (non-empty) in chunks of at most `leaf` rows, every task carrying
/// (*d)(its lo, its hi) (a bench::ranges<N>).
template <class Leaf, class Declare>
locus::task<void> rows_declared(int lo, int hi, int leaf, const Leaf* f, const Declare* d) {
  return declared(rows_declared_split(lo, hi, leaf, f, d), (*d)(lo, hi));
}

}  // namespace bench
