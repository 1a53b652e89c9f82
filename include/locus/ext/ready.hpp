// locus/ext/ready.hpp — the core's entry point for work that becomes runnable without a
// spawn: a data-driven task whose last dependence was satisfied, a frame whose awaited event
// fired. The dataflow extension (locus/dataflow/) reaches the scheduler through this and the
// rest of locus/ext/ only.
//
// Three kinds of item go through here, all ordinary deque items, so thieves, mailboxes, the
// idle protocol and the place rule treat them like any other:
//   * a *runnable* (detail/frame.hpp, runnable_item): no frame, a function over a header the
//     extension embeds in its own object (a data-driven task with a plain body: its node).
//     Pushed as fresh (SLAW's fresh-task count); the worker loop calls run() once, which does
//     all the task's bookkeeping and must not throw. Cheapest: no frame to allocate, start,
//     suspend and free. The push's release and the pop's or steal's acquire publish the
//     object exactly as they publish a frame.
//   * a *detached* frame (frame_kind::detached): a coroutine at its initial suspend point
//     with no parent and nobody joining it, for work that may spawn, sync or suspend. It is
//     pushed as a fresh item (counted by SLAW's fresh-task condition like a help-first child).
//     Its completion only frees it, so whoever starts one must do its own bookkeeping inside
//     the coroutine body (the dataflow runner of a coroutine body does: it catches the body's
//     exception and counts the task done before returning).
//   * a frame suspended in a co_await of an event: pushed as continuation_item(f, true). The
//     tag says "continuation whose running child is an async", which execute() resumes
//     without touching m_expected: the frame is not a parent whose child was stolen, it merely
//     waited, and its join counter is exactly as it left it. (A work-first child suspended on
//     an event leaves its parent's continuation on the deque; the worker loop takes that
//     continuation as usual, so the join protocol of docs/design/0002 holds unchanged.)
//
// Wake-ups: pushing onto the calling worker's own deque needs no wake-up: the caller is an
// active worker, and the idle protocol (docs/design/0003) keeps a thief awake while any
// worker is active. A post to a mailbox wakes a sleeper of that place (core_ref::post).
#pragma once

#include <cstdint>

#include "locus/detail/frame.hpp"
#include "locus/detail/worker.hpp"
#include "locus/ext/core.hpp"

namespace locus::ext {

/// The finish scope of asyncs started by a detached frame outside any co_await finish(...): it
/// never drains (nobody waits on it). Wrap asyncs inside a data-driven task in a finish.
[[nodiscard]] detail::finish_scope& detached_scope() noexcept;

/// The place a task made ready by the calling thread should go to: the caller's place if it is
/// a worker of `c`, else place 0.
[[nodiscard]] inline std::uint32_t ready_place(core_ref c) noexcept {
  return c.is_current() ? detail::t_worker->place() : 0;
}

/// Prepare `f`, a locus coroutine at its initial suspend point, to run detached in `place`.
inline void make_detached(detail::frame& f, std::uint32_t place) noexcept {
  f.make_root(&detached_scope(), place);
  f.m_kind = detail::frame_kind::detached;
}

/// Push `item` onto the calling worker's own deque (the caller is a worker: is_current()).
/// `fresh`: a runnable or a detached frame not yet started (SLAW's fresh-task count), else a
/// resumption. The push's release publishes the item's state (and what it reads).
inline void push_own(std::uintptr_t item, bool fresh) {
  detail::worker* w = detail::t_worker;
  if (fresh) w->note_fresh_pushed();
  w->tasks().push(item);
}

/// Make `item` runnable in place `place` of `c`: pushed onto the calling worker's deque if it
/// is a worker of that place (so the task enabled last runs first here, the paper's "most
/// recently satisfied first", unless a thief takes it), else posted to the place's pool.
inline void make_runnable(core_ref c, std::uint32_t place, std::uintptr_t item, bool fresh) {
  if (c.is_current() && detail::t_worker->place() == place) [[likely]] {
    push_own(item, fresh);
    return;
  }
  c.post(place, item);
}

}  // namespace locus::ext
