// locus/detail/scheduler.hpp — what happens at a spawn, a sync and a frame's completion.
//
// The fast paths (a work-first spawn whose parent is popped back, a call, a sync with nothing
// outstanding) are inline and touch only the current worker's deque and frame stack. Anything
// that involves another worker (a join, a mailbox, a finish scope) is out of line in
// src/scheduler.cpp.
//
// Place rule (docs/design/0005): a frame runs only on workers of its place (m_place). Every
// way a frame can be resumed keeps that: a work-first child and a call inherit the running
// frame's place; a frame resumed by a join, a finish scope or a returning call on a worker of
// another place is sent home through its place's mailbox; a frame that an idle worker of
// another place takes (cross-place stealing) moves to the thief's place.
#pragma once

#include <cassert>
#include <coroutine>
#include <cstdint>
#include <cstring>

#include "locus/detail/frame.hpp"
#include "locus/detail/worker.hpp"

namespace locus::detail {

inline constexpr std::uint32_t k_any_place = 0xffffffffu;

/// Out of line (src/scheduler.cpp).
std::coroutine_handle<> spawn_remote(worker& w, frame& parent, frame& child, std::uint32_t place,
                                     bool is_async) noexcept;
std::coroutine_handle<> complete_slow(frame& f) noexcept;
/// A spawn a custom spawn rule decides, with its placement (src/strategies.cpp).
std::coroutine_handle<> spawn_custom(worker& w, frame& parent, frame& child,
                                     bool is_async) noexcept;
std::coroutine_handle<> join_parent(frame& parent) noexcept;
/// The out-of-line halves of the inline paths below (src/scheduler.cpp). Each is the last
/// thing its inline caller does (a tail call), so that the inline paths, folded into every
/// coroutine, keep nothing live across a call: a value live across one would sit in a
/// callee-saved register, which the coroutine's resume function then saves and restores on
/// every entry, at every resumption of every task (docs/design/0016).
/// A spawn by a frame that carries data, or to another place than the parent's: all of it.
std::coroutine_handle<> spawn_slow(frame& parent, frame& child, std::uint8_t policy,
                                   std::uint32_t place, bool is_async) noexcept;
/// The rest of a spawn whose choice was `custom` or `reevaluate` (the child is linked).
std::coroutine_handle<> spawn_decide(worker& w, frame& parent, frame& child, bool is_async,
                                     spawn_choice choice) noexcept;
/// A call by a frame that carries data: adopt() with the data, then start the child (`kind`:
/// called or called_in_place).
std::coroutine_handle<> call_slow(frame& parent, frame& child, frame_kind kind) noexcept;
/// complete()'s path for a call in place that threw, moved to another place or headed its
/// on-stack chain: hand the exception to the parent, free the frame, resume the parent.
std::coroutine_handle<> complete_call_slow(frame& f) noexcept;
/// A call in place threw: rethrow its exception, which the child left in `parent` (the
/// calling frame's m_call_exception), emptying that field.
[[noreturn]] void rethrow_call(frame& parent);
/// A work-first child completed and its parent's continuation was not at the bottom of the
/// deque (`popped`: the pop took `item`, someone else's, which goes back).
std::coroutine_handle<> complete_taken(frame& f, bool popped, std::uintptr_t item) noexcept;
/// complete()'s fast path for a frame spawned in place that free_plain_here could not free:
/// free it (its destroy function, or a block off the current stacklet), then resume `parent`.
std::coroutine_handle<> free_and_resume(frame& f, frame& parent) noexcept;
/// on_final for a frame with data or with children outstanding.
std::coroutine_handle<> on_final_slow(frame& f) noexcept;
[[noreturn]] void throw_bad_place(std::uint32_t place);
[[noreturn]] void throw_not_on_worker(const char* what);
[[nodiscard]] std::uint32_t num_places_of(const worker& w) noexcept;

/// The bookkeeping of a work-first spawn before the parent's continuation is made stealable:
/// returns that continuation's item (spawn_start pushes it; spawn_custom places it).
LOCUS_ALWAYS_INLINE inline std::uintptr_t start_work_first(worker& w, frame& parent, frame& child,
                                                           bool is_async) noexcept {
  child.m_work_first = true;
  counters::bump(w.stats().spawns_work_first);
  return continuation_item(&parent, is_async);
}

/// The bookkeeping of a help-first spawn: returns the child's item to make stealable.
LOCUS_ALWAYS_INLINE inline std::uintptr_t start_help_first(worker& w, frame& parent, frame& child,
                                                           bool is_async) noexcept {
  child.m_work_first = false;
  if (!is_async) ++parent.m_expected;
  w.note_fresh_pushed();
  counters::bump(w.stats().spawns_help_first);
  return fresh_item(&child);
}

/// Pushes the stealable half of a decided built-in spawn and returns what runs next.
LOCUS_ALWAYS_INLINE inline std::coroutine_handle<> spawn_push(worker& w, frame& parent,
                                                              frame& child, bool is_async,
                                                              bool work_first) noexcept {
  if (work_first) {
    w.tasks().push(start_work_first(w, parent, child, is_async));
    return transfer(child.handle());
  }
  w.tasks().push(start_help_first(w, parent, child, is_async));
  return transfer(parent.handle());
}

/// Starts `child` of `parent` by spawn (Async false) or async. Returns what to run next.
template <bool Async>
LOCUS_ALWAYS_INLINE inline std::coroutine_handle<> spawn_start(frame& parent, frame& child,
                                                               std::uint8_t policy,
                                                               std::uint32_t place) noexcept {
  // The running frame's place is its worker's place (the place rule), so this compares with
  // the parent's field instead of the worker's.
  if (parent.m_data != nullptr || (place != k_any_place && place != parent.m_place)) [[unlikely]]
    return spawn_slow(parent, child, policy, place, Async);
  worker& w = *t_worker;
  parent.link(child, Async ? frame_kind::async : frame_kind::spawned);
  // Counted before the child is published; the push's release orders it before any decrement.
  if constexpr (Async) child.m_finish->pending.fetch_add(1, std::memory_order_relaxed);
  const spawn_choice choice = w.choose_spawn(parent, policy);
  if (choice >= spawn_choice::custom) [[unlikely]]
    return spawn_decide(w, parent, child, Async, choice);
  return spawn_push(w, parent, child, Async, choice == spawn_choice::work_first);
}

/// A frame arrives at a sync (or its final suspend) with m_expected != 0. True if every child
/// has already completed; otherwise the last child continues the frame.
[[nodiscard]] inline bool join_arrive(frame& f) noexcept {
  const auto d = static_cast<std::int64_t>(f.m_expected);
  // acq_rel: release publishes the frame's state to the child that will continue it;
  // acquire, if we are last, makes the children's writes (results, exceptions) visible.
  // Last if the counter, minus the completions so far, plus d is zero (frame.hpp).
  return f.m_join.fetch_add(d, std::memory_order_acq_rel) == -d;
}

/// A counted child of `f` completed (a help-first or remote child, or a work-first child whose
/// parent's continuation was taken). True if it was the last one and `f` has arrived at its
/// sync: then this child continues `f`.
[[nodiscard]] inline bool child_arrive(frame& f) noexcept {
  // acq_rel: release our result/exception to the parent; acquire the siblings' if last.
  return f.m_join.fetch_sub(1, std::memory_order_acq_rel) == 1;
}

/// After a completed join: reset the counter, open a new sync epoch.
inline void after_join(frame& f) noexcept {
  if (f.m_expected != 0) {
    // Relaxed: no child of the finished epoch touches m_join again, and new children are
    // published later by a release push.
    f.m_join.store(0, std::memory_order_relaxed);
    f.m_expected = 0;
  }
  ++f.m_sync_epoch;
}

/// The fast path of a frame that frees itself (a spawn in place) at its final suspend point,
/// its parent popped back: no exception, no data (on_final and complete tested both). True if
/// it gave the block back; false leaves it to free_and_resume, out of line (a call here would
/// keep the parent live across it, in a callee-saved register: docs/design/0016).
///
/// A plain frame (frame::m_plain) on this worker's current stacklet goes straight back to the
/// frame stack: its destroy function would run no destructor (plain_frame_v) and only call
/// operator delete, at the cost of one more entry into the coroutine's resume function (its
/// prologue, its dispatch, its epilogue). The block is the coroutine's own allocation: the
/// handle's address is what operator new returned (gcc and clang). A compiler may elide a
/// coroutine's allocation (clang's HALO) only where the caller destroys the frame on every
/// path; a frame spawned in place is released by its caller and never destroyed by it, so its
/// allocation is never elided.
[[nodiscard]] LOCUS_ALWAYS_INLINE inline bool free_plain_here(frame& f, worker& w) noexcept {
  auto* h = reinterpret_cast<block_header*>(static_cast<char*>(f.address()) - k_block_header);
  frame_stack& st = w.stack();
  if (!f.m_plain || !st.on_current(h)) [[unlikely]]
    return false;
  st.deallocate_current(h);
  return true;
}

/// f.m_kind == spawned && f.m_work_first. Two byte compares, not one 16-bit compare of the two
/// adjacent bytes: the spawn writes them with two byte stores (link, then start_work_first),
/// and a fib leaf completes a few dozen instructions later, while both stores may still sit in
/// the store buffer, where a 16-bit load that spans them cannot take its value from them (it
/// waits for both to retire: a store-forwarding failure). The 16-bit form saved 1.5
/// instructions per fib frame; this machine has no cycle counter and its times could not tell
/// the two apart (docs/benchmarks.md, 2026-11-26d), so the form without the hazard stays.
/// Every kind that reaches it has m_work_first set: spawns and asyncs by their start, roots by
/// make_root, calls that keep their result and finish bodies by link() (a call in place returns
/// before this test).
[[nodiscard]] inline bool spawned_work_first(const frame& f) noexcept {
  return f.m_kind == frame_kind::spawned && f.m_work_first;
}

/// A called frame runs in its caller's place unless it was picked up since the call (a steal of
/// its continuation by a worker of another place, which moves it there: worker.cpp, execute),
/// and whatever picks a frame up makes it head its on-stack chain (start_chain), which nothing
/// undoes (m_stack_base is written only by link() and start_chain()). So a call's completion
/// tests the chain alone on its fast path; the place only when the chain test fails.
[[nodiscard]] inline bool moved_implies_headed(const frame& f, const frame& parent) noexcept {
  return f.m_place == parent.m_place || f.m_stack_base == f.m_level;
}

/// Completion of a frame whose children are all done, on the worker that ran it. Returns what
/// to run next. Never recurses: a completion that joins a parent which itself completes goes
/// round join_parent's loop.
LOCUS_ALWAYS_INLINE inline std::coroutine_handle<> complete(frame& f) noexcept {
  if (f.m_kind == frame_kind::called_in_place) [[likely]] {
    // A call whose result is already in the caller's awaiter: the frame frees itself, then
    // the caller continues. Out of line when there is an exception to hand over, or when this
    // frame headed its on-stack chain (it was picked up since the call: the caller heads the
    // chain now), which includes every move to another place (a cross-place steal of its
    // continuation: the caller is sent home; see moved_implies_headed).
    frame* parent = f.m_parent;
    assert(moved_implies_headed(f, *parent));
    if (f.m_exception.has() || f.m_stack_base == f.m_level) [[unlikely]]
      return complete_call_slow(f);
    if (!free_plain_here(f, *t_worker)) [[unlikely]]
      return free_and_resume(f, *parent);
    return transfer(parent->handle());
  }
  if (spawned_work_first(f) && !f.m_exception.has()) [[likely]] {
    // Work-first: our parent's continuation was pushed just before we started. If it is still
    // the bottom item of this worker's deque, nobody took it: resume it directly (the parent
    // ran on this worker, so it is in this worker's place).
    frame* parent = f.m_parent;
    // The worker once: the pop's exchange is a compiler barrier, after which t_worker would
    // be read again for the free.
    worker& w = *t_worker;
    deque<std::uintptr_t>& dq = w.tasks();
    std::uintptr_t item = 0;
    const bool popped = dq.pop(item);
    if (popped && item == continuation_item(parent, false)) [[likely]] {
      // Nobody took the parent, so nobody but this worker can reach this frame: a child spawned
      // in place (no future) frees itself here, with a plain read (frame.hpp, "Orphans").
      if (f.m_orphan.load(std::memory_order_relaxed) == k_orphaned && !free_plain_here(f, w))
          [[unlikely]]
        return free_and_resume(f, *parent);
      return transfer(parent->handle());
    }
    return complete_taken(f, popped, item);
  }
  if (f.m_kind == frame_kind::called) {
    frame* parent = f.m_parent;
    assert(moved_implies_headed(f, *parent));
    // A frame that headed its on-stack chain returns to a caller that now heads it, unless it
    // moved to another place (a cross-place steal of its continuation): then the caller is
    // sent home. Only a frame that heads its chain can have moved (moved_implies_headed).
    if (f.m_stack_base == f.m_level) [[unlikely]] {
      if (f.m_place != parent->m_place) return complete_slow(f);
      parent->start_chain();
    }
    return transfer(parent->handle());
  }
  return complete_slow(f);
}

/// The final suspend point of every locus coroutine.
LOCUS_ALWAYS_INLINE inline std::coroutine_handle<> on_final(frame& f) noexcept {
  // Both tests as one (an or of the two words: one branch instead of two).
  if ((reinterpret_cast<std::uintptr_t>(f.m_data) | f.m_expected) != 0) [[unlikely]]
    return on_final_slow(f);
  return complete(f);
}

}  // namespace locus::detail
