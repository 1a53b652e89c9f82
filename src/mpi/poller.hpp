// src/mpi/poller.hpp — idle workers progress the rank's pending direct requests (private to the
// mpi module; docs/design/0014-mpi.md, "Idle workers poll").
//
// With direct start (MPI_THREAD_MULTIPLE) a task starts its send or receive itself. One still
// pending after its first MPI_Test used to go to the communication worker at once, which then
// completed it and posted the awaiting frame to its place's pool: two thread hand-offs (the
// communication worker's wake-up, then the task's worker's), each waiting for a core. Now such
// a request started on a locus worker goes to the poll set first, for at most
// `options::worker_poll` plus `worker_poll_per_mib` pro rata of its size (its deadline: a
// large message moves at memory bandwidth once matched, and a hand-over in mid-transfer cost
// 1 MiB ping-pong 20 %, docs/benchmarks-mpi.md 2026-11-26b): a worker whose own deque ran empty
// tests the set (ext::observer::before_idle, installed on the task's runtime by the first such
// request), completes what finished on its own thread (the event's waiter is pushed onto that
// worker's deque when the frame's place is the worker's, ext/ready.hpp) and pops it at once. A
// request still pending at its deadline is handed to the communication worker (op::adopted), by the
// worker that finds it so or, when no worker is idle, by the communication worker itself
// (take_expired, at its next wake-up, which it schedules for the earliest deadline).
//
// The bound ("without spinning a core when nothing is pending"): a worker polls, instead of
// looking for work elsewhere and parking, only while the set holds a request younger than its
// deadline: at most `window(bytes)` after the last request was added. An empty set costs an idle
// worker one relaxed load per before_idle.
//
// Ownership: an op in the set belongs to the set; every MPI call on its request is made under
// `mx` (MPI forbids two threads testing one request at once), and complete() runs under it
// too, so the engine's close() (which takes `mx`) cannot end MPI while a worker is inside. A
// worker only try_locks: one poller at a time suffices, and the others look for work.
//
// Busy workers (docs/design/0014-mpi.md, "The communication worker is lazy while every worker
// computes"): the same observer counts the watched runtimes' idle workers (from on_idle
// `looking` to `found` / `stopping`). While none is idle, the communication worker neither
// spins nor restarts its back-off at 2 µs: a completion could only make a task runnable that
// no worker would run before its current one ends, and on a rank whose workers have all the
// cores its polls and wake-ups are taken from them. It sleeps max_sleep steps instead, and the
// first worker that turns idle wakes it (wake_on_idle below).
//
// One set per process (there is at most one context): the observer installed on a runtime
// refers to the set, not to an engine, so a runtime that outlives its context keeps a valid
// (closed, empty) set to look at.
#pragma once

#include <mpi.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <vector>

namespace locus::mpi::detail {

class engine;
struct op;

class poll_set {
 public:
  using clock = std::chrono::steady_clock;

  /// The process's set.
  static poll_set& instance() noexcept;

  /// The engine opens the set once MPI is up (worker_poll > 0 and direct start) and closes it
  /// before it finalises: then every op still in the set goes to `out` (the engine's to fail).
  void open(engine& e, std::chrono::microseconds worker_poll, std::chrono::microseconds per_mib);
  void close(std::vector<op*>& out);

  /// A task on a worker of runtime `core` (its ext::core_ref as a raw pointer) started `o`, a
  /// message of `bytes`, still pending; its deadline is now + window(bytes). False if the set is
  /// closed or a fault is known: the caller hands it to the communication worker as before. Watches
  /// that runtime.
  bool add(op* o, void* core, std::size_t bytes);

  /// Installs the observer (idle polls, idle counts) on runtime `core` once. Any thread.
  void watch(void* core);
  /// What a watched worker does, from its observer's idle events: `looking` -> idle, `found`
  /// -> busy, `stopping` -> neither (its runtime ends). Counts it, and the first idle worker
  /// wakes a lazily sleeping communication worker. On the worker's thread.
  enum class worker_state : std::uint8_t { unknown, idle, busy };
  void note_state(worker_state s) noexcept;
  /// Some watched worker is busy and none is idle. A worker is counted from its first event
  /// after the observer was installed, and no longer once its runtime stops: with no watched
  /// runtime alive (or none seen working) this is false, and the communication worker keeps
  /// its ordinary back-off.
  [[nodiscard]] bool workers_busy() const noexcept {
    return m_busy.load(std::memory_order_relaxed) > 0 &&
           m_idle.load(std::memory_order_seq_cst) == 0;
  }
  /// The communication worker, under its sleep mutex, before a lazy sleep: asks to be woken by
  /// the next worker that turns idle; false if one is idle already (then it must not sleep
  /// lazily). Dekker's pattern with note_state: this stores the request then reads the count
  /// (seq_cst), a worker raises the count then reads the request (seq_cst): one sees the other.
  bool arm_wake_on_idle() noexcept {
    m_wake_on_idle.store(true, std::memory_order_seq_cst);
    if (m_idle.load(std::memory_order_seq_cst) == 0) return true;
    m_wake_on_idle.store(false, std::memory_order_relaxed);
    return false;
  }
  void disarm_wake_on_idle() noexcept { m_wake_on_idle.store(false, std::memory_order_relaxed); }

  /// An idle worker's poll (before_idle): tests the set once if no other worker is testing it,
  /// completes what finished, hands over what passed its deadline. True while the worker should
  /// pop again: something completed (maybe onto its deque) or a request is within its
  /// deadline.
  bool idle_poll() noexcept;
  /// idle_poll's test of the set's own requests.
  bool poll_requests() noexcept;
  /// A watched worker parks (ext::idle_event::sleeping): counts idle_parks_pending.
  void note_park() noexcept;

  /// The communication worker: ops whose deadline passed (or every op: `all`, for a fault or
  /// the end) go to `out`; the earliest deadline of those left (clock::time_point::max() if
  /// none). Unless `all`: no lock at all before the earliest deadline (a lock taken then made
  /// the polling worker's try_lock fail and park it), then try_lock (a worker testing the set
  /// will hand over what expired).
  clock::time_point take_expired(std::vector<op*>& out, bool all);

  [[nodiscard]] bool empty() const noexcept { return m_size.load(std::memory_order_relaxed) == 0; }
  void set_worker_poll(std::chrono::microseconds d) noexcept {
    m_poll_ns.store(std::chrono::duration_cast<std::chrono::nanoseconds>(d).count(),
                    std::memory_order_relaxed);
  }
  [[nodiscard]] std::chrono::microseconds worker_poll() const noexcept {
    return std::chrono::duration_cast<std::chrono::microseconds>(
        std::chrono::nanoseconds(m_poll_ns.load(std::memory_order_relaxed)));
  }
  void set_worker_poll_per_mib(std::chrono::microseconds d) noexcept {
    m_per_mib_ns.store(std::chrono::duration_cast<std::chrono::nanoseconds>(d).count(),
                       std::memory_order_relaxed);
  }
  /// How long a pending request of `bytes` stays in the set: worker_poll + bytes x
  /// worker_poll_per_mib / MiB; 0 if worker_poll is 0 (polling off). The product in double,
  /// so that no size and rate overflow it.
  [[nodiscard]] std::chrono::nanoseconds window(std::size_t bytes) const noexcept {
    const std::int64_t base = m_poll_ns.load(std::memory_order_relaxed);
    if (base <= 0) return std::chrono::nanoseconds(0);
    const double per_mib = double(m_per_mib_ns.load(std::memory_order_relaxed));
    const double extra = per_mib > 0 ? double(bytes) * per_mib / double(1 << 20) : 0.0;
    return std::chrono::nanoseconds(base + static_cast<std::int64_t>(extra));
  }

  // Counters (relaxed: statistics). Written under mx only (bump_locked), read anywhere.
  std::atomic<std::uint64_t> polls{0};         ///< MPI_Testsome calls by workers
  std::atomic<std::uint64_t> completed{0};     ///< requests completed by workers' polls
  std::atomic<std::uint64_t> handed{0};        ///< requests handed to the communication worker
  std::atomic<std::uint64_t> idle_wakeups{0};  ///< lazy sleeps ended by note_state
  /// comm_stats::idle_steps_pending and idle_parks_pending (options::idle_progress).
  std::atomic<std::uint64_t> idle_steps_pending{0}, idle_parks_pending{0};

 private:
  /// Removes entry i (order does not matter: each op has its own deadline). Under mx.
  void erase(std::size_t i);
  /// Adds `n` to a counter whose only writers hold mx: a load and a store, not a locked
  /// read-modify-write on every poll (readers take a racy snapshot either way).
  static void bump_locked(std::atomic<std::uint64_t>& c, std::uint64_t n) noexcept {
    c.store(c.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
  }
  /// The time poll_requests judges deadlines by. Under mx. A clock read costs about a fifth of
  /// an empty poll here (24 ns of 100-200 ns, docs/benchmarks-mpi.md 2026-11-27b), and while
  /// the set's requests are young its polls come back to back: then the clock is read every
  /// k_clock_polls-th poll (and after a completion), so a deadline is seen at most that many
  /// polls late (a few µs of a window of 100 µs or more). add() refreshes it too.
  clock::time_point poll_clock(bool completed_some) noexcept;
  static constexpr unsigned k_clock_polls = 8;
  clock::time_point m_now{};  ///< the last clock read (under mx)
  unsigned m_clock_skip = 0;  ///< polls left before the next read (under mx)
  /// idle_poll's tail (options::idle_progress; the bound is stated at its definition): after a
  /// step that completed nothing (`did` false) with an awaited receive pending (`window` > 0),
  /// backs off and returns true (step again) until `window` has passed in this idle spell, or
  /// until `done` (requests completed by every thread, read after the step) moves without
  /// this worker's step completing anything.
  bool keep_stepping(bool did, std::chrono::microseconds window, std::uint64_t done) noexcept;

  std::mutex m_mx;
  engine* m_e = nullptr;  ///< null: closed (under mx)
  std::vector<op*> m_ops;
  std::vector<MPI_Request> m_reqs;
  std::vector<clock::time_point> m_deadline;
  std::vector<clock::time_point>
      m_young_until;  ///< start + worker_poll (the size's extension after)
  std::vector<int> m_idx;
  std::vector<MPI_Status> m_st;
  /// m_ops.size(), for the lock-free look of an idle worker. Relaxed: a stale zero only delays
  /// a poll to the next before_idle or to the deadline's hand-over; a stale non-zero costs one
  /// try_lock.
  std::atomic<std::size_t> m_size{0};
  /// The earliest deadline in the set (steady_clock ticks; max when empty), written under mx,
  /// read without it by take_expired: a stale value is early (an op completed since), never
  /// late, since add() lowers it under the lock before the op can expire.
  std::atomic<clock::rep> m_earliest{clock::time_point::max().time_since_epoch().count()};
  [[nodiscard]] clock::time_point earliest() const noexcept {
    return clock::time_point(clock::duration(m_earliest.load(std::memory_order_relaxed)));
  }
  void set_earliest(clock::time_point t) noexcept {
    m_earliest.store(t.time_since_epoch().count(), std::memory_order_relaxed);
  }
  std::atomic<std::int64_t> m_poll_ns{0};
  std::atomic<std::int64_t> m_per_mib_ns{0};
  std::atomic<int> m_idle{0};  ///< idle workers of the watched runtimes
  std::atomic<int> m_busy{0};  ///< busy workers of the watched runtimes
  std::atomic<bool> m_wake_on_idle{false};
  /// The engine, while it is open with direct start: idle workers also make its progress step
  /// (engine::help, which checks options::worker_progress), outside m_mx; m_helpers counts
  /// those inside (idle_poll says the protocol).
  std::atomic<engine*> m_help{nullptr};
  std::atomic<int> m_helpers{0};
};

}  // namespace locus::mpi::detail
