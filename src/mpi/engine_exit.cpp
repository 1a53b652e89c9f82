// src/mpi/engine_exit.cpp — the communication worker's bookkeeping outside its loop: goodbyes,
// fault hooks, the counters, and the way out (MPI_Abort after a fault, MPI_Finalize at the end).
// See engine.hpp for the protocol; engine.cpp has the thread and its progress loop.
#include <pthread.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>

#include "engine.hpp"
#include "poller.hpp"

namespace locus::mpi::detail {

void engine::note_bye(int from, std::uint64_t graphs_created) {
  ++m_byes;
  // A graph of this rank that waits for `from` (an import, a fence) and that `from` never
  // created can never finish: an error now, not a hang (dist_graph.cpp).
  graph_peer_left(*this, from, graphs_created);
}

int engine::add_fault_hook(std::function<void(const std::string&, int)> fn) {
  std::lock_guard lk(m_hooks_mx);
  if (faulted()) fn(m_fault_msg, m_fault_origin);
  m_hooks.emplace(m_next_hook, std::move(fn));
  return m_next_hook++;
}

void engine::remove_fault_hook(int id) {
  std::lock_guard lk(m_hooks_mx);
  m_hooks.erase(id);
}

comm_stats engine::stats() const noexcept {
  const poll_set& ps = poll_set::instance();
  comm_stats s;
  s.started = m_started.load(std::memory_order_relaxed);
  s.completed = m_completed.load(std::memory_order_relaxed);
  s.polls = m_polls.load(std::memory_order_relaxed);
  s.sleeps = m_sleeps.load(std::memory_order_relaxed);
  // The thread's CPU clock: readable from any thread while the thread lives (~engine joins it).
  clockid_t clk{};
  timespec ts{};
  if (pthread_getcpuclockid(const_cast<std::thread&>(m_thread).native_handle(), &clk) == 0 &&
      clock_gettime(clk, &ts) == 0)
    s.cpu_ns = static_cast<std::uint64_t>(ts.tv_sec) * 1000000000u +
               static_cast<std::uint64_t>(ts.tv_nsec);
  s.worker_polls = ps.polls.load(std::memory_order_relaxed);
  s.worker_completed = ps.completed.load(std::memory_order_relaxed);
  s.handed_over = ps.handed.load(std::memory_order_relaxed);
  s.lazy_sleeps = m_lazy_sleeps.load(std::memory_order_relaxed);
  s.idle_wakeups = ps.idle_wakeups.load(std::memory_order_relaxed);
  s.worker_steps = m_worker_steps.load(std::memory_order_relaxed);
  s.worker_step_completed = m_worker_step_completed.load(std::memory_order_relaxed);
  s.worker_step_tries = m_worker_step_tries.load(std::memory_order_relaxed);
  s.worker_graph_step_tries = m_worker_graph_step_tries.load(std::memory_order_relaxed);
  s.idle_steps_pending = ps.idle_steps_pending.load(std::memory_order_relaxed);
  s.idle_parks_pending = ps.idle_parks_pending.load(std::memory_order_relaxed);
  s.values_one_message = values_one_message.load(std::memory_order_relaxed);
  s.values_with_header = values_with_header.load(std::memory_order_relaxed);
  return s;
}

void engine::abort_job() noexcept {
  std::fprintf(stderr, "locus::mpi: rank %d: ending the job (MPI_Abort) after a fault: %s\n",
               m_rank, m_fault_msg.c_str());
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::_Exit(1);
}

void engine::shutdown_mpi() noexcept {
  // Every rank said goodbye: nothing more will arrive. Cancel what is still posted (the
  // background receives; user receives nobody will match), wait for the cancellations, free
  // the communicators and finalise.
  for (op* o : m_active) {
    if (!o->background && !o->zombie)
      o->fail(*this,
              "locus::mpi: rank " + std::to_string(m_rank) +
                  ": the context ended while this operation was pending",
              m_rank);
    MPI_Request r = o->req;
    if (o->collective && r != MPI_REQUEST_NULL) continue;  // see op::collective: left to MPI
    if (o->background) {  // our own receives: cancelled for sure, so the wait returns
      MPI_Cancel(&r);
      MPI_Wait(&r, MPI_STATUS_IGNORE);
    } else if (r != MPI_REQUEST_NULL) {
      MPI_Cancel(&r);  // a receive; a send goes on or not, MPI_Request_free lets it go
      MPI_Request_free(&r);
    }
    delete o;
  }
  m_active.clear();
  m_reqs.clear();
  for (MPI_Comm* c : {&m_user, &m_ctl, &m_graph_req, &m_graph_val})
    if (*c != MPI_COMM_NULL) MPI_Comm_free(c);
  if (m_owns_mpi) MPI_Finalize();
}

}  // namespace locus::mpi::detail
