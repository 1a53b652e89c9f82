// src/mpi/engine_step.cpp — the communication worker's progress step as any thread may make it:
// submission (the inbox), the inbox's ops started in order, and the step a locus worker makes
// between dist_graph tasks or when idle (engine::help; options::worker_progress). The loop that
// makes it on the communication worker, and poll(), are in engine.cpp; engine.hpp says the
// protocol.
#include "engine.hpp"

#include <algorithm>

namespace locus::mpi::detail {

bool engine::push(op* o) {
  op* head = m_inbox.load(std::memory_order_relaxed);
  do {
    o->next = head;
    // seq_cst (a release at least: the op's fields are published to the worker): ordered with
    // the load of m_sleeping below against the worker's store of it (engine::sleep).
  } while (!m_inbox.compare_exchange_weak(head, o, std::memory_order_seq_cst,
                                          std::memory_order_relaxed));
  return m_sleeping.load(std::memory_order_seq_cst);
}

void engine::submit(op* o) {
  if (push(o)) {
    std::lock_guard lk(m_sleep_mx);
    m_sleep_cv.notify_one();
  }
}

void engine::submit_and_help(op* o) {
  const bool asleep = push(o);
  bool ran = false;
  (void)help_between_tasks(&ran);
  // help() ran: it drained the inbox, our op with it, under m_progress_mx. Otherwise the
  // communication worker must see the op: submit's wake-up (its Dekker pair is push's load).
  if (!ran && asleep) {
    std::lock_guard lk(m_sleep_mx);
    m_sleep_cv.notify_one();
  }
}

bool engine::help(bool* ran, bool* contended) noexcept {
  if (ran != nullptr) *ran = false;
  if (contended != nullptr) *contended = false;
  if (!m_direct || !m_worker_progress.load(std::memory_order_relaxed)) return false;
  if (m_inbox.load(std::memory_order_relaxed) == nullptr &&
      !m_user_pending.load(std::memory_order_relaxed)) {
    // Nothing of the program's pending, but a dist_graph alive: other ranks' requests for its
    // values may be waiting (a background receive), so a step, at most every k_graph_step.
    if (graphs_alive.load(std::memory_order_relaxed) == 0) return false;
    const std::int64_t now = std::chrono::steady_clock::now().time_since_epoch().count();
    if (now - m_last_graph_try.load(std::memory_order_relaxed) < k_graph_step_ticks) return false;
    m_last_graph_try.store(now, std::memory_order_relaxed);
    m_worker_graph_step_tries.fetch_add(1, std::memory_order_relaxed);
  }
  m_worker_step_tries.fetch_add(1, std::memory_order_relaxed);
  std::unique_lock lk(m_progress_mx, std::try_to_lock);
  // Another thread progresses (the communication worker, or another worker): nothing to add.
  // After the loop ended MPI is being finalised; after ~context began, the end is the
  // communication worker's alone.
  if (!lk.owns_lock()) {
    if (contended != nullptr) *contended = true;
    return false;
  }
  if (m_loop_done || m_stop.load(std::memory_order_acquire)) return false;
  if (ran != nullptr) *ran = true;
  m_worker_steps.fetch_add(1, std::memory_order_relaxed);
  const std::uint64_t c0 = m_completed.load(std::memory_order_relaxed);
  bool did = drain_inbox(true);
  // A completion may post a follow-up receive (a graph value's bytes after its header), which
  // the next test may find done: test again while something completes, 3 times at most (this
  // worker has tasks to run).
  for (int i = 0; i < 3 && poll(); ++i)
    did = true;
  (void)note_user_pending();
  // m_completed is written under m_progress_mx only: the difference is this step's.
  m_worker_step_completed.fetch_add(m_completed.load(std::memory_order_relaxed) - c0,
                                    std::memory_order_relaxed);
  return did;
}

bool engine::help_between_tasks(bool* ran) noexcept {
  bool took = false;
  const bool did = help(&took);
  if (took)
    m_last_task_step.store(std::chrono::steady_clock::now().time_since_epoch().count(),
                           std::memory_order_relaxed);
  if (ran != nullptr) *ran = took;
  return did;
}

std::vector<value_trace> engine::take_traces() {
  std::lock_guard lk(m_progress_mx);
  std::vector<value_trace> out;
  out.swap(traces);
  return out;
}

bool engine::note_user_pending() noexcept {
  bool pending = m_held != nullptr, awaited = false;
  for (const op* o : m_active) {
    if (o->background || o->zombie) continue;
    pending = true;
    if (o->awaited) {
      awaited = true;
      break;
    }
  }
  m_user_pending.store(pending, std::memory_order_relaxed);
  m_recv_pending.store(awaited, std::memory_order_relaxed);
  return pending;
}

std::chrono::microseconds engine::lazy_step() const noexcept {
  const std::chrono::microseconds busy(m_busy_sleep_us.load(std::memory_order_relaxed));
  if (!m_direct || !m_worker_progress.load(std::memory_order_relaxed) || busy <= m_opts.max_sleep)
    return m_opts.max_sleep;
  const std::chrono::steady_clock::time_point last(
      std::chrono::steady_clock::duration(m_last_task_step.load(std::memory_order_relaxed)));
  return std::chrono::steady_clock::now() - last < busy ? busy : m_opts.max_sleep;
}

bool engine::drain_inbox(bool helper) {
  op* list = m_inbox.exchange(nullptr, std::memory_order_acquire);
  if (list != nullptr) {
    op* fifo = nullptr;  // the stack holds the newest first: reverse to submission order
    op* tail = list;
    while (list != nullptr) {
      op* n = list->next;
      list->next = fifo;
      fifo = list;
      list = n;
    }
    // After the ops a helper held back, if any: they are older.
    if (m_held != nullptr)
      m_held_tail->next = fifo;
    else
      m_held = fifo;
    m_held_tail = tail;
  }
  bool any = false;
  while (m_held != nullptr) {
    op* o = m_held;
    if (helper && o->comm_thread_only) {
      // Left, with every later op, to the communication worker: flag then look (seq_cst)
      // against its store of m_sleeping then its look at the flag (engine::sleep).
      m_held_flag.store(true, std::memory_order_seq_cst);
      if (m_sleeping.load(std::memory_order_seq_cst)) {
        std::lock_guard lk(m_sleep_mx);
        m_sleep_cv.notify_one();
      }
      return any;
    }
    m_held = o->next;
    if (m_held == nullptr) m_held_tail = nullptr;
    start_op(o);
    any = true;
  }
  m_held_flag.store(false, std::memory_order_relaxed);
  return any;
}

void engine::start_op(op* o) {
  if (faulted() && !o->survives_fault) {
    o->fail(*this, m_fault_msg, m_fault_origin);
    if (o->adopted) {  // in MPI already: as raise_fault does with the ops in flight
      o->zombie = true;
      MPI_Cancel(&o->req);
      m_active.push_back(o);
      m_reqs.push_back(o->req);
    } else {
      delete o;
    }
    return;
  }
  m_started.fetch_add(1, std::memory_order_relaxed);
  const int err = o->start(*this);
  if (err != MPI_SUCCESS) {
    o->fail(*this, mpi_error_text(err), m_rank);
    delete o;
  } else if (o->req == MPI_REQUEST_NULL) {
    delete o;  // finished in start()
  } else {
    m_active.push_back(o);
    m_reqs.push_back(o->req);
  }
}

}  // namespace locus::mpi::detail
