// locus/data.hpp — the data a task touches, as the runtime sees it (issue 7, LAWS Eq. 1).
//
//   co_await locus::spawn(locus::with_data(rows(lo, mid), {locus::data_range::of(a + lo * n,
//                         (mid - lo) * n, locus::access::write)}));
//
// A task may carry up to k_max_ranges byte ranges with an access intent. Each declared byte is
// counted once (docs/design/0007, "Counting each byte once"):
//   - a spawned child without ranges of its own gets the next of the parent's b parts (LAWS
//     Eq. 1: part(range, i, b) of each range for the i-th part handed out), so a recursive
//     decomposition annotates only its root; a child spawned after all b parts were handed
//     out gets none (set data_split::fanout to the number of children);
//   - a called child (co_await task) gets every part not yet handed out (a leaf that calls one
//     helper hands it its whole range), since a call continues its caller's work;
//   - a child with ranges of its own (with_data, or parallel_for with a data map) takes the
//     share it would have inherited and replaces it with its own declaration;
//   - when a task completes, the parts it did not hand out are counted as accessed by the
//     worker that completes it (a leaf: its whole range).
// Fan-out and grain (the unit a part never splits, e.g. one row) come with the ranges.
//
// Shares are computed at every spawn under a task with ranges, accounting on or off (one
// allocation per such spawn; a program that declares nothing pays one null test), so that a
// scheduler can read a child's data at its spawn: detail::declared_data_of(frame).
// What counts them: with locality accounting on (config::accounting, LOCUS_ACCOUNTING=1) the
// worker's accesses go to the accountant in the order they ran; a write to a page with no
// home first-touches it. touch() counts an access a range does not describe. With
// accounting off, touch() is a test of one pointer.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>

#include "locus/locality/data_range.hpp"
#include "locus/locality/memory.hpp"
#include "locus/task.hpp"

namespace locus {

class runtime;

/// At most this many ranges per task.
inline constexpr std::size_t k_max_ranges = 8;

namespace detail {
/// Attach `ranges` (fan-out b, grain g) to the not yet started frame `f`, replacing any data
/// it had. Zero ranges declare "no data": the frame and its children count nothing (what a
/// parallel_for data map does to the share it replaces). Throws std::invalid_argument for
/// more than k_max_ranges ranges, an empty range, or b == 0, g == 0.
void attach_data(frame& f, std::span<const data_range> ranges, std::uint32_t fanout,
                 std::size_t grain);

/// A frame's data: declared with with_data, or its share of its parent's (see above). Owned by
/// the frame, written only by the thread running the frame (and, before it starts, by the
/// parent's thread at adoption).
struct data_slot {
  std::array<data_range, k_max_ranges> ranges;
  std::uint32_t count = 0;
  std::uint32_t fanout = 2;
  std::uint32_t handed = 0;  ///< parts given to children so far (<= fanout)
  std::size_t grain = 1;
  std::size_t bytes = 0;  ///< sum of ranges[0..count)
};

/// What a task declared or inherited, for a scheduler: its ranges and their total bytes.
struct declared_data {
  std::span<const data_range> ranges;
  std::size_t bytes = 0;
};

/// The data of frame `f` (empty if none). For LAWS and CAB: call it on a child at its spawn,
/// after adoption (frame::adopt computes the child's share), accounting on or off. Valid until
/// the frame completes; read it on the thread that spawns or runs the frame.
[[nodiscard]] inline declared_data declared_data_of(const frame& f) noexcept {
  const data_slot* d = f.m_data;
  if (d == nullptr) return {};
  return {std::span<const data_range>(d->ranges.data(), d->count), d->bytes};
}
}  // namespace detail

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

namespace detail {
/// `t` declaring "no data": it takes the share of its parent's data it would have inherited,
/// and neither it nor its children count any (parallel_for's data map counts instead).
template <class T>
[[nodiscard]] task<T> without_data(task<T>&& t) {
  attach_data(t.promise(), {}, 1, 1);
  return std::move(t);
}
}  // namespace detail

/// The running task accessed [p, p + bytes) beyond what its ranges say (irregular kernels).
/// Counted when accounting is on; a no-op off a worker or with accounting off.
void touch(const void* p, std::size_t bytes, access mode);

/// Memory whose homes the runtime's locality accounting knows (locality/memory.hpp does the
/// binding). With accounting on, the pages' homes go into the runtime's home map, so an access
/// is counted by its placement (on_socket(1) read by a worker of socket 0: remote), not left
/// unplaced; with it off, these bind (on a real multi-node machine) and record nothing.
///   void* p = locus::allocate(rt, bytes, locus::placement::on_socket(1));
///   ...
///   locus::deallocate(rt, p, bytes);  // its homes are forgotten with it
/// `bytes` (> 0) of zeroed, page-aligned memory placed per `p`. Errors as
/// locus::allocate(bytes, p, topo, homes): std::out_of_range for a socket or node the
/// runtime's topology lacks, std::invalid_argument for bytes == 0, std::bad_alloc.
[[nodiscard]] void* allocate(runtime& rt, std::size_t bytes, placement p);
/// Frees memory from allocate(rt, ...) and forgets its homes, so that memory mapped later at
/// the same addresses is first-touched afresh.
void deallocate(runtime& rt, void* ptr, std::size_t bytes) noexcept;
/// Places existing memory [ptr, ptr + bytes) (register_memory): its pages get the homes `p`
/// names, whatever they had (so this also moves a range). first_touch() forgets them instead.
void place(runtime& rt, const void* ptr, std::size_t bytes, placement p);
/// Forgets the homes of [ptr, ptr + bytes): call it when memory the runtime did not allocate
/// is freed (a std::vector destroyed, a buffer unmapped), so that whatever reuses the
/// addresses is first-touched afresh instead of keeping the old homes.
void forget(runtime& rt, const void* ptr, std::size_t bytes) noexcept;

/// True on a worker of a runtime with locality accounting on: whether touch() would count.
/// For code that would compute ranges only to report them (parallel_for's data map).
[[nodiscard]] bool accounting_active() noexcept;

}  // namespace locus
