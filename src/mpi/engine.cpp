// src/mpi/engine.cpp — the communication worker's thread: start-up and the progress loop, faults
// raised (engine_exit.cpp: hooks, counters and the way out). See engine.hpp for the protocol.
#include "engine.hpp"

#include "poller.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace locus::mpi::detail {

namespace {

constexpr int k_fault_tag = 1, k_bye_tag = 2;
constexpr std::size_t k_fault_max = 1024;
/// The longest sleep when only background receives are posted and no dist_graph of this rank is
/// alive: how late a fault notice, a goodbye or a request for a graph this rank has not created
/// yet may be seen by an otherwise idle rank.
constexpr std::chrono::milliseconds k_idle_poll{10};

/// A small message the module sends to one rank (fault notices, goodbyes).
struct notice_send final : op {
  notice_send(MPI_Comm c, int dest, int tag, std::string text)
      : m_comm(c), m_dest(dest), m_tag(tag), m_text(std::move(text)) {
    survives_fault = true;
  }
  int start(engine&) override {
    return MPI_Isend(m_text.data(), static_cast<int>(m_text.size()), MPI_CHAR, m_dest, m_tag,
                     m_comm, &req);
  }
  bool complete(engine&, const MPI_Status&, int) override { return false; }
  void fail(engine&, const std::string&, int) override {}

  MPI_Comm m_comm;
  int m_dest, m_tag;
  std::string m_text;
};

/// The always-posted receive of fault notices (tag k_fault_tag) or goodbyes (k_bye_tag).
struct notice_recv final : op {
  notice_recv(MPI_Comm c, int tag) : m_comm(c), m_tag(tag) {
    background = true;
    survives_fault = true;
  }
  int start(engine&) override {
    return MPI_Irecv(m_buf, sizeof m_buf, MPI_CHAR, MPI_ANY_SOURCE, m_tag, m_comm, &req);
  }
  bool complete(engine& e, const MPI_Status& st, int err) override {
    if (err != MPI_SUCCESS) {
      e.raise_fault("locus::mpi: rank " + std::to_string(e.rank()) +
                        ": the module's control receive failed: " + mpi_error_text(err),
                    e.rank(), true);
      return false;
    }
    int n = 0;
    MPI_Get_count(&st, MPI_CHAR, &n);
    if (m_tag == k_fault_tag)
      e.raise_fault(std::string(m_buf, static_cast<std::size_t>(n)), st.MPI_SOURCE, false);
    else  // "bye <dist_graphs created>"
      e.note_bye(
          st.MPI_SOURCE,
          std::strtoull(std::string(m_buf, static_cast<std::size_t>(n)).c_str() + 3, nullptr, 10));
    if (const int rc = start(e); rc != MPI_SUCCESS) {
      e.raise_fault("locus::mpi: rank " + std::to_string(e.rank()) +
                        ": posting the module's control receive: " + mpi_error_text(rc),
                    e.rank(), true);
      return false;
    }
    return true;
  }
  void fail(engine&, const std::string&, int) override {}

  MPI_Comm m_comm;
  int m_tag;
  char m_buf[k_fault_max];
};

/// This rank failed (from any thread): raise the fault on the worker.
struct local_fault final : op {
  explicit local_fault(std::string m) : m_msg(std::move(m)) { survives_fault = true; }
  int start(engine& e) override {
    e.raise_fault(m_msg, e.rank(), true);
    return MPI_SUCCESS;
  }
  bool complete(engine&, const MPI_Status&, int) override { return false; }
  void fail(engine&, const std::string&, int) override {}
  std::string m_msg;
};

}  // namespace

std::string mpi_error_text(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(code, text, &len) != MPI_SUCCESS) return "MPI error " + std::to_string(code);
  return "MPI error: " + std::string(text, static_cast<std::size_t>(len));
}

engine::engine(int* argc, char*** argv, const options& o) : m_opts(o) {
  m_thread = std::thread([this, argc, argv] { thread_main(argc, argv); });
  std::unique_lock lk(m_init_mx);
  m_init_cv.wait(lk, [&] { return m_init_done; });
  if (!m_init_error.empty()) {
    lk.unlock();
    m_thread.join();
    throw error(m_init_error, -1);
  }
}

engine::~engine() {
  m_stop.store(true, std::memory_order_seq_cst);
  {
    std::lock_guard lk(m_sleep_mx);
    m_sleep_cv.notify_one();
  }
  // The worker leaves after every rank said goodbye (or ends the job after a fault, within
  // fault_timeout). MPI_Finalize itself may wait for ranks that are gone after a fault: give it
  // fault_timeout more, then end this process (mpirun then ends the others).
  const auto limit = std::chrono::steady_clock::now() + m_opts.fault_timeout * 2;
  while (!m_finalized.load(std::memory_order_acquire)) {
    if (faulted() && std::chrono::steady_clock::now() > limit) {
      std::fprintf(stderr, "locus::mpi: rank %d: MPI_Finalize did not return after a fault\n",
                   m_rank);
      std::fflush(stderr);
      std::_Exit(1);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  m_thread.join();
}

void engine::thread_main(int* argc, char*** argv) {
  m_comm_id.store(std::this_thread::get_id(), std::memory_order_relaxed);
  init_mpi(argc, argv);
  {
    std::lock_guard lk(m_init_mx);
    m_init_done = true;
    m_init_cv.notify_all();
    if (!m_init_error.empty()) return;
  }
  loop();
  shutdown_mpi();
  m_finalized.store(true, std::memory_order_release);
}

void engine::init_mpi(int* argc, char*** argv) {
  int inited = 0;
  MPI_Initialized(&inited);
  int provided = 0;
  if (inited == 0) {
    // This thread initialises MPI, so it is MPI's main thread: FUNNELED is enough. MULTIPLE, if
    // offered, lets tasks start their own point-to-point operations (options::direct).
    const int want = m_opts.direct ? MPI_THREAD_MULTIPLE : MPI_THREAD_FUNNELED;
    if (MPI_Init_thread(argc, argv, want, &provided) != MPI_SUCCESS) {
      m_init_error = "locus::mpi: MPI_Init_thread failed";
      return;
    }
    m_owns_mpi = true;
  } else {
    MPI_Query_thread(&provided);
    if (provided < MPI_THREAD_SERIALIZED) {
      m_init_error =
          "locus::mpi: MPI was initialised by the program with a thread level below "
          "MPI_THREAD_SERIALIZED; the communication worker calls MPI from its own thread. "
          "Let locus::mpi::context initialise MPI, or ask MPI_Init_thread for "
          "MPI_THREAD_SERIALIZED or MPI_THREAD_MULTIPLE";
      return;
    }
  }
  m_direct = m_opts.direct && provided == MPI_THREAD_MULTIPLE;
  MPI_Comm_rank(MPI_COMM_WORLD, &m_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &m_size);
  for (MPI_Comm* c : {&m_user, &m_ctl, &m_graph_req, &m_graph_val}) {
    MPI_Comm_dup(MPI_COMM_WORLD, c);
    MPI_Comm_set_errhandler(*c, MPI_ERRORS_RETURN);
  }
  int* ub = nullptr;
  int flag = 0;
  MPI_Comm_get_attr(m_user, MPI_TAG_UB, &ub, &flag);
  m_tag_limit = flag != 0 && ub != nullptr && *ub < 0x7fffffff ? *ub + 1 : 0x7fffffff;
  for (int tag : {k_fault_tag, k_bye_tag}) {
    auto* r = new notice_recv(m_ctl, tag);
    r->start(*this);
    m_active.push_back(r);
    m_reqs.push_back(r->req);
  }
  // Idle workers poll the pending direct requests (poller.hpp) when direct start is on (add()
  // is called only then); the set also carries the workers' idle count, used in both modes.
  m_worker_progress.store(m_opts.worker_progress, std::memory_order_relaxed);
  m_busy_sleep_us.store(m_opts.busy_sleep.count(), std::memory_order_relaxed);
  m_idle_progress_us.store(m_opts.idle_progress.count(), std::memory_order_relaxed);
  poll_set::instance().open(*this, m_opts.worker_poll, m_opts.worker_poll_per_mib);
}

void engine::adopt_from_workers() {
  m_taken.clear();
  m_next_deadline = poll_set::instance().take_expired(m_taken, false);
  for (op* o : m_taken)
    activate(o);
}

void engine::wake() {
  std::lock_guard lk(m_sleep_mx);
  m_sleep_cv.notify_one();
}

void engine::activate(op* o) {
  m_active.push_back(o);
  m_reqs.push_back(o->req);
}

bool engine::poll() {
  if (m_active.empty()) return false;
  const int n = static_cast<int>(m_active.size());
  m_indices.resize(m_active.size());
  m_statuses.resize(m_active.size());
  int out = 0;
  const int rc = MPI_Testsome(n, m_reqs.data(), &out, m_indices.data(), m_statuses.data());
  m_polls.fetch_add(1, std::memory_order_relaxed);
  if (out == MPI_UNDEFINED || out == 0) return false;
  // Testsome freed the completed requests (their slots are MPI_REQUEST_NULL now). Clear the
  // ops' copies first: a completion below may raise a fault, which cancels the requests of the
  // ops still in flight and must not touch these. An op that re-posts refreshes its slot.
  for (int k = 0; k < out; ++k)
    m_active[static_cast<std::size_t>(m_indices[static_cast<std::size_t>(k)])]->req =
        MPI_REQUEST_NULL;
  for (int k = 0; k < out; ++k) {
    const int i = m_indices[static_cast<std::size_t>(k)];
    op* o = m_active[static_cast<std::size_t>(i)];
    const int err =
        rc == MPI_ERR_IN_STATUS ? m_statuses[static_cast<std::size_t>(k)].MPI_ERROR : MPI_SUCCESS;
    m_completed.fetch_add(1, std::memory_order_relaxed);
    bool keep = false;
    if (!o->zombie) keep = o->complete(*this, m_statuses[static_cast<std::size_t>(k)], err);
    if (keep) {
      m_reqs[static_cast<std::size_t>(i)] = o->req;
    } else {
      delete o;
      m_active[static_cast<std::size_t>(i)] = nullptr;
    }
  }
  // Compact: drop the finished ops, keeping the order of the others.
  std::size_t w = 0;
  for (std::size_t r = 0; r < m_active.size(); ++r) {
    if (m_active[r] == nullptr) continue;
    m_active[w] = m_active[r];
    m_reqs[w] = m_reqs[r];
    ++w;
  }
  m_active.resize(w);
  m_reqs.resize(w);
  return true;
}

// Sleep protocol: the worker stores m_sleeping = true (seq_cst) and then looks at the inbox
// (seq_cst); a submitter pushes (seq_cst) and then loads m_sleeping. Sequential consistency
// leaves no interleaving where both miss: either the worker sees the op and does not sleep, or
// the submitter sees m_sleeping and notifies under the mutex, which the worker holds from its
// check until wait_for releases it, so the notification cannot fall between the two.
// A lazy sleep also asks the first worker that turns idle for a wake-up (poll_set::
// arm_wake_on_idle, under the mutex: its notify, made under the same mutex, cannot fall
// between the check and the wait either); if a worker is idle already it does not sleep.
void engine::sleep(std::chrono::microseconds d, bool lazy) {
  std::unique_lock lk(m_sleep_mx);
  m_sleeping.store(true, std::memory_order_seq_cst);
  if (m_inbox.load(std::memory_order_seq_cst) == nullptr &&
      !m_held_flag.load(std::memory_order_seq_cst) && !m_stop.load(std::memory_order_seq_cst) &&
      (!lazy || poll_set::instance().arm_wake_on_idle())) {
    m_sleeps.fetch_add(1, std::memory_order_relaxed);
    if (lazy) m_lazy_sleeps.fetch_add(1, std::memory_order_relaxed);
    m_sleep_cv.wait_for(lk, d);
    if (lazy) poll_set::instance().disarm_wake_on_idle();
  }
  m_sleeping.store(false, std::memory_order_relaxed);
}

void engine::loop() {
  using clock = std::chrono::steady_clock;
  auto last = clock::now();
  auto backoff = std::chrono::microseconds(2);
  for (;;) {
    bool activity = false, stopping = false, user_pending = false;
    {
      // The progress step, under the lock helping workers take too (engine::help).
      std::lock_guard progress(m_progress_mx);
      activity = drain_inbox();
      // Direct requests the workers left pending past their deadline (poller.hpp): before the
      // poll, which then tests them with the rest.
      if (m_direct) {
        adopt_from_workers();
        activity = activity || !m_taken.empty();
      }
      activity = poll() || activity;
      stopping = m_stop.load(std::memory_order_acquire);
      // After a fault a rank still running its program ends the job at the deadline; one that
      // reached ~context waits half as long again, so that a busy rank's own report of the
      // fault (abort_job's message) comes out before the job ends.
      if (faulted() && clock::now() > m_fault_deadline + (stopping ? m_opts.fault_timeout / 2
                                                                   : std::chrono::milliseconds(0)))
        abort_job();
      if (stopping) {
        if (!m_bye_sent) {
          m_bye_sent = true;
          // No task runs any more: the workers poll nothing from here; what they left pending
          // is this worker's (and failed at the end if nobody matches it).
          std::vector<op*> left;
          poll_set::instance().close(left);
          for (op* o : left)
            activate(o);
          for (int r = 0; r < m_size; ++r)
            if (r != m_rank)
              submit(new notice_send(
                  m_ctl, r, k_bye_tag,
                  "bye " + std::to_string(graph_epochs.load(std::memory_order_relaxed))));
          continue;
        }
        const bool sends_pending = std::any_of(m_active.begin(), m_active.end(), [](op* o) {
          return o->survives_fault && !o->background;
        });
        if (m_byes >= m_size - 1 && !sends_pending && m_inbox.load() == nullptr &&
            m_held == nullptr) {
          m_loop_done = true;  // under m_progress_mx: no helper starts a step from here
          return;
        }
      }
      // A graph alive counts as pending for the sleep: other ranks' requests (graphs_alive).
      user_pending = note_user_pending() || graphs_alive.load(std::memory_order_relaxed) > 0;
    }
    if (activity) {
      last = clock::now();
      backoff = std::chrono::microseconds(2);
      continue;
    }
    // Polling, the worker yields between polls: on a machine with more threads than cores a
    // poller that never yields starves the workers whose tasks it would resume.
    // Every locus worker busy (poll_set::workers_busy; poller.hpp says why): no spin, and
    // while requests are pending one sleep until a worker turns idle and wakes us.
    const bool lazy = m_opts.progress == progress_mode::shared && !stopping &&
                      poll_set::instance().workers_busy();
    if (m_opts.progress == progress_mode::dedicated ||
        (!lazy && clock::now() - last < m_opts.spin)) {
      std::this_thread::yield();
      continue;
    }
    auto d = std::chrono::duration_cast<std::chrono::microseconds>(k_idle_poll);
    if (user_pending && lazy) {
      // Until a worker turns idle (it wakes us), or the lazy step: max_sleep, the step a
      // pending message's progress (a rendezvous's next step) may wait; busy_sleep when the
      // workers progress between their graph tasks (lazy_step). Measured: 10 ms steps with
      // nobody else progressing made the distributed Cholesky 40 % slower
      // (docs/benchmarks-mpi.md).
      d = lazy_step();
    } else if (user_pending || stopping) {
      d = backoff;
      backoff = std::min(backoff * 2, m_opts.max_sleep);
    }
    // A request the workers poll must be handed over by its deadline if no worker is idle to
    // do it: wake up then (m_next_deadline: max() when the set is empty; written by this
    // thread only, in adopt_from_workers).
    if (m_direct && m_next_deadline != clock::time_point::max())
      d = std::min(d, std::max(std::chrono::microseconds(1),
                               std::chrono::duration_cast<std::chrono::microseconds>(
                                   m_next_deadline - clock::now())));
    sleep(d, lazy && user_pending);
  }
}

void engine::raise_fault(const std::string& msg, int origin, bool broadcast) {
  if (faulted()) return;
  const std::string text = msg.substr(0, k_fault_max);
  m_fault_msg = text;
  m_fault_origin = origin;
  m_fault_deadline = std::chrono::steady_clock::now() + m_opts.fault_timeout;
  m_faulted.store(true, std::memory_order_release);
  // The requests idle workers poll fail like the others: take them all (poll_set::add sees
  // m_faulted from here on and hands new ones to the inbox, which fails them).
  if (m_direct) {
    std::vector<op*> polled;
    (void)poll_set::instance().take_expired(polled, true);
    for (op* o : polled)
      activate(o);
  }
  if (broadcast)
    for (int r = 0; r < m_size; ++r)
      if (r != m_rank) submit(new notice_send(m_ctl, r, k_fault_tag, text));
  // Every user operation in flight fails now. A receive is cancelled; a send cannot be
  // (MPI_Cancel of a send is deprecated): its request stays, and its completion only frees it.
  for (op* o : m_active) {
    // req is null for the op whose completion raised this fault (poll() is inside it).
    if (o->background || o->survives_fault || o->zombie || o->req == MPI_REQUEST_NULL) continue;
    o->fail(*this, m_fault_msg, m_fault_origin);
    o->zombie = true;
    if (!o->collective) MPI_Cancel(&o->req);
  }
  std::lock_guard lk(m_hooks_mx);
  for (auto& [id, fn] : m_hooks)
    fn(m_fault_msg, m_fault_origin);
}

void engine::fail_local(const std::string& what) {
  submit(new local_fault(what));
}

}  // namespace locus::mpi::detail
