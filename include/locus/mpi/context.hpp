// locus/mpi/context.hpp — one per process: MPI, the communication worker, faults.
//
//   int main(int argc, char** argv) {
//     locus::mpi::context mpi(argc, argv);          // MPI_Init_thread on the comm worker
//     locus::runtime rt;
//     mpi.run(rt, my_task(mpi.rank()));             // tasks co_await mpi::send / recv / ...
//   }                                               // ~context: every rank leaves together
//
// The communication worker is one thread per rank that makes every MPI call of the module
// (docs/design/0014-mpi.md). It initialises MPI itself, asking for MPI_THREAD_FUNNELED, so the
// module works with an MPI that offers no more; when the program initialised MPI already, it
// needs MPI_THREAD_SERIALIZED or MULTIPLE (its calls come from another thread than main's).
// With MULTIPLE the module still funnels its own calls to the one thread (the requests it
// progresses together with MPI_Testsome are cheapest there); the program may call MPI from
// any thread on its own communicators: the module talks on duplicates of MPI_COMM_WORLD, so
// its messages never match the program's.
//
// Direct start: with options::direct (the default) the context asks MPI for
// MPI_THREAD_MULTIPLE; when it gets it (or the program's MPI has it), a task's send and recv
// call MPI_Isend / MPI_Irecv and one MPI_Test on the task's own thread: an operation done at
// once (an eager send, a message already there) completes without the communication worker.
// One still pending is polled by the runtime's idle workers (a worker with nothing to run tests
// it and resumes the task itself) for at most options::worker_poll (plus worker_poll_per_mib
// per MiB of the message), then handed to the
// communication worker to progress. Collectives and every operation of an
// MPI without MULTIPLE are funneled as below. Two sends of one task keep MPI's order either way
// (all of one rank's point-to-point starts take the same path).
//
// Progress: the worker starts what tasks submit and completes it with MPI_Testsome. With
// progress_mode::shared (the default, for ranks that use every core for workers) it polls for
// `spin` after the last activity, then sleeps in growing steps up to `max_sleep` while requests
// are pending, and without limit when none is (a submission wakes it at once): an idle rank
// burns no CPU. While every worker of the watched runtimes (watch(), run()) computes it does not
// spin and sleeps max_sleep steps, woken by the first worker that turns idle; busy_sleep steps
// while the workers progress between their graph tasks (options::worker_progress, with
// MULTIPLE: after each dist_graph task; their steps when idle do not count, as fork/join tasks
// make none).
// progress_mode::dedicated polls without sleeping (yielding between polls): the lowest latency
// when it has a core of its own (config::workers = cores per rank - 1), a core spent even when
// idle.
//
// Faults: an exception that leaves run() on one rank is sent to every rank; there, operations
// in flight and every later one fail with locus::mpi::error("locus::mpi: rank R failed: ..."),
// distributed graphs stop, and run() throws that error even if the local task succeeded. A rank
// that knows of a fault ends within `fault_timeout`: at once if every rank reaches ~context
// (then MPI_Finalize), else by MPI_Abort, which ends the whole job. The job never hangs on a
// fault.
#pragma once

#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "locus/mpi/error.hpp"
#include "locus/runtime.hpp"
#include "locus/task.hpp"

namespace locus::mpi {

enum class progress_mode : std::uint8_t {
  shared,     ///< poll briefly after activity, then sleep (default)
  dedicated,  ///< poll continuously: owns a core
};

struct options {
  progress_mode progress = progress_mode::shared;
  /// shared: how long to keep polling after the last submission or completion.
  std::chrono::microseconds spin{200};
  /// shared: the longest sleep while requests are pending (the back-off doubles up to it).
  std::chrono::microseconds max_sleep{500};
  /// How long a rank that knows of a fault waits for every rank to reach ~context before it
  /// ends the job with MPI_Abort.
  std::chrono::milliseconds fault_timeout{10000};
  /// Point-to-point operations started by the task itself (see "Direct start" above): used when
  /// MPI offers MPI_THREAD_MULTIPLE; the context asks for it when it initialises MPI.
  bool direct = true;
  /// Direct start: how long a request a task started on a locus worker, and still pending,
  /// is left to that runtime's idle workers to poll (a worker whose deque ran empty tests it
  /// and resumes the awaiting task itself) before it goes to the communication worker. An
  /// idle worker polls instead of parking only while such a request is younger than this.
  /// 0: pending requests go to the communication worker at once.
  std::chrono::microseconds worker_poll{100};
  /// Direct start: added to worker_poll per MiB of the message (pro rata), so that a large
  /// message, which takes its size over the memory bandwidth to move once matched, is not
  /// handed over in mid-transfer (the hand-over costs the communication worker's wake-up and
  /// the frame's trip through its place's pool). 1000 µs per MiB (a floor of ~1 GB/s): a
  /// 1 MiB request is polled up to 1.1 ms, an 8-byte one 100 µs. 0: worker_poll for every size.
  std::chrono::microseconds worker_poll_per_mib{1000};
  /// Direct start: a locus worker progresses the communication worker's requests itself at
  /// the points where it is free anyway (docs/design/0014-mpi.md, "Workers progress between
  /// graph tasks"): after each dist_graph task (and the export of an owned value, whose sends
  /// it posts at once) and when its deque runs empty, one progress step (the inbox, then
  /// MPI_Testsome over the requests) if no other thread is progressing. The communication
  /// worker then sleeps `busy_sleep` steps instead of `max_sleep` while every worker computes
  /// and a worker stepped at a graph task's end (not when idle) within the last `busy_sleep`.
  /// false: only the communication worker progresses (as before 2026-11-26d).
  bool worker_progress = true;
  /// worker_progress: the communication worker's sleep step while every worker computes and
  /// workers progress between tasks (above): how late a pending message moves on if no graph
  /// task ends meanwhile.
  std::chrono::microseconds busy_sleep{2000};
  /// worker_progress: how long a worker whose deque ran empty keeps making progress steps
  /// while a receive that this rank's tasks wait on (a dist_graph import, a recv) is pending,
  /// before it looks for work elsewhere and parks (docs/design/0014-mpi.md, "Idle workers
  /// step while a receive is pending"). Between two steps that completed nothing it backs off
  /// (a yield for the first four, then sleeps of 16 µs doubling to 256 µs); a step that
  /// completes something starts the window again, and a completion by another thread (its
  /// task waits in a pool) ends it. With no such receive pending it makes one step, then looks
  /// for work and parks, as before. 0 (the default): one step, then it looks for work. Off by
  /// default because it was measured slower: the Cholesky at 2 ranks x 1 worker on 2 loaded
  /// cores took longer with 2000 than with 0 in every interleaved round, and the latency of a
  /// remote tile did not move (docs/benchmarks-mpi.md, 2026-11-27).
  std::chrono::microseconds idle_progress{0};
};

namespace detail {
class engine;
struct completion;
}  // namespace detail

/// Counters of the communication worker (racy snapshot while it runs).
struct comm_stats {
  std::uint64_t started = 0;    ///< submissions started (user and the module's own)
  std::uint64_t completed = 0;  ///< MPI requests MPI_Testsome found complete
  std::uint64_t polls = 0;      ///< MPI_Testsome calls
  std::uint64_t sleeps = 0;     ///< times the worker slept
  std::uint64_t cpu_ns = 0;     ///< CPU time the communication worker's thread used so far
  // Direct start, options::worker_poll: pending requests polled by idle locus workers.
  std::uint64_t worker_polls = 0;      ///< MPI_Testsome calls made by idle workers
  std::uint64_t worker_completed = 0;  ///< requests completed by them
  /// Requests still pending at their deadline (or at a fault, or the end): handed to the
  /// communication worker.
  std::uint64_t handed_over = 0;
  // Busy workers (context::watch): sleeps taken while every watched worker was busy, and
  // wake-ups of such a sleep by a worker that turned idle.
  std::uint64_t lazy_sleeps = 0;
  std::uint64_t idle_wakeups = 0;
  // options::worker_progress: progress steps made by locus workers (between dist_graph tasks,
  // or idle) and the requests they completed; these requests are part of `completed` too.
  std::uint64_t worker_steps = 0;
  std::uint64_t worker_step_completed = 0;
  /// The steps workers tried: something was pending, so the worker tried the progress lock;
  /// `worker_steps` of them got it (the others found another thread progressing).
  std::uint64_t worker_step_tries = 0;
  /// Of those tries, the ones made only because a dist_graph was alive (other ranks' requests
  /// for its values), nothing else pending: at most one per 100 µs.
  std::uint64_t worker_graph_step_tries = 0;
  /// options::idle_progress: steps an idle worker made again after one that completed
  /// nothing, because a receive the rank's tasks wait on was pending (0 with idle_progress 0).
  std::uint64_t idle_steps_pending = 0;
  /// Idle workers that parked (ext::idle_event::sleeping) while such a receive was pending:
  /// its completion is then the communication worker's, and the task's trip to the parked
  /// worker a wake-up. Counted with direct start only.
  std::uint64_t idle_parks_pending = 0;
  /// dist_graph values received as one message (the reader declared their size) and as a
  /// header then the bytes (it did not).
  std::uint64_t values_one_message = 0;
  std::uint64_t values_with_header = 0;
};

/// One value of a dist_graph crossing ranks, as one rank saw it (context::trace_values).
/// Times are steady_clock nanoseconds: CLOCK_MONOTONIC on Linux, one clock for every process of
/// a host, so the owner's and the reader's records of one value join (ranks of one host only).
struct value_trace {
  std::uint64_t epoch = 0, key = 0;
  int peer = -1;           ///< export: the rank the value went to; import: its owner
  bool is_export = false;  ///< recorded by the owner (a send) or by the reader (a receive)
  /// export: the export task handed the value over (the tile final, its event fired);
  /// import: the request posted (the rank asked for the key).
  std::int64_t t_first = 0;
  /// export: the value's send posted (MPI_Isend); import: its bytes received.
  std::int64_t t_mid = 0;
  /// export: the send complete (the sender saw it end); import: the event satisfied (the
  /// task that waited only for it is ready).
  std::int64_t t_last = 0;
  /// export: when this rank took the asker's request from MPI (its progress step saw it).
  std::int64_t t_request = 0;
  /// Which thread made t_mid / t_last: the communication worker (true) or a locus worker.
  bool mid_on_comm = false, last_on_comm = false;
};

class context {
 public:
  /// Starts the communication worker, which initialises MPI (or adopts the program's MPI, see
  /// the top of this file). Throws locus::mpi::error if MPI cannot be used; std::logic_error if
  /// another context exists in this process.
  context(int& argc, char**& argv, options o = {});
  explicit context(options o = {});
  /// Leaves with every other rank (see Faults above), then MPI_Finalize if the context
  /// initialised MPI. Never throws.
  ~context();
  context(const context&) = delete;
  context& operator=(const context&) = delete;

  /// The process's context; throws locus::mpi::error if there is none.
  [[nodiscard]] static context& current();

  [[nodiscard]] int rank() const noexcept;
  [[nodiscard]] int size() const noexcept;
  /// User tags are in [0, tag_limit()): MPI_TAG_UB + 1 of the module's communicator.
  [[nodiscard]] int tag_limit() const noexcept;
  [[nodiscard]] const options& opts() const noexcept;
  /// Tasks start their point-to-point operations themselves (Direct start above).
  [[nodiscard]] bool direct() const noexcept;

  /// rt.run(t); if it throws, every other rank is told (unless the error came from another
  /// rank) and the exception is rethrown. If another rank failed meanwhile, throws its error.
  template <class T>
  T run(locus::runtime& rt, locus::task<T> t) {
    watch(rt);
    try {
      if constexpr (std::is_void_v<T>) {
        rt.run(std::move(t));
        check_peers();
      } else {
        T v = rt.run(std::move(t));
        check_peers();
        return v;
      }
    } catch (...) {
      report(std::current_exception());
      throw;
    }
  }

  /// Tells every rank that this one failed with `what` (once; later calls do nothing).
  void fail(const std::string& what);
  /// True once a fault (here or on another rank) is known.
  [[nodiscard]] bool faulted() const noexcept;
  /// Throws the fault's locus::mpi::error if one is known.
  void check_peers() const;

  /// Runs `fn` on the communication worker and waits for it: raw MPI calls (interoperation,
  /// benchmarks' baselines). Progress of other operations stops while it runs. Off the workers
  /// only. Rethrows what fn throws.
  void call(const std::function<void()>& fn);

  [[nodiscard]] comm_stats stats() const noexcept;
  /// Counts `rt`'s idle workers from now on (once per runtime; run() and dist_graph do it):
  /// while every worker of the runtimes watched is busy, the communication worker of
  /// progress_mode::shared does not spin and sleeps max_sleep steps, woken by the first worker
  /// that turns idle (docs/design/0014-mpi.md).
  void watch(locus::runtime& rt);
  /// Changes options::worker_poll for requests started from now on (tests, benchmarks).
  void set_worker_poll(std::chrono::microseconds d) noexcept;
  /// Changes options::worker_poll and worker_poll_per_mib for requests started from now on.
  void set_worker_poll(std::chrono::microseconds d, std::chrono::microseconds per_mib) noexcept;
  /// Changes options::idle_progress from now on (tests, benchmarks).
  void set_idle_progress(std::chrono::microseconds d) noexcept;
  /// Changes options::worker_progress and busy_sleep from now on (tests, benchmarks).
  void set_worker_progress(bool on, std::chrono::microseconds busy_sleep) noexcept;
  /// Records every dist_graph value this rank sends or receives from now on (value_trace;
  /// off by default): a few clock reads per value, kept by whichever thread progresses (under
  /// the progress step's own lock, no other), for locus-mpi-bench --lat.
  void trace_values(bool on) noexcept;
  /// The records so far (emptied); a send still in flight is recorded when it completes.
  [[nodiscard]] std::vector<value_trace> take_value_traces();
  [[nodiscard]] detail::engine& impl() noexcept { return *m_e; }

 private:
  void report(std::exception_ptr e) noexcept;
  std::unique_ptr<detail::engine> m_e;
};

}  // namespace locus::mpi
