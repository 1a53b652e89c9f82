// src/mpi/poller.cpp — the poll set of pending direct requests and the observer through which
// idle workers test it (poller.hpp says why and the bound).
#include "poller.hpp"

#include <algorithm>

#include <memory>
#include <new>
#include <thread>

#include "engine.hpp"
#include "locus/ext/core.hpp"
#include "locus/ext/observer.hpp"

namespace locus::mpi::detail {

namespace {

/// Installed on a runtime by the first pending direct request of one of its workers; stays for
/// the runtime's life (ext/observer.hpp) and only looks at the process's set.
class idle_poller final : public ext::observer {
 public:
  bool before_idle(ext::worker_ref& /*w*/) noexcept override {
    return poll_set::instance().idle_poll();
  }
  void on_idle(ext::worker_ref& /*w*/, ext::idle_event e) noexcept override {
    using st = poll_set::worker_state;
    if (e == ext::idle_event::looking)
      poll_set::instance().note_state(st::idle);
    else if (e == ext::idle_event::found)
      poll_set::instance().note_state(st::busy);
    else if (e == ext::idle_event::stopping)
      poll_set::instance().note_state(st::unknown);
    else if (e == ext::idle_event::sleeping)
      poll_set::instance().note_park();
  }
};

/// How this thread (a worker) is counted in poll_set's m_idle / m_busy. Per thread, so that a
/// state entered before the observer was installed (its event unseen) is not uncounted.
thread_local poll_set::worker_state t_state = poll_set::worker_state::unknown;

constexpr char k_observer_key = 0;  // its address is the observer's key

}  // namespace

poll_set& poll_set::instance() noexcept {
  // Never destroyed (built in static storage, no destructor run at exit): observers of
  // runtimes that outlive everything may still look at it.
  alignas(poll_set) static unsigned char storage[sizeof(poll_set)];
  static poll_set* s = ::new (static_cast<void*>(storage)) poll_set;
  return *s;
}

void poll_set::open(engine& e, std::chrono::microseconds worker_poll,
                    std::chrono::microseconds per_mib) {
  std::lock_guard lk(m_mx);
  m_e = &e;
  m_help.store(e.direct() ? &e : nullptr, std::memory_order_seq_cst);
  set_worker_poll(worker_poll);
  set_worker_poll_per_mib(per_mib);
}

void poll_set::close(std::vector<op*>& out) {
  m_help.store(nullptr, std::memory_order_seq_cst);
  while (m_helpers.load(std::memory_order_acquire) != 0)
    std::this_thread::yield();
  (void)take_expired(out, true);
  std::lock_guard lk(m_mx);
  m_e = nullptr;
}

void poll_set::erase(std::size_t i) {
  const std::size_t last = m_ops.size() - 1;
  m_ops[i] = m_ops[last];
  m_reqs[i] = m_reqs[last];
  m_deadline[i] = m_deadline[last];
  m_young_until[i] = m_young_until[last];
  m_ops.pop_back();
  m_reqs.pop_back();
  m_deadline.pop_back();
  m_young_until.pop_back();
}

bool poll_set::add(op* o, void* core, std::size_t bytes) {
  const auto poll = window(bytes);
  if (poll.count() <= 0) return false;
  {
    std::lock_guard lk(m_mx);
    // A fault is raised (m_faulted stored) before the engine takes everything out of the set
    // under this lock (take_expired(all)): either we see the fault here, or our op is in the
    // set when the engine empties it.
    if (m_e == nullptr || m_e->faulted()) return false;
    m_ops.push_back(o);
    m_reqs.push_back(o->req);
    const auto now = clock::now();
    m_deadline.push_back(now + poll);
    if (now + poll < earliest()) set_earliest(now + poll);
    m_young_until.push_back(now + worker_poll());
    m_now = now;
    m_size.store(m_ops.size(), std::memory_order_relaxed);
  }
  watch(core);
  return true;
}

void poll_set::watch(void* core) {
  ext::core_ref c = ext::core_ref::from_raw(core);
  if (c.find(&k_observer_key) == nullptr)
    (void)c.install_once(&k_observer_key, [] { return std::make_shared<idle_poller>(); });
}

void poll_set::note_state(worker_state s) noexcept {
  if (s == t_state) return;
  if (t_state == worker_state::busy) m_busy.fetch_sub(1, std::memory_order_relaxed);
  if (t_state == worker_state::idle) m_idle.fetch_sub(1, std::memory_order_seq_cst);
  t_state = s;
  if (s == worker_state::busy) m_busy.fetch_add(1, std::memory_order_relaxed);
  if (s != worker_state::idle) return;
  m_idle.fetch_add(1, std::memory_order_seq_cst);  // then read the request (arm_wake_on_idle)
  if (m_wake_on_idle.load(std::memory_order_seq_cst) &&
      m_wake_on_idle.exchange(false, std::memory_order_acq_rel)) {
    std::lock_guard lk(m_mx);  // the engine stays while the set is open (close() takes m_mx)
    if (m_e != nullptr) {
      idle_wakeups.fetch_add(1, std::memory_order_relaxed);
      m_e->wake();
    }
  }
}

bool poll_set::idle_poll() noexcept {
  // options::worker_progress: the idle worker makes the communication worker's progress step
  // too (engine::help: the graphs' imports complete here, and their tasks land on this
  // worker's deque). try_lock only, inside engine::help.
  // Not under m_mx: a completion there may raise a fault, which takes m_mx (take_expired). The
  // engine is kept by m_helpers instead: this thread counts itself, then reads the engine;
  // close() clears it, then waits for the count to fall to 0 (seq_cst both: one sees the
  // other). A helper that finds the communication worker inside its step (close() is called
  // there) fails its try_lock and leaves at once, so that wait is short.
  bool helped = false;
  std::chrono::microseconds window{0};
  std::uint64_t done = 0;
  if (m_help.load(std::memory_order_relaxed) != nullptr) {
    m_helpers.fetch_add(1, std::memory_order_seq_cst);
    if (engine* e = m_help.load(std::memory_order_seq_cst); e != nullptr) {
      bool contended = false;
      helped = e->help(nullptr, &contended);
      // Read while the engine is kept: after the step, whose end set the hint. A step that found
      // another thread progressing keeps the window too: that thread may be starting the
      // import right now (its step's end sets the hint), seen at 4 ranks on 2 cores, where the
      // reader parked after one step with its import in the communication worker's hands.
      if (e->receive_pending() || contended) window = e->idle_progress();
      done = e->completed_count();
    }
    m_helpers.fetch_sub(1, std::memory_order_release);
  }
  const bool did = poll_requests() || helped;
  return keep_stepping(did, window, done + completed.load(std::memory_order_relaxed)) || did;
}

// options::idle_progress. Without it a worker made one step when its deque ran empty, then
// spun and parked (find_work), and a value that landed after that step waited for the
// communication worker's next wake-up (up to max_sleep; busy_sleep while it sleeps lazily) and
// then for the parked worker's wake-up. With it, while an awaited receive is pending (or the
// step found another thread progressing, which may be starting one), the worker stays in
// before_idle ("pop again") and steps again, for at most `window` since its last step that
// completed something. The bound: with nothing pending (help's early return: empty inbox, no
// user request) the window is 0 and the worker parks after one relaxed look, as before; with
// something pending, at most `window` of steps per idle spell, then the park and the
// communication worker, as before. The state is this worker thread's alone (thread_local):
// nothing is shared, nothing to order.
bool poll_set::keep_stepping(bool did, std::chrono::microseconds window,
                             std::uint64_t done) noexcept {
  struct spell {
    bool on = false;
    clock::time_point since{}, last{};
    std::chrono::microseconds gap{1};
    std::uint64_t done = 0;
  };
  thread_local spell t;
  if (did || window.count() <= 0) {
    t.on = false;  // a completion (pop again anyway), or nothing awaited: a new window next
    return false;
  }
  const auto now = clock::now();
  // A spell whose last step is more than a window past is over (another observer's
  // before_idle made work, which ran meanwhile): this is a new one. (A worker preempted that
  // long between two steps also starts anew: at most one window of steps per window off the
  // core, with the back-off below between any two.)
  if (!t.on || now - t.last > window) {
    t = spell{true, now, now, std::chrono::microseconds(1), done};
  } else if (now - t.since >= window || done != t.done) {
    // The window is spent, or another thread completed a request since this worker's last
    // step (the communication worker, another worker's step or poll): the task it made ready
    // waits in a pool, which this loop never looks at (the first version stayed here: such a
    // task waited for the rest of the window). Look for work elsewhere, then park.
    t.on = false;
    return false;
  }
  // Back off between empty steps: the first ones back to back but for a yield (a value in
  // flight lands within microseconds), then sleeps of 16 µs doubling to 256 µs. A sleep leaves
  // the core idle: a version that yielded between all its steps (1 µs doubling to 64 µs) keeps
  // the core busy whether or not anything else runs on it, and the Cholesky at 2 ranks x 1
  // worker on 2 loaded cores was slower with it than with idle_progress 0 in 3 of 3 rounds
  // (docs/benchmarks-mpi.md, 2026-11-27).
  if (t.gap < std::chrono::microseconds(16)) {
    std::this_thread::yield();
    t.gap *= 2;
  } else {
    std::this_thread::sleep_for(t.gap);
    t.gap = std::min(t.gap * 2, std::chrono::microseconds(256));
  }
  t.last = clock::now();
  idle_steps_pending.fetch_add(1, std::memory_order_relaxed);
  return true;
}

void poll_set::note_park() noexcept {
  // The engine is kept as in idle_poll (m_helpers).
  if (m_help.load(std::memory_order_relaxed) == nullptr) return;
  m_helpers.fetch_add(1, std::memory_order_seq_cst);
  if (engine* e = m_help.load(std::memory_order_seq_cst); e != nullptr && e->receive_pending())
    idle_parks_pending.fetch_add(1, std::memory_order_relaxed);
  m_helpers.fetch_sub(1, std::memory_order_release);
}

bool poll_set::poll_requests() noexcept {
  if (m_size.load(std::memory_order_relaxed) == 0) return false;
  std::unique_lock lk(m_mx, std::try_to_lock);
  // Another worker tests the set (or the engine takes from it): this one looks for work.
  if (!lk.owns_lock() || m_e == nullptr || m_ops.empty()) return false;
  engine& e = *m_e;
  const int n = static_cast<int>(m_ops.size());
  m_idx.resize(m_ops.size());
  m_st.resize(m_ops.size());
  int out = 0;
  const int rc = MPI_Testsome(n, m_reqs.data(), &out, m_idx.data(), m_st.data());
  bump_locked(polls, 1);
  bool did = false;
  if (out != MPI_UNDEFINED && out > 0) {
    // Testsome freed the finished requests. Complete them (in the order MPI gave), marking
    // each op's slot, then drop the marked slots from the back so that indices stay valid.
    for (int k = 0; k < out; ++k) {
      const auto i = static_cast<std::size_t>(m_idx[static_cast<std::size_t>(k)]);
      op* o = m_ops[i];
      o->req = MPI_REQUEST_NULL;
      const int err =
          rc == MPI_ERR_IN_STATUS ? m_st[static_cast<std::size_t>(k)].MPI_ERROR : MPI_SUCCESS;
      // A user op never re-posts (only the module's background receives do, and they are not
      // direct), so the op is done here. complete() satisfies the request's event: the awaiting
      // frame goes to this worker's deque if it is of the frame's place, else to its place's
      // pool with a wake-up (ext/ready.hpp).
      (void)o->complete(e, m_st[static_cast<std::size_t>(k)], err);
      delete o;
      m_ops[i] = nullptr;
    }
    bump_locked(completed, static_cast<std::uint64_t>(out));
    for (std::size_t i = m_ops.size(); i-- > 0;)
      if (m_ops[i] == nullptr) erase(i);
    did = true;
  }
  // Hand over what passed its deadline: the communication worker progresses it from here (its
  // submit wakes it if it sleeps), and this worker may go on to park. With nothing left (the
  // common completion: the set held one request) there is no deadline to look at.
  if (m_ops.empty()) {
    set_earliest(clock::time_point::max());
    m_size.store(0, std::memory_order_relaxed);
    return did;  // lk unlocks; nothing pending, so nothing to ease
  }
  const auto now = poll_clock(did);
  bool young = false;
  auto next = clock::time_point::max();
  for (std::size_t i = m_ops.size(); i-- > 0;) {
    if (m_young_until[i] > now) young = true;
    if (m_deadline[i] > now) {
      next = std::min(next, m_deadline[i]);
      continue;
    }
    op* o = m_ops[i];
    erase(i);
    o->adopted = true;
    bump_locked(handed, 1);
    e.submit(o);
  }
  set_earliest(next);
  m_size.store(m_ops.size(), std::memory_order_relaxed);
  // A young request's polls come back to back: the clock may be read every k_clock_polls-th
  // of them. Past that (polls that yield, which may take a time slice each) every time.
  m_clock_skip = young ? k_clock_polls - 1 : 0;
  const bool more = did || !m_ops.empty();
  // Past worker_poll (a large message's extension of its window), an empty poll is followed by
  // a yield: a worker may now poll a large request for milliseconds, and on a rank whose
  // threads share the cores with other ranks this leaves them the core between two polls. (It
  // was first added against a 60 s stall in TSan runs, which it did not cure: the cause was
  // take_expired's lock, below. Its cost, a syscall per poll once a transfer is past
  // worker_poll, was not measured apart.) A young request (all of a small message's window) is
  // polled back to back: its latency is what the polling is for.
  const bool ease = !did && !young && !m_ops.empty();
  lk.unlock();
  if (ease) std::this_thread::yield();
  return more;
}

poll_set::clock::time_point poll_set::poll_clock(bool completed_some) noexcept {
  if (m_clock_skip == 0 || completed_some) {
    m_now = clock::now();
  } else {
    --m_clock_skip;
  }
  return m_now;
}

poll_set::clock::time_point poll_set::take_expired(std::vector<op*>& out, bool all) {
  if (!all && m_size.load(std::memory_order_relaxed) == 0) return clock::time_point::max();
  // Nothing can have expired before the earliest deadline: no lock taken then. The
  // communication worker calls this on every turn of its loop, and its try_lock, when it won,
  // made an idle worker's try_lock fail, so that the only poller of the set went to look for
  // work and parked: the request then waited for its deadline (seen in TSan runs: a 1 MiB
  // receive stalled for a test's 60 s window).
  if (!all) {
    const auto first = earliest();
    if (clock::now() < first) return first;
  }
  std::unique_lock lk(m_mx, std::defer_lock);
  if (all)
    lk.lock();
  else if (!lk.try_lock())
    return clock::now();  // a worker is testing the set: look again soon
  const auto now = clock::now();
  auto earliest = clock::time_point::max();
  for (std::size_t i = m_ops.size(); i-- > 0;) {
    if (all || m_deadline[i] <= now) {
      op* o = m_ops[i];
      erase(i);
      o->adopted = true;
      bump_locked(handed, 1);
      out.push_back(o);
    } else if (m_deadline[i] < earliest) {
      earliest = m_deadline[i];
    }
  }
  set_earliest(earliest);
  m_size.store(m_ops.size(), std::memory_order_relaxed);
  return earliest;
}

}  // namespace locus::mpi::detail
