// src/mpi/engine.hpp — the communication worker (private to the mpi module).
//
// One thread per rank makes every MPI call of the module. Other threads hand it operations
// through `m_inbox`, a Treiber stack of `op`s (push: CAS with release, so the op's fields are
// published; the worker takes the whole stack with an acquire exchange and reverses it, so ops
// start in submission order: two sends of one task keep MPI's non-overtaking order).
//
// The worker's loop: start what arrived, MPI_Testsome over the active requests, complete what
// finished (an op's complete() satisfies a dataflow event, which makes the awaiting task
// runnable through its place's mailbox), then, in progress_mode::shared, poll on for
// `spin`, then sleep in doubling steps up to `max_sleep` while user requests are pending or a
// dist_graph of this rank is alive (other ranks' requests for its values arrive then), or up
// to k_idle_poll when only the module's other background receives (faults, goodbyes) are. A
// submission wakes a sleeping worker at once (the sleep protocol is at engine::sleep).
//
// Workers step (options::worker_progress, engine_step.cpp): under MPI_THREAD_MULTIPLE that
// step (the inbox, MPI_Testsome, completions) is made under m_progress_mx, by the
// communication worker or by a locus worker between two dist_graph tasks or when idle
// (engine::help, try_lock); what the comments below call "the worker" is whoever holds it.
//
// Ownership: an op belongs to the engine from submit() until complete() or fail() returned
// false/was called, then the engine deletes it. complete() may re-post (background receives):
// it returns true and the op stays active.
#pragma once

#include <mpi.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "locus/mpi/context.hpp"
#include "locus/mpi/ops.hpp"

namespace locus::mpi::detail {

class engine;
struct graph_service;

struct op {
  virtual ~op() = default;
  /// Starts the MPI operation: sets `req`, or leaves it MPI_REQUEST_NULL if the op finished in
  /// start() (it then reported its own result). Returns an MPI error code.
  virtual int start(engine& e) = 0;
  /// `req` completed: `err` is MPI_SUCCESS or the request's error. True: re-posted, keep it.
  virtual bool complete(engine& e, const MPI_Status& st, int err) = 0;
  /// The op will not complete: `why`, first seen on rank `origin`.
  virtual void fail(engine& e, const std::string& why, int origin) = 0;

  op* next = nullptr;
  MPI_Request req = MPI_REQUEST_NULL;
  bool background = false;      ///< a module receive that is always posted: does not keep polling
  bool survives_fault = false;  ///< still started after a fault (fault notices, goodbyes)
  bool zombie = false;          ///< failed by a fault while in MPI: completion only frees it
  /// A nonblocking collective (a graph's fence): MPI forbids MPI_Cancel and MPI_Request_free
  /// on it, so a fault leaves it in flight (a zombie), and one still in flight at the end is
  /// left to MPI_Finalize, its op (which holds the buffers) never freed.
  bool collective = false;
  /// Started on a task's thread (engine::direct()): `req` is live when it is submitted, and
  /// start() only hands it over.
  bool adopted = false;
  /// Started on the communication worker only (context::call: the program's MPI calls, which
  /// may block): a locus worker's progress step (engine::help) stops at it.
  bool comm_thread_only = false;
  /// A receive a task of this rank waits on (a user recv, a dist_graph import): while one is
  /// pending an idle worker keeps stepping (options::idle_progress).
  bool awaited = false;
};

/// Completes a request: the error (if any) is written before the event fires, whose release
/// publishes it to the awaiting task; `finished` (release) then publishes both to wait(). The
/// completion is kept alive by the caller's reference until this returns.
inline void deliver(completion& c, const status& s, std::string error, int origin) {
  c.error = std::move(error);
  c.error_origin = origin;
  c.done.satisfy(s);
  c.finished.store(true, std::memory_order_release);
  c.finished.notify_all();
}

/// Worker thread: rank `from` ended after creating `graphs` dist_graphs (dist_graph.cpp).
void graph_peer_left(engine& e, int from, std::uint64_t graphs);

/// "rank R: MPI error: <MPI_Error_string>" for `code`.
[[nodiscard]] std::string mpi_error_text(int code);

class engine {
 public:
  engine(int* argc, char*** argv, const options& o);
  ~engine();

  /// Hands `o` to the worker (any thread). The engine owns it from here.
  void submit(op* o);
  /// Wakes the worker if it sleeps (any thread).
  void wake();

  // Workers progress (options::worker_progress; docs/design/0014-mpi.md, "Workers progress
  // between graph tasks"). Under MPI_THREAD_MULTIPLE any thread may make the communication
  // worker's progress step (start what is in the inbox, MPI_Testsome over the active requests,
  // complete what finished) while it holds m_progress_mx: the communication worker holds it for
  // every step of its own, so the step's state (m_active, m_reqs, the graph service, the held
  // ops) has one owner at a time, and no two threads test one request.
  /// A locus worker between two graph tasks, or idle: one progress step if direct start and
  /// worker_progress are on and no other thread is progressing (try_lock: it never waits).
  /// True if it started or completed something; `*ran` (if given): whether it took the lock;
  /// `*contended` (if given): something was pending but another thread held the lock.
  bool help(bool* ran = nullptr, bool* contended = nullptr) noexcept;
  /// help() where a graph task ends (dist_graph's worker_step; an owned value's export, by
  /// submit_and_help): a step made there marks the workers as stepping between their tasks
  /// (m_last_task_step), which lets the communication worker sleep busy_sleep steps
  /// (lazy_step). An idle worker's step (poll_set) does not mark: that worker is about to
  /// compute again, and fork/join tasks make no steps (before 2026-11-27f it did, and a
  /// fork/join program's step-start idle step stretched the sleeps to busy_sleep while its
  /// halo exchange waited on a rendezvous: docs/design/0014-mpi.md, "The lazy step").
  bool help_between_tasks(bool* ran = nullptr) noexcept;
  /// submit(o), then help_between_tasks(): a worker that starts its own op does not wake the
  /// communication worker; if the step could not run, the ordinary wake-up (submit's) follows.
  void submit_and_help(op* o);
  /// How long an idle worker keeps stepping while an awaited receive is pending
  /// (options::idle_progress; poll_set::idle_poll): 0 unless direct start and worker_progress
  /// are on, since only then does a worker step at all.
  [[nodiscard]] std::chrono::microseconds idle_progress() const noexcept {
    return m_direct && m_worker_progress.load(std::memory_order_relaxed)
               ? std::chrono::microseconds(m_idle_progress_us.load(std::memory_order_relaxed))
               : std::chrono::microseconds(0);
  }
  void set_idle_progress(std::chrono::microseconds d) noexcept {
    m_idle_progress_us.store(d.count(), std::memory_order_relaxed);
  }
  /// An awaited receive (op::awaited) was left pending at the end of the last step (relaxed: a
  /// hint, like m_user_pending; a stale true costs an idle worker steps within its window, a
  /// stale false its park, i.e. the behaviour before idle_progress).
  [[nodiscard]] bool receive_pending() const noexcept {
    return m_recv_pending.load(std::memory_order_relaxed);
  }
  /// Requests completed so far by every thread's steps (relaxed: a count; idle_poll compares
  /// two reads to see whether another thread completed something).
  [[nodiscard]] std::uint64_t completed_count() const noexcept {
    return m_completed.load(std::memory_order_relaxed);
  }
  void set_worker_progress(bool on, std::chrono::microseconds busy_sleep) noexcept {
    m_worker_progress.store(on, std::memory_order_relaxed);
    m_busy_sleep_us.store(busy_sleep.count(), std::memory_order_relaxed);
  }

  // Tracing of graph values (context::trace_values). `traces` is written by the ops' start()
  // and complete(), so under m_progress_mx like the rest of a step's state; take_traces()
  // takes that lock. tracing() is a relaxed hint: a value in flight when it changes may be
  // recorded partly (its fields 0).
  void set_tracing(bool on) noexcept { m_tracing.store(on, std::memory_order_relaxed); }
  [[nodiscard]] bool tracing() const noexcept { return m_tracing.load(std::memory_order_relaxed); }
  [[nodiscard]] bool on_comm_thread() const noexcept {
    return std::this_thread::get_id() == m_comm_id.load(std::memory_order_relaxed);
  }
  [[nodiscard]] static std::int64_t now_ns() noexcept {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  std::vector<value_trace> traces;
  /// comm_stats' counts of graph values received, by path (relaxed: counts).
  std::atomic<std::uint64_t> values_one_message{0}, values_with_header{0};
  std::vector<value_trace> take_traces();

  [[nodiscard]] int rank() const noexcept { return m_rank; }
  [[nodiscard]] int size() const noexcept { return m_size; }
  [[nodiscard]] int tag_limit() const noexcept { return m_tag_limit; }
  [[nodiscard]] const options& opts() const noexcept { return m_opts; }
  /// Point-to-point operations start on the caller's thread (MPI_THREAD_MULTIPLE and
  /// options::direct; context.hpp). Fixed once the engine is constructed.
  [[nodiscard]] bool direct() const noexcept { return m_direct; }
  [[nodiscard]] MPI_Comm user_comm() const noexcept { return m_user; }
  [[nodiscard]] MPI_Comm graph_req_comm() const noexcept { return m_graph_req; }
  [[nodiscard]] MPI_Comm graph_val_comm() const noexcept { return m_graph_val; }

  // Faults.
  /// This rank failed: tell every rank (from any thread; once).
  void fail_local(const std::string& what);
  [[nodiscard]] bool faulted() const noexcept { return m_faulted.load(std::memory_order_acquire); }
  /// The fault's message and origin; valid once faulted() returned true.
  [[nodiscard]] const std::string& fault_message() const noexcept { return m_fault_msg; }
  [[nodiscard]] int fault_origin() const noexcept { return m_fault_origin; }
  /// Worker thread: record a fault (local: broadcast it), fail every user op, run the hooks.
  void raise_fault(const std::string& msg, int origin, bool broadcast);
  /// Called on the worker when a fault becomes known (already known: called at once, here).
  /// Returns an id for remove_fault_hook.
  int add_fault_hook(std::function<void(const std::string&, int)> fn);
  void remove_fault_hook(int id);

  /// Rank `from` said goodbye (its context ended) after creating `graphs` dist_graphs.
  void note_bye(int from, std::uint64_t graphs);
  [[nodiscard]] comm_stats stats() const noexcept;
  /// Worker thread only: an op started a request outside start() (a follow-up receive).
  void activate(op* o);

  /// Distributed graphs' state on this rank (src/mpi/dist_graph.cpp): made by the first graph
  /// operation; worker thread only.
  std::shared_ptr<graph_service> graphs;
  /// dist_graph creation (any thread, under graph_seq_mx): the epochs handed out so far and the
  /// hash of the sequence of their creation sites (dist_graph.cpp). graph_epochs is also read
  /// by the worker for its goodbye (relaxed: a count it reports, ordered by nothing else).
  std::mutex graph_seq_mx;
  std::uint64_t graph_seq_hash = 0;
  std::atomic<std::uint64_t> graph_epochs{0};
  /// dist_graphs of this rank alive (created, not yet destroyed) with more than one rank: while
  /// one is, other ranks' requests for its values may come (the graph service's background
  /// receive), so the rank keeps stepping with nothing of its own pending: a worker's help()
  /// at most every k_graph_step, the communication worker in max_sleep steps instead of
  /// k_idle_poll (requests seen up to 10 ms late delayed a Cholesky's first tiles by as much,
  /// 2026-11-27d). Relaxed: a hint, like m_user_pending; the creation's own op (graph_open)
  /// wakes a step anyway.
  std::atomic<int> graphs_alive{0};
  /// With nothing else pending and a graph alive, a worker's help() steps at most this often.
  static constexpr std::chrono::microseconds k_graph_step{100};
  static constexpr std::int64_t k_graph_step_ticks =
      std::chrono::duration_cast<std::chrono::steady_clock::duration>(k_graph_step).count();
  /// steady_clock ticks of the last such step tried (whether or not it got the lock; relaxed:
  /// two workers may both try in one period, which costs a try_lock).
  std::atomic<std::int64_t> m_last_graph_try{0};
  std::atomic<std::uint64_t> m_worker_graph_step_tries{0};

 private:
  void thread_main(int* argc, char*** argv);
  void init_mpi(int* argc, char*** argv);
  void loop();
  /// Under m_progress_mx. Starts the inbox's ops in submission order (after the held ones).
  /// `helper` (a locus worker): stops at the first comm_thread_only op and holds it and every
  /// later op for the communication worker (m_held; wakes it).
  bool drain_inbox(bool helper = false);
  /// Under m_progress_mx: one MPI_Testsome over m_active, completing what finished.
  bool poll();
  /// Starts one op taken from the inbox (drain_inbox's body).
  void start_op(op* o);
  /// Pushes `o` on the inbox; true if the communication worker was seen asleep.
  bool push(op* o);
  /// Whether the communication worker's lazy sleep may be busy_sleep long: a worker helped
  /// within the last busy_sleep.
  [[nodiscard]] std::chrono::microseconds lazy_step() const noexcept;
  /// Sleeps up to `d` unless an op arrived. `lazy`: only while every locus worker is busy
  /// (poll_set::arm_wake_on_idle), and woken by the first that turns idle.
  void sleep(std::chrono::microseconds d, bool lazy);
  /// Takes the direct requests whose deadline for the workers' polls passed (poller.hpp) into
  /// m_active, and notes the earliest deadline left in m_next_deadline.
  void adopt_from_workers();
  void shutdown_mpi() noexcept;
  [[noreturn]] void abort_job() noexcept;

  options m_opts;
  int m_rank = -1, m_size = 0, m_tag_limit = 0;
  bool m_owns_mpi = false;
  bool m_direct = false;
  MPI_Comm m_user = MPI_COMM_NULL, m_ctl = MPI_COMM_NULL, m_graph_req = MPI_COMM_NULL,
           m_graph_val = MPI_COMM_NULL;

  std::atomic<op*> m_inbox{nullptr};
  /// Serialises progress steps (the communication worker's and the helping workers').
  std::mutex m_progress_mx;
  /// Ops a helper took from the inbox but left to the communication worker (the first
  /// comm_thread_only op and all after it, in submission order). Under m_progress_mx; started
  /// before anything newer. m_held_flag mirrors "m_held is not empty" for the sleep check
  /// (seq_cst, the same Dekker pattern as the inbox: engine::sleep).
  op* m_held = nullptr;
  op* m_held_tail = nullptr;
  std::atomic<bool> m_held_flag{false};
  /// Set by the communication worker under m_progress_mx when it leaves its loop (MPI is about
  /// to end): help() does nothing from then on.
  bool m_loop_done = false;
  std::atomic<bool> m_worker_progress{true};
  std::atomic<bool> m_tracing{false};
  /// The communication worker's thread id, stored by itself first thing (relaxed: compared
  /// with the caller's own id only; a thread never sees its own id stale).
  std::atomic<std::thread::id> m_comm_id{};
  std::atomic<std::int64_t> m_busy_sleep_us{2000};
  /// options::idle_progress (relaxed: a setting read by idle workers, nothing published).
  std::atomic<std::int64_t> m_idle_progress_us{0};
  /// steady_clock ticks of the last help_between_tasks() that got the lock (relaxed: a hint
  /// for the sleep length, nothing is published through it).
  std::atomic<std::int64_t> m_last_task_step{0};
  std::atomic<std::uint64_t> m_worker_steps{0}, m_worker_step_completed{0}, m_worker_step_tries{0};
  /// At the end of the last step: a user request (not a background receive, not a zombie) or a
  /// held op was left. With an empty inbox, help() takes no lock and makes no MPI call unless it
  /// is set (an idle worker polling a ping-pong's receive would otherwise test the module's
  /// background receives on every turn). Relaxed: a hint; a stale value costs one useless step
  /// or leaves the request to the next step (the communication worker's at the latest).
  std::atomic<bool> m_user_pending{false};
  /// The same hint for awaited receives alone (receive_pending()); set with m_user_pending.
  std::atomic<bool> m_recv_pending{false};
  /// Under m_progress_mx: sets m_user_pending (and m_recv_pending) from m_active and m_held;
  /// returns m_user_pending.
  bool note_user_pending() noexcept;
  std::atomic<bool> m_sleeping{false};
  std::mutex m_sleep_mx;
  std::condition_variable m_sleep_cv;

  // Worker thread only.
  std::vector<op*> m_active;
  std::vector<MPI_Request> m_reqs;
  std::vector<int> m_indices;
  std::vector<MPI_Status> m_statuses;
  std::vector<op*> m_taken;  ///< adopt_from_workers' scratch
  std::chrono::steady_clock::time_point m_next_deadline =
      std::chrono::steady_clock::time_point::max();
  int m_byes = 0;
  bool m_bye_sent = false;
  std::chrono::steady_clock::time_point m_fault_deadline{};

  // Faults: the message and origin are written once, before m_faulted's release store.
  std::atomic<bool> m_faulted{false};
  std::string m_fault_msg;
  int m_fault_origin = -1;
  std::mutex m_hooks_mx;
  std::map<int, std::function<void(const std::string&, int)>> m_hooks;
  int m_next_hook = 0;

  std::atomic<bool> m_stop{false};  ///< ~engine asked the worker to leave
  std::atomic<std::uint64_t> m_started{0}, m_completed{0}, m_polls{0}, m_sleeps{0},
      m_lazy_sleeps{0};

  // Start-up handshake: the worker initialises MPI, then reports here.
  std::mutex m_init_mx;
  std::condition_variable m_init_cv;
  bool m_init_done = false;
  std::string m_init_error;
  std::atomic<bool> m_finalized{false};

  std::thread m_thread;
};

}  // namespace locus::mpi::detail
