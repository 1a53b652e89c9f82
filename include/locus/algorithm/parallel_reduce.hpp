// locus/algorithm/parallel_reduce.hpp — T r = co_await locus::parallel_reduce(...).
#pragma once

#include <concepts>
#include <type_traits>
#include <utility>

#include "locus/task.hpp"

namespace locus {

namespace detail {

template <class I, class T, class M, class C>
task<T> reduce_range(I lo, I hi, I grain, const M* map, const C* combine) {
  if (hi - lo <= grain) co_return static_cast<T>((*map)(lo, hi));
  const I mid = lo + (hi - lo) / 2;
  auto left = co_await spawn(reduce_range<I, T, M, C>(lo, mid, grain, map, combine));
  T right = co_await reduce_range<I, T, M, C>(mid, hi, grain, map, combine);
  co_await sync();
  co_return (*combine)(std::move(left.get()), std::move(right));
}

}  // namespace detail

/// Reduces [first, last): map(lo, hi) -> T over chunks of at most `grain` indices, combined
/// pairwise with combine(T, T) -> T in a balanced tree (left operand from the lower range, so
/// an associative combine gives the serial result). An empty range gives `identity`.
template <std::integral I, class T, class M, class C>
requires std::invocable<const M&, I, I> && std::invocable<const C&, T, T> task<T> parallel_reduce(
    I first, I last, I grain, T identity, M map, C combine) {
  if (grain < 1) grain = 1;
  if (first >= last) co_return identity;
  co_return co_await detail::reduce_range<I, T, M, C>(first, last, grain, &map, &combine);
}

}  // namespace locus
