// Out-of-line parts of the scheduling protocol: joins, completions other than the work-first
// fast path, remote spawns, zombie children.
#include "locus/detail/scheduler.hpp"

#include <stdexcept>
#include <string>

#include "runtime_state.hpp"

namespace locus::detail {

namespace {

/// A finish scope drained: continue its waiter (a frame suspended in co_await finish) or wake
/// runtime::run. Nothing of the scope may be touched after the signal.
std::coroutine_handle<> signal_scope(finish_scope& s) noexcept {
  if (s.waiter != nullptr) {
    frame* w = s.waiter;
    if (t_worker != nullptr) t_worker->context_switch(*w);
    return transfer(w->handle());
  }
  run_signal* sig = s.signal;
  std::lock_guard lk(sig->mutex);
  sig->done = true;
  sig->cv.notify_one();
  return std::noop_coroutine();
}

/// One async (or the owner, with `by` = the bias) leaves scope `s`.
std::coroutine_handle<> leave_scope(finish_scope& s, std::int64_t by) noexcept {
  // acq_rel: release our work to whoever continues after the scope; acquire theirs if last.
  if (s.pending.fetch_sub(by, std::memory_order_acq_rel) == by) return signal_scope(s);
  return std::noop_coroutine();
}

}  // namespace

std::coroutine_handle<> join_parent(frame& parent) noexcept {
  // acq_rel: release our result/exception to the parent; acquire the siblings' if last.
  if (parent.m_join.fetch_sub(1, std::memory_order_acq_rel) != 1) return std::noop_coroutine();
  // Last child: the parent is suspended at a sync or at its final suspend point.
  t_worker->context_switch(parent);
  if (!parent.m_at_final) return transfer(parent.handle());
  after_join(parent);
  return complete(parent);  // bounded: complete() only recurses through join_parent here
}

std::coroutine_handle<> complete_slow(frame& f) noexcept {
  switch (f.m_kind) {
    case frame_kind::called:
      return transfer(f.m_parent->handle());
    case frame_kind::spawned: {
      frame* parent = f.m_parent;
      if (f.m_exception.has()) parent->m_exception.offer(f.m_exception.take());
      if (f.m_work_first) {
        deque<std::uintptr_t>& dq = t_worker->tasks();
        std::uintptr_t item;
        if (dq.pop(item)) {
          if (item == continuation_item(parent, false)) return transfer(parent->handle());
          dq.push(item);
        }
      }
      return join_parent(*parent);
    }
    case frame_kind::async: {
      finish_scope& scope = *f.m_finish;
      frame* parent = f.m_parent;
      const bool work_first = f.m_work_first;
      if (f.m_exception.has()) scope.exception.offer(f.m_exception.take());
      f.handle().destroy();  // an async owns itself
      std::coroutine_handle<> next = leave_scope(scope, 1);
      if (work_first) {
        // The parent cannot be waiting on this scope while its continuation is still on our
        // deque (it is inside the scope), so `next` is a no-op whenever the pop succeeds.
        deque<std::uintptr_t>& dq = t_worker->tasks();
        std::uintptr_t item;
        if (dq.pop(item)) {
          if (item == continuation_item(parent, true)) return transfer(parent->handle());
          dq.push(item);
        }
      }
      return next;
    }
    case frame_kind::finish_body:
      // The body's exception stays in its own slot; finish's await_resume reads it.
      return leave_scope(*f.m_finish, k_join_bias);
    case frame_kind::root:
      return leave_scope(*f.m_finish, k_join_bias);
  }
  return std::noop_coroutine();
}

void reap_zombies(frame& f) noexcept {
  frame* z = f.m_zombies;
  f.m_zombies = nullptr;
  while (z != nullptr) {
    frame* next = z->m_next_zombie;
    z->handle().destroy();
    z = next;
  }
}

std::coroutine_handle<> spawn_remote(worker& w, frame& parent, frame& child, std::uint32_t place,
                                     bool is_async) noexcept {
  child.m_place = place;
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
  throw std::out_of_range("locus: spawn at(" + std::to_string(place) +
                          ") names no place; this runtime has " +
                          std::to_string(num_places_of(*t_worker)) + " places");
}

void throw_not_on_worker(const char* what) {
  throw std::logic_error(std::string("locus: ") + what +
                         " must be used inside a task running on a locus runtime");
}

}  // namespace locus::detail
