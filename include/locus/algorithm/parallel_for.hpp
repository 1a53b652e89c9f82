// locus/algorithm/parallel_for.hpp — co_await locus::parallel_for(first, last, grain, body).
#pragma once

#include <concepts>
#include <type_traits>

#include "locus/algorithm/index_range.hpp"
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
task<void> parallel_for_range(I lo, I hi, std::make_unsigned_t<I> grain, const F* body) {
  while (range_length(lo, hi) > grain) {
    const I mid = split_point(lo, hi);
    co_await spawn(parallel_for_range(mid, hi, grain, body));
    hi = mid;
  }
  run_chunk(lo, hi, *body);
  co_await sync();
}

}  // namespace detail

/// Runs body over [first, last) in parallel chunks of at most `grain` indices (a grain below 1
/// counts as 1). The body is called as body(lo, hi) for a chunk if it accepts two indices, else
/// body(i) per index. first and last may have different integer types (0 and v.size()): the
/// index type is their common type, and a value it cannot represent (first = -1 with a
/// std::size_t last) is std::out_of_range. Every range of the index type works, up to
/// [INT_MIN, INT_MAX) for int.
template <index_integral I, index_integral J, index_integral G, class F>
requires std::invocable<const F&, detail::common_index_t<I, J>, detail::common_index_t<I, J>> ||
    std::invocable<const F&, detail::common_index_t<I, J>>
        task<void> parallel_for(I first, J last, G grain, F body) {
  using Index = detail::common_index_t<I, J>;
  const Index lo = detail::to_index<Index>(first, "parallel_for", "first");
  const Index hi = detail::to_index<Index>(last, "parallel_for", "last");
  if (lo < hi) {
    co_await detail::parallel_for_range(lo, hi, detail::chunk_grain<Index>(grain), &body);
  }
}

}  // namespace locus
