// locus/algorithm/parallel_for.hpp — co_await locus::parallel_for(first, last, grain, body).
#pragma once

#include <concepts>
#include <type_traits>

#include "locus/algorithm/index_range.hpp"
#include "locus/data.hpp"
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

/// No data map: parallel_for without one declares nothing.
struct no_data_map {};

/// Counts what chunk [lo, hi) touched, as `data(lo, hi)` says (locality accounting): one
/// data_range, or a range of them. A test of a thread-local pointer when accounting is off.
template <class I, class D>
void touch_chunk(I lo, I hi, const D& data) {
  if constexpr (!std::is_same_v<D, no_data_map>) {
    if (!accounting_active()) return;
    const auto& ranges = data(lo, hi);
    if constexpr (std::is_convertible_v<decltype(ranges), const data_range&>) {
      const data_range& r = ranges;
      touch(r.begin, r.bytes, r.mode);
    } else {
      for (const data_range& r : ranges)
        touch(r.begin, r.bytes, r.mode);
    }
  }
}

/// Splits [lo, hi) in halves, spawning the upper half each time, until a chunk is at most
/// `grain` long; runs that chunk here. The spawn tree is binary and balanced. The spawning
/// frame runs a chunk too, so a chunk's data is counted where it runs (touch_chunk), not by
/// LAWS Eq. 1 shares of the spawns: the halving order does not follow Eq. 1's i-th part.
template <class I, class F, class D>
task<void> parallel_for_range(I lo, I hi, std::make_unsigned_t<I> grain, const F* body,
                              const D* data) {
  while (range_length(lo, hi) > grain) {
    const I mid = split_point(lo, hi);
    co_await spawn(parallel_for_range(mid, hi, grain, body, data));
    hi = mid;
  }
  run_chunk(lo, hi, *body);
  touch_chunk(lo, hi, *data);
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
    const detail::no_data_map none;
    co_await detail::parallel_for_range(lo, hi, detail::chunk_grain<Index>(grain), &body, &none);
  }
}

/// The same, declaring each chunk's data for locality accounting (LOCUS_ACCOUNTING): after
/// body ran over [lo, hi), data(lo, hi) returns the data_range it touched, or a range of
/// data_range (a std::array, a vector). It is called only when accounting is on; ranges are
/// counted on the worker that ran the chunk.
///   co_await locus::parallel_for(0, n, 1024, [&](std::size_t i) { y[i] += a * x[i]; },
///       [&](std::size_t lo, std::size_t hi) { return std::array{
///           locus::data_range::of(x + lo, hi - lo, locus::access::read),
///           locus::data_range::of(y + lo, hi - lo, locus::access::read_write)}; });
template <index_integral I, index_integral J, index_integral G, class F, class D>
requires(std::invocable<const F&, detail::common_index_t<I, J>, detail::common_index_t<I, J>> ||
         std::invocable<const F&, detail::common_index_t<I, J>>) &&
    std::invocable<const D&, detail::common_index_t<I, J>,
                   detail::common_index_t<I, J>> task<void> parallel_for(I first, J last, G grain,
                                                                         F body, D data) {
  using Index = detail::common_index_t<I, J>;
  const Index lo = detail::to_index<Index>(first, "parallel_for", "first");
  const Index hi = detail::to_index<Index>(last, "parallel_for", "last");
  if (lo < hi) {
    // The data map replaces any share of an enclosing task's data (each byte counted once).
    co_await detail::without_data(
        detail::parallel_for_range(lo, hi, detail::chunk_grain<Index>(grain), &body, &data));
  }
}

}  // namespace locus
