// Out-of-line parts of the scheduling protocol: joins, completions other than the work-first
// fast path, remote spawns, orphaned children.
#include "locus/detail/scheduler.hpp"

#include <stdexcept>
#include <string>
#include <utility>

#include "runtime_state.hpp"

namespace locus::detail {

namespace {

/// Continue `f`, suspended at a sync, in a call or in a finish, whose wait just ended on
/// worker `w`: here if `w` is in f's place, else through f's place's mailbox (the place rule).
/// Either way f heads a new on-stack chain.
std::coroutine_handle<> resume_in_place(worker& w, frame& f) noexcept {
  f.start_chain();
  if (f.m_place != w.place()) [[unlikely]] {
    post_to_place(w.rt(), f.m_place, fresh_item(&f));
    return std::noop_coroutine();
  }
  return transfer(f.handle());
}

/// A finish scope drained: continue its waiter (a frame suspended in co_await finish) or wake
/// runtime::run. Nothing of the scope may be touched after the signal.
std::coroutine_handle<> signal_scope(worker& w, finish_scope& s) noexcept {
  if (s.waiter != nullptr) return resume_in_place(w, *s.waiter);
  run_signal* sig = s.signal;
  std::lock_guard lk(sig->mutex);
  sig->done = true;
  sig->cv.notify_one();
  return std::noop_coroutine();
}

/// One async (or the owner, with `by` = the bias) leaves scope `s`.
std::coroutine_handle<> leave_scope(worker& w, finish_scope& s, std::int64_t by) noexcept {
  // acq_rel: release our work to whoever continues after the scope; acquire theirs if last.
  if (s.pending.fetch_sub(by, std::memory_order_acq_rel) == by) return signal_scope(w, s);
  return std::noop_coroutine();
}

/// If the bottom item of w's deque is `expected` (the continuation a work-first child's
/// parent pushed before the child started), take it: nobody stole it.
bool pop_own_continuation(worker& w, std::uintptr_t expected) noexcept {
  deque<std::uintptr_t>& dq = w.tasks();
  std::uintptr_t item;
  if (!dq.pop(item)) return false;
  if (item == expected) return true;
  dq.push(item);  // someone else's item (the child was resumed elsewhere): put it back
  return false;
}

/// The bookkeeping of one completion, on worker `w`: `f`'s children are done and its body has
/// returned. Returns what to run next, unless it leaves a parent to be joined: then it sets
/// `join` to that parent and the caller decrements its counter. Never calls join_parent, so
/// a chain of completions (a help-first chain of any length finishing at once) is a loop in
/// join_parent, not a recursion.
std::coroutine_handle<> finish_frame(worker& w, frame& f, frame*& join) noexcept {
  switch (f.m_kind) {
    case frame_kind::called:
      return resume_in_place(w, *f.m_parent);
    case frame_kind::called_in_place:  // complete() sends every completion of one elsewhere
      return complete_call_slow(f);
    case frame_kind::spawned: {
      frame* parent = f.m_parent;
      // A copy: the child keeps its exception, so its future's get() rethrows it even after
      // the parent caught it at sync.
      if (f.m_exception.has()) parent->m_exception.offer(f.m_exception.get());
      const bool work_first = f.m_work_first;
      // Its future already dropped: nobody will read the frame (frame.hpp, "Orphans").
      if (f.m_orphan.exchange(k_completed, std::memory_order_acq_rel) == k_orphaned)
        f.handle().destroy();
      if (work_first && pop_own_continuation(w, continuation_item(parent, false)))
        return transfer(parent->handle());
      join = parent;
      return std::noop_coroutine();
    }
    case frame_kind::async: {
      finish_scope& scope = *f.m_finish;
      frame* parent = f.m_parent;
      const bool work_first = f.m_work_first;
      if (f.m_exception.has()) scope.exception.offer(f.m_exception.take());
      f.handle().destroy();  // an async owns itself
      std::coroutine_handle<> next = leave_scope(w, scope, 1);
      // The parent cannot be waiting on this scope while its continuation is still on our
      // deque (it is inside the scope), so `next` is a no-op whenever the pop succeeds.
      if (work_first && pop_own_continuation(w, continuation_item(parent, true)))
        return transfer(parent->handle());
      return next;
    }
    // Both leave their scope; the exception stays in the frame's own slot, where finish's
    // await_resume (a body) or run() (the root) reads it.
    case frame_kind::finish_body:
    case frame_kind::root:
      return leave_scope(w, *f.m_finish, k_join_bias);
    case frame_kind::detached:  // ext/ready.hpp: its starter did its bookkeeping in the body
      f.handle().destroy();
      return std::noop_coroutine();
  }
  return std::noop_coroutine();
}

}  // namespace

std::coroutine_handle<> join_parent(frame& parent) noexcept {
  worker& w = *t_worker;
  frame* p = &parent;
  for (;;) {
    if (!child_arrive(*p)) return std::noop_coroutine();
    // Last child: p is suspended at a sync or at its final suspend point.
    if (!p->m_at_final) return resume_in_place(w, *p);
    after_join(*p);
    p->start_chain();  // its completion runs here, as if this worker had picked it up
    frame* next = nullptr;
    std::coroutine_handle<> h = finish_frame(w, *p, next);
    if (next == nullptr) return h;
    p = next;
  }
}

std::coroutine_handle<> complete_slow(frame& f) noexcept {
  worker& w = *t_worker;
  frame* next = nullptr;
  std::coroutine_handle<> h = finish_frame(w, f, next);
  return next == nullptr ? h : join_parent(*next);
}

void exception_slot::rethrow() const {
  std::rethrow_exception(get());
}

void exception_slot::rethrow_taken() {
  std::rethrow_exception(take());
}

void exception_slot::release(std::exception_ptr* p) noexcept {
  delete p;
}

std::coroutine_handle<> spawn_slow(frame& parent, frame& child, std::uint8_t policy,
                                   std::uint32_t place, bool is_async) noexcept {
  worker& w = *t_worker;
  parent.adopt(child, is_async ? frame_kind::async : frame_kind::spawned);
  if (place != k_any_place && place != parent.m_place)
    return spawn_remote(w, parent, child, place, is_async);
  // As in spawn_start: counted before the child is published.
  if (is_async) child.m_finish->pending.fetch_add(1, std::memory_order_relaxed);
  const spawn_choice choice = w.choose_spawn(parent, policy);
  if (choice >= spawn_choice::custom) return spawn_decide(w, parent, child, is_async, choice);
  return spawn_push(w, parent, child, is_async, choice == spawn_choice::work_first);
}

std::coroutine_handle<> spawn_decide(worker& w, frame& parent, frame& child, bool is_async,
                                     spawn_choice choice) noexcept {
  if (choice == spawn_choice::reevaluate) choice = w.reevaluate_and_choose(parent);
  if (choice == spawn_choice::custom) return spawn_custom(w, parent, child, is_async);
  return spawn_push(w, parent, child, is_async, choice == spawn_choice::work_first);
}

std::coroutine_handle<> call_slow(frame& parent, frame& child, frame_kind kind) noexcept {
  parent.adopt(child, kind);
  return transfer(child.handle());
}

namespace {
/// Gives back the block of a frame that frees itself (a spawn or a call in place) at its final
/// suspend point: a plain frame without entering its destroy function (free_plain_here), any
/// other through it.
void free_self(frame& f) noexcept {
  if (f.m_plain) {
    frame_deallocate(f.address());
  } else {
    f.handle().destroy();
  }
}
}  // namespace

std::coroutine_handle<> complete_call_slow(frame& f) noexcept {
  worker& w = *t_worker;
  frame& parent = *f.m_parent;
  // Every child of f has joined (its final sync), so nobody offers to f's slot any more; the
  // parent is suspended in the call and reads the field only once resumed, below.
  parent.m_call_exception = f.m_exception.release_box();  // null if none
  // The caller runs only in its place (the place rule): f may have moved (a cross-place steal
  // of its continuation), or be completed by a worker of another place (its last child's, at
  // its final sync: join_parent). Either way this worker is not in the caller's place.
  const bool away = parent.m_place != w.place();
  const bool headed = f.m_stack_base == f.m_level;
  free_self(f);  // nothing of f is touched after this
  if (away) return resume_in_place(w, parent);
  if (headed) parent.start_chain();
  return transfer(parent.handle());
}

void rethrow_call(frame& parent) {
  std::exception_ptr* box = std::exchange(parent.m_call_exception, nullptr);
  std::exception_ptr e = std::move(*box);
  delete box;
  std::rethrow_exception(std::move(e));
}

std::coroutine_handle<> complete_taken(frame& f, bool popped, std::uintptr_t item) noexcept {
  if (popped) t_worker->tasks().push(item);  // someone else's item (we were resumed elsewhere)
  frame* parent = f.m_parent;
  // The continuation was taken: the parent runs elsewhere and may drop our future meanwhile
  // (frame.hpp, "Orphans"). Nothing of this frame is touched after the exchange.
  if (f.m_orphan.exchange(k_completed, std::memory_order_acq_rel) == k_orphaned)
    f.handle().destroy();
  return join_parent(*parent);
}

std::coroutine_handle<> free_and_resume(frame& f, frame& parent) noexcept {
  free_self(f);  // a plain frame here is off the current stacklet (free_plain_here)
  return transfer(parent.handle());
}

std::coroutine_handle<> on_final_slow(frame& f) noexcept {
  if (f.m_data != nullptr) complete_data(f);
  if (f.m_expected != 0) {
    f.m_at_final = true;  // read by the last child, after its acquire on m_join
    if (!join_arrive(f)) return std::noop_coroutine();
    after_join(f);
  }
  return complete(f);
}

std::coroutine_handle<> spawn_remote(worker& w, frame& parent, frame& child, std::uint32_t place,
                                     bool is_async) noexcept {
  child.m_place = place;  // it heads a chain when its place's worker takes it from the mailbox
  child.m_work_first = false;
  if (is_async) {
    child.m_finish->pending.fetch_add(1, std::memory_order_relaxed);
  } else {
    ++parent.m_expected;
  }
  counters::bump(w.stats().spawns_remote);
  post_to_place(w.rt(), place, fresh_item(&child));
  return transfer(parent.handle());
}

std::uint32_t num_places_of(const worker& w) noexcept {
  return static_cast<std::uint32_t>(w.rt().places.size());
}

void throw_bad_place(std::uint32_t place) {
  throw std::out_of_range(bad_place_message("locus: spawn", place, num_places_of(*t_worker)));
}

void throw_no_value() {
  throw std::logic_error(
      "locus: the task has no result yet: a future's get() is valid after the spawning frame's "
      "co_await locus::sync() (or the task was never run)");
}

void throw_not_on_worker(const char* what) {
  throw std::logic_error(std::string("locus: ") + what +
                         " must be used inside a task running on a locus runtime");
}

}  // namespace locus::detail
