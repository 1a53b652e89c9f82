// locus/algorithm/parallel_reduce.hpp — auto r = co_await locus::parallel_reduce(...).
#pragma once

#include <concepts>
#include <type_traits>
#include <utility>

#include "locus/algorithm/index_range.hpp"
#include "locus/task.hpp"

namespace locus {

namespace detail {

/// The common type of the identity T and of what map returns for a chunk of I.
template <class I, class T, class M>
using reduce_operand_t = std::common_type_t<T, std::decay_t<std::invoke_result_t<const M&, I, I>>>;

template <class I, class T, class M, class C>
concept reducible = std::invocable<const M&, I, I> && requires {
  typename reduce_operand_t<I, T, M>;
} && std::invocable<const C&, reduce_operand_t<I, T, M>, reduce_operand_t<I, T, M>>;

/// The accumulator of parallel_reduce: the common type of the identity, map's result and
/// combine's result, so that no operand is narrowed on its way in.
template <class I, class T, class M, class C>
struct reduce_types {
  using operand = reduce_operand_t<I, T, M>;
  using combined = std::decay_t<std::invoke_result_t<const C&, operand, operand>>;
  using type = std::common_type_t<operand, combined>;
};

template <class A, class I, class M, class C>
task<A> reduce_range(I lo, I hi, std::make_unsigned_t<I> grain, const M* map, const C* combine) {
  if (range_length(lo, hi) <= grain) co_return static_cast<A>((*map)(lo, hi));
  const I mid = split_point(lo, hi);
  auto left = co_await spawn(reduce_range<A, I, M, C>(lo, mid, grain, map, combine));
  A right = co_await reduce_range<A, I, M, C>(mid, hi, grain, map, combine);
  co_await sync();
  co_return static_cast<A>((*combine)(std::move(left.get()), std::move(right)));
}

}  // namespace detail

/// Reduces [first, last): map(lo, hi) over chunks of at most `grain` indices (below 1 counts as
/// 1), combined pairwise with combine(a, b) in a balanced tree (left operand from the lower
/// range, so an associative combine gives the serial result). An empty range gives `identity`.
///
/// The result (the accumulator) has the common type of `identity`, of map's result and of
/// combine's result: with an int identity and a map returning long long it is a long long, so
/// nothing is truncated. A combine whose result cannot hold the accumulator without narrowing
/// (one returning int while the accumulator is long long) is a compile error. first and last
/// may have different integer types, as in parallel_for.
template <index_integral I, index_integral J, index_integral G, class T, class M, class C>
requires detail::reducible<detail::common_index_t<I, J>, T, M, C>
auto parallel_reduce(I first, J last, G grain, T identity, M map, C combine)
    -> task<typename detail::reduce_types<detail::common_index_t<I, J>, T, M, C>::type> {
  using Index = detail::common_index_t<I, J>;
  using types = detail::reduce_types<Index, T, M, C>;
  using A = typename types::type;
  using R = typename types::combined;
  static_assert(
      requires { R{std::declval<A>()}; },
      "locus::parallel_reduce: combine returns a type that cannot hold the accumulator "
      "(the common type of identity, map's result and combine's result) without "
      "narrowing; make combine take and return the accumulator type");
  const Index lo = detail::to_index<Index>(first, "parallel_reduce", "first");
  const Index hi = detail::to_index<Index>(last, "parallel_reduce", "last");
  if (!(lo < hi)) co_return static_cast<A>(std::move(identity));
  co_return co_await detail::reduce_range<A, Index, M, C>(lo, hi, detail::chunk_grain<Index>(grain),
                                                          &map, &combine);
}

}  // namespace locus
