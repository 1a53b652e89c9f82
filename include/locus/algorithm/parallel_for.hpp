// locus/algorithm/parallel_for.hpp — co_await locus::parallel_for(first, last, grain, body).
#pragma once

#include <concepts>
#include <type_traits>

#include "locus/task.hpp"

namespace locus {

namespace detail {

template <class I, class F>
void run_chunk(I lo, I hi, const F& body) {
  if constexpr (std::invocable<const F&, I, I>) {
    body(lo, hi);
  } else {
    for (I i = lo; i < hi; ++i)
      body(i);
  }
}

/// Splits [lo, hi) in halves, spawning the upper half each time, until a chunk is at most
/// `grain` long; runs that chunk here. The spawn tree is binary and balanced.
template <class I, class F>
task<void> parallel_for_range(I lo, I hi, I grain, const F* body) {
  while (hi - lo > grain) {
    const I mid = lo + (hi - lo) / 2;
    co_await spawn(parallel_for_range(mid, hi, grain, body));
    hi = mid;
  }
  run_chunk(lo, hi, *body);
  co_await sync();
}

}  // namespace detail

/// Runs body over [first, last) in parallel chunks of at most `grain` (>= 1) indices. The body
/// is called as body(lo, hi) for a chunk if it accepts two indices, else body(i) per index.
template <std::integral I, class F>
requires std::invocable<const F&, I, I> || std::invocable<const F&, I> task<void> parallel_for(
    I first, I last, I grain, F body) {
  if (grain < 1) grain = 1;
  if (first < last) co_await detail::parallel_for_range(first, last, grain, &body);
}

}  // namespace locus
