// locus/data.hpp — the data a task touches, as the runtime sees it (issue 7, LAWS Eq. 1).
//
//   co_await locus::spawn(locus::with_data(rows(lo, mid), {locus::data_range::of(a + lo * n,
//                         (mid - lo) * n, locus::access::write)}));
//
// A task may carry up to k_max_ranges byte ranges with an access intent. A task without its own
// inherits a share of its parent's: the i-th child (spawned or called, numbered in spawn order)
// of a task with fan-out b gets part(range, i mod b, b) of each of the parent's ranges (LAWS,
// Eq. 1), so a recursive decomposition annotates only its root. Fan-out and grain (the unit a
// part never splits, e.g. one row) come with the ranges.
//
// What uses it: with locality accounting on (config::accounting, LOCUS_ACCOUNTING=1), a task
// that completes without children (a leaf) counts its ranges as accessed by the worker that ran
// it, in the order it ran; a write to a page with no home first-touches it. touch() counts an
// access a range does not describe. With accounting off, shares are not computed (no
// allocation per spawn) and touch() is a test of one pointer; with_data still stores the
// annotation of the task it is given.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>

#include "locus/locality/data_range.hpp"
#include "locus/task.hpp"

namespace locus {

namespace detail {
/// Attach `ranges` (fan-out b, grain g) to the not yet started frame `f`, replacing any data
/// it had. Throws std::invalid_argument for more than k_max_ranges ranges or b == 0, g == 0.
void attach_data(frame& f, std::span<const data_range> ranges, std::uint32_t fanout,
                 std::size_t grain);
}  // namespace detail

/// At most this many ranges per task.
inline constexpr std::size_t k_max_ranges = 8;

/// How a task's ranges are shared among its children.
struct data_split {
  std::uint32_t fanout = 2;  ///< b of Eq. 1: the number of children the task splits into
  std::size_t grain = 1;     ///< bytes a part never splits (e.g. one row of a grid)
};

/// `t`, carrying the data it touches; returns the same task (not started).
template <class T>
[[nodiscard]] task<T> with_data(task<T>&& t, std::span<const data_range> ranges,
                                data_split split = {}) {
  detail::attach_data(t.promise(), ranges, split.fanout, split.grain);
  return std::move(t);
}
/// The same with the ranges written in place: with_data(t, {r1, r2}). Inside a coroutine,
/// gcc 12 fails to compile a braced list within a co_await expression ("array used as
/// initializer"): make the task in a statement of its own, or pass one range.
template <class T>
[[nodiscard]] task<T> with_data(task<T>&& t, std::initializer_list<data_range> ranges,
                                data_split split = {}) {
  return with_data(std::move(t), std::span<const data_range>(ranges.begin(), ranges.size()), split);
}
/// One range.
template <class T>
[[nodiscard]] task<T> with_data(task<T>&& t, const data_range& range, data_split split = {}) {
  return with_data(std::move(t), std::span<const data_range>(&range, 1), split);
}

/// The running task accessed [p, p + bytes) beyond what its ranges say (irregular kernels).
/// Counted when accounting is on; a no-op off a worker or with accounting off.
void touch(const void* p, std::size_t bytes, access mode);

/// True on a worker of a runtime with locality accounting on: whether touch() would count.
/// For code that would compute ranges only to report them (parallel_for's data map).
[[nodiscard]] bool accounting_active() noexcept;

}  // namespace locus
