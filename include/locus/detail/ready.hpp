// locus/detail/ready.hpp — the core's entry point for work that becomes runnable without a
// spawn: a data-driven task whose last dependence was satisfied, a frame whose awaited event
// fired. The dataflow extension (locus/dataflow/) reaches the scheduler only through this.
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
// active worker, and the idle protocol (runtime_state.hpp) keeps a thief awake while any
// worker is active. A post to a mailbox wakes a sleeper of that place (post_to_place).
#pragma once

#include <cstdint>

#include "locus/detail/frame.hpp"
#include "locus/detail/worker.hpp"

namespace locus::detail {

struct runtime_state;

/// The finish scope of asyncs started by a detached frame outside any co_await finish(...): it
/// never drains (nobody waits on it). Wrap asyncs inside a data-driven task in a finish.
[[nodiscard]] finish_scope& detached_scope() noexcept;

/// Post `item` to place `place`'s mailbox of runtime `rt` and wake a sleeper there. Out of line
/// (src/dataflow/ready.cpp). Throws std::bad_alloc if the mailbox cannot grow.
void post_ready(runtime_state& rt, std::uint32_t place, std::uintptr_t item);

/// The place a task made ready by the calling thread should go to: the caller's place if it is
/// a worker of `rt`, else place 0.
[[nodiscard]] inline std::uint32_t ready_place(const runtime_state& rt) noexcept {
  const worker* w = t_worker;
  return w != nullptr && &w->rt() == &rt ? w->place() : 0;
}

/// Prepare `f`, a locus coroutine at its initial suspend point, to run detached in `place`.
inline void make_detached(frame& f, std::uint32_t place) noexcept {
  f.make_root(&detached_scope(), place);
  f.m_kind = frame_kind::detached;
}

/// Make `item` runnable in place `place` of `rt`: pushed onto the calling worker's deque if it
/// is a worker of that place (so the task enabled last runs first here, the paper's "most
/// recently satisfied first", unless a thief takes it), else posted to the place's mailbox.
/// `fresh`: a runnable or a detached frame not yet started (SLAW's fresh-task count), else a
/// resumption.
inline void make_runnable(runtime_state& rt, std::uint32_t place, std::uintptr_t item, bool fresh) {
  worker* w = t_worker;
  if (w != nullptr && &w->rt() == &rt && w->place() == place) [[likely]] {
    if (fresh) w->note_fresh_pushed();
    w->tasks().push(item);  // release: the frame's state (and what it reads) is published
    return;
  }
  post_ready(rt, place, item);
}

/// Called by the worker loop (src/worker.cpp) when its own deque ran empty, before it looks
/// for work elsewhere: an extension's deferred bookkeeping (the dataflow graphs pay the task
/// counts a worker batched, src/dataflow/graph.cpp). Returns true if it did something, which
/// may have made work runnable on this worker's deque: the loop then pops it again. Null: none.
/// Set by the extension on the worker's own thread.
using before_idle_fn = bool (*)() noexcept;
constinit inline thread_local before_idle_fn t_before_idle = nullptr;

/// The runtime_state a task running on this thread belongs to, or null off the workers.
[[nodiscard]] inline runtime_state* current_runtime() noexcept {
  worker* w = t_worker;
  return w != nullptr ? &w->rt() : nullptr;
}

}  // namespace locus::detail
