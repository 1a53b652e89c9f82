// locus/schedule/extract.hpp — extraction at a spawn inside a traced phase: the paper's
// extractSchedulePrevious() after a sync (papers/constrained-work-stealing.txt, Section IV-A),
// for a sub-computation that is not the root of its run.
//
//   locus::task<long> step(...) {
//     auto a = co_await locus::spawn(sub(data));     // any spawn, at any depth
//     co_await locus::sync();
//     *at = co_await locus::schedule::previous_spawn();  // where sub's schedule sits
//     ...
//   }
//   auto t = locus::schedule::run_traced(rt, whole(...));
//   steal_tree s = locus::schedule::extract_previous(t.tree, at);
//   locus::schedule::run_replayed(rt, sub(data), s, replay_mode::stows);  // sub on its own
//
// Why the phase tree holds the sub-computation's schedule (work-first, docs/design/0008):
// within a phase a thief takes the oldest continuation, so nothing inside child k of a frame
// F at level L is stolen before F's continuation after spawn k is. If that continuation was
// stolen (a node c at (L, k)), the phase n that ran spawn k descended into child k and ended
// there, so n's steals deeper than L are exactly child k's; if it was not stolen, child k ran
// with no steal below it. Under help-first, a stolen child k is a node (L, k) of kind child
// and its subtree is child k's. The extracted tree starts child k at level 0 (levels shift by
// L + 1), so it replays the child as the root of a phase of its own.
//
// Calls (co_await task) break the argument as they break the paper's validity rule: a frame
// that called a task in which a steal happened, before spawn k, still carries the phase it
// had (it was not picked up), and that steal is then extracted with child k's. Extract after
// spawns whose frame called no task with steals before the spawn (the kernels' split loops
// call only after the spawn).
#pragma once

#include <coroutine>
#include <cstdint>

#include "locus/schedule/steal_tree.hpp"

namespace locus::detail {
struct frame;
}

namespace locus::schedule {

/// A frame's last spawn, as seen from the frame after it (previous_spawn()).
struct spawn_point {
  bool traced = false;             ///< false: not in a traced phase, or no spawn yet
  std::uint32_t phase_worker = 0;  ///< (worker, seq) of the steal-tree phase the frame is in
  std::uint32_t phase_seq = 0;
  std::uint32_t level = 0;        ///< the frame's level
  std::uint32_t spawn_index = 0;  ///< the spawn's index in the frame
};

/// The schedule of the child spawned at `at`, from the steal tree of the traced phase `at`
/// was taken in: a tree rooted at that child (level 0, on the worker that ran it), with every
/// steal below it. Throws std::invalid_argument when `at` is not traced or names a phase the
/// tree does not have. The result passes validate(validity_rule::with_calls) when the phase
/// tree does.
[[nodiscard]] steal_tree extract_previous(const steal_tree& phase_tree, const spawn_point& at);

namespace detail {

/// previous_spawn()'s reading of frame f (src/schedule/extract.cpp).
[[nodiscard]] spawn_point previous_spawn_of(const locus::detail::frame& f) noexcept;

struct previous_spawn_awaiter {
  spawn_point result;
  [[nodiscard]] bool await_ready() const noexcept { return false; }
  template <class P>
  bool await_suspend(std::coroutine_handle<P> h) noexcept {
    result = previous_spawn_of(h.promise());
    return false;  // never suspends
  }
  [[nodiscard]] spawn_point await_resume() const noexcept { return result; }
};

}  // namespace detail

/// `co_await previous_spawn()`, after a sync: where this frame's last spawn sits in the traced
/// phase (for extract_previous once the phase returned). Not traced (`traced` false) off a
/// worker, outside a traced phase, or before the frame's first spawn.
[[nodiscard]] inline detail::previous_spawn_awaiter previous_spawn() noexcept {
  return {};
}

}  // namespace locus::schedule
