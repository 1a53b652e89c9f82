// src/mpi/context.cpp — locus::mpi::context: the process's one engine, faults, call().
#include "locus/mpi/context.hpp"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <utility>

#include "engine.hpp"
#include "locus/ext/core.hpp"
#include "locus/runtime.hpp"
#include "poller.hpp"

namespace locus::mpi {

namespace {
std::atomic<context*> g_current{nullptr};

/// Runs a function on the communication worker (context::call). The caller waits for `done`
/// under `mx`; finish() writes the result before it sets `done`, and touches nothing of the
/// caller's afterwards (the caller's frame may be gone once it saw `done`).
struct call_op final : detail::op {
  struct waiter {
    std::mutex mx;
    std::condition_variable cv;
    bool done = false;
    std::exception_ptr ex;
  };
  // It runs the program's MPI calls, which may block: never on a locus worker that progresses
  // (engine::help leaves it to the communication worker).
  call_op(const std::function<void()>& f, waiter& w) : fn(f), w(w) { comm_thread_only = true; }
  int start(detail::engine&) override {
    std::exception_ptr ex;
    try {
      fn();
    } catch (...) {
      ex = std::current_exception();
    }
    finish(std::move(ex));
    return MPI_SUCCESS;
  }
  bool complete(detail::engine&, const MPI_Status&, int) override { return false; }
  void fail(detail::engine&, const std::string& why, int origin) override {
    finish(std::make_exception_ptr(error(why, origin)));
  }
  void finish(std::exception_ptr ex) {
    std::lock_guard lk(w.mx);
    w.ex = std::move(ex);
    w.done = true;
    w.cv.notify_all();
  }
  const std::function<void()>& fn;
  waiter& w;
};
}  // namespace

context::context(int& argc, char**& argv, options o) {
  context* expected = nullptr;
  if (!g_current.compare_exchange_strong(expected, this))
    throw std::logic_error("locus::mpi::context: a context exists already in this process");
  try {
    m_e = std::make_unique<detail::engine>(&argc, &argv, o);
  } catch (...) {
    g_current.store(nullptr);
    throw;
  }
}

context::context(options o) {
  context* expected = nullptr;
  if (!g_current.compare_exchange_strong(expected, this))
    throw std::logic_error("locus::mpi::context: a context exists already in this process");
  try {
    m_e = std::make_unique<detail::engine>(nullptr, nullptr, o);
  } catch (...) {
    g_current.store(nullptr);
    throw;
  }
}

context::~context() {
  m_e.reset();
  g_current.store(nullptr);
}

context& context::current() {
  context* c = g_current.load(std::memory_order_acquire);
  if (c == nullptr)
    throw error("locus::mpi: no locus::mpi::context exists (create one in main first)", -1);
  return *c;
}

int context::rank() const noexcept {
  return m_e->rank();
}
int context::size() const noexcept {
  return m_e->size();
}
int context::tag_limit() const noexcept {
  return m_e->tag_limit();
}
bool context::direct() const noexcept {
  return m_e->direct();
}

const options& context::opts() const noexcept {
  return m_e->opts();
}
bool context::faulted() const noexcept {
  return m_e->faulted();
}
comm_stats context::stats() const noexcept {
  return m_e->stats();
}

void context::watch(locus::runtime& rt) {
  detail::poll_set::instance().watch(ext::core_ref::of(rt).raw());
}

void context::set_idle_progress(std::chrono::microseconds d) noexcept {
  m_e->set_idle_progress(d);
}
void context::set_worker_poll(std::chrono::microseconds d) noexcept {
  detail::poll_set::instance().set_worker_poll(d);
}
void context::set_worker_poll(std::chrono::microseconds d,
                              std::chrono::microseconds per_mib) noexcept {
  detail::poll_set::instance().set_worker_poll(d);
  detail::poll_set::instance().set_worker_poll_per_mib(per_mib);
}

void context::set_worker_progress(bool on, std::chrono::microseconds busy_sleep) noexcept {
  m_e->set_worker_progress(on, busy_sleep);
}

void context::trace_values(bool on) noexcept {
  m_e->set_tracing(on);
}

std::vector<value_trace> context::take_value_traces() {
  return m_e->take_traces();
}

void context::fail(const std::string& what) {
  m_e->fail_local("locus::mpi: rank " + std::to_string(rank()) + " failed: " + what);
}

void context::check_peers() const {
  if (m_e->faulted()) throw error(m_e->fault_message(), m_e->fault_origin());
}

void context::report(std::exception_ptr e) noexcept {
  try {
    std::rethrow_exception(std::move(e));
  } catch (const error& x) {
    if (x.origin() == rank() || x.origin() < 0) fail(x.what());
  } catch (const std::exception& x) {
    fail(x.what());
  } catch (...) {
    fail("an exception that is not a std::exception");
  }
}

void context::call(const std::function<void()>& fn) {
  if (locus::this_worker::index() >= 0)
    throw error("locus::mpi::context::call: not on a locus worker (it blocks the thread)", rank());
  call_op::waiter w;
  m_e->submit(new call_op(fn, w));
  std::unique_lock lk(w.mx);
  w.cv.wait(lk, [&] { return w.done; });
  if (w.ex) std::rethrow_exception(w.ex);
}

}  // namespace locus::mpi
