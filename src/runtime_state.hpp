// runtime_state.hpp (private) — what a runtime owns: workers, places, their mailboxes and
// idle-worker bookkeeping, and the victim lists.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <semaphore>
#include <thread>
#include <vector>

#include "locus/config.hpp"
#include "locus/detail/worker.hpp"
#include "locus/ext/scheduler.hpp"
#include "locus/locality/accountant.hpp"
#include "locus/schedule/steal_tree.hpp"
#include "locus/topology.hpp"

namespace locus::detail {

/// A place's mailbox (SLAW section IV): tasks sent from other places, taken FIFO. Rare
/// compared with deque operations, so a mutex suffices; `size` lets idle workers and the
/// sleep protocol look without the lock.
class mailbox {
 public:
  void push(std::uintptr_t item) {
    std::lock_guard lk(m_mutex);
    m_items.push_back(item);
    // seq_cst: pairs with the sleep protocol's seq_cst state update (see place_state).
    m_size.fetch_add(1, std::memory_order_seq_cst);
  }
  bool pop(std::uintptr_t& item) {
    if (m_size.load(std::memory_order_relaxed) == 0) return false;
    std::lock_guard lk(m_mutex);
    if (m_items.empty()) return false;
    item = m_items.front();
    m_items.pop_front();
    m_size.fetch_sub(1, std::memory_order_relaxed);
    return true;
  }
  [[nodiscard]] bool empty_seq_cst() const noexcept {
    return m_size.load(std::memory_order_seq_cst) == 0;
  }

 private:
  std::mutex m_mutex;
  std::deque<std::uintptr_t> m_items;
  std::atomic<std::size_t> m_size{0};
};

/// Idle bookkeeping of an idle domain: the workers that sleep and wake together. Without
/// cross-place stealing a domain is one place; with it, the whole runtime is one domain, since
/// any awake worker may then take work from any place (a place whose workers all sleep must
/// still be woken by another place's backlog). The domain counts how many of its workers are
/// active (running tasks), thieves (awake, looking for work) and asleep, packed in one word so
/// every transition is one atomic step.
///
/// Invariant (no lost wake-ups): while a worker of the domain is active, at least one is a
/// thief or none sleeps. Deque items exist only under active workers (a worker turns thief
/// only with an empty deque), and every thief of the domain may look into every deque of the
/// domain, so work on a deque is always seen by an awake worker.
///  * a thief may sleep unless it is the last thief and some worker is active;
///  * a thief that becomes active and leaves no thief wakes a sleeper;
///  * a mailbox push wakes a sleeper of the mailbox's domain, and a worker going to sleep
///    re-reads the sizes of its domain's mailboxes after its state update (both seq_cst: one
///    of the two sees the other).
class idle_domain {
 public:
  static constexpr std::uint64_t k_active = 1, k_thief = 1ull << 20, k_sleeper = 1ull << 40;
  static constexpr std::uint64_t k_field = (1ull << 20) - 1;

  explicit idle_domain(std::uint64_t workers) : m_workers(workers), m_state(workers * k_thief) {}

  static std::uint64_t active(std::uint64_t s) noexcept { return s & k_field; }
  static std::uint64_t thieves(std::uint64_t s) noexcept { return (s >> 20) & k_field; }
  static std::uint64_t sleepers(std::uint64_t s) noexcept { return (s >> 40) & k_field; }

  void thief_to_active() noexcept {
    const std::uint64_t s =
        m_state.fetch_add(k_active - k_thief, std::memory_order_seq_cst) + k_active - k_thief;
    if (thieves(s) == 0 && sleepers(s) > 0) wake_one();
  }
  void active_to_thief() noexcept {
    m_state.fetch_add(k_thief - k_active, std::memory_order_seq_cst);
  }
  /// A thief asks to sleep; false if it must stay awake (last thief while work runs).
  bool thief_to_sleeper() noexcept {
    std::uint64_t s = m_state.load(std::memory_order_seq_cst);
    do {
      if (thieves(s) == 1 && active(s) > 0) return false;
    } while (!m_state.compare_exchange_weak(s, s - k_thief + k_sleeper, std::memory_order_seq_cst));
    return true;
  }
  /// A thread that registered as a sleeper and has not blocked yet takes the registration back
  /// (one sleeper back to a thief, no permit). False if no sleeper is counted: a waker already
  /// converted one and released a permit, which sleep() then takes without blocking. Either way
  /// the threads about to block stay equal to the sleepers plus the permits.
  bool sleeper_to_thief() noexcept {
    std::uint64_t s = m_state.load(std::memory_order_seq_cst);
    do {
      if (sleepers(s) == 0) return false;
    } while (!m_state.compare_exchange_weak(s, s - k_sleeper + k_thief, std::memory_order_seq_cst));
    return true;
  }
  /// Turn one sleeper into a thief and let it run.
  void wake_one() noexcept {
    std::uint64_t s = m_state.load(std::memory_order_seq_cst);
    do {
      if (sleepers(s) == 0) return;
    } while (!m_state.compare_exchange_weak(s, s - k_sleeper + k_thief, std::memory_order_seq_cst));
    m_sem.release();
  }
  void sleep() { m_sem.acquire(); }
  void wake_all_for_stop() { m_sem.release(static_cast<std::ptrdiff_t>(m_workers)); }
  [[nodiscard]] std::uint64_t sleeping() const noexcept {
    return sleepers(m_state.load(std::memory_order_seq_cst));
  }
  [[nodiscard]] std::uint64_t active_now() const noexcept {
    return active(m_state.load(std::memory_order_seq_cst));
  }

  std::vector<unsigned> places;  ///< the places whose mailboxes this domain's sleepers re-read

 private:
  std::uint64_t m_workers;
  alignas(k_cache_line) std::atomic<std::uint64_t> m_state;
  std::counting_semaphore<> m_sem{0};
};

/// A place (SLAW section IV): its workers, its mailbox, and the idle domain it sleeps in.
struct place_state {
  mailbox mail;
  std::vector<unsigned> workers;  ///< worker indices of this place
  idle_domain* idle = nullptr;    ///< owned by runtime_state::idle_domains
};

/// One worker's steal-tree recording (docs/design/0008, "Recording"): written by that worker
/// alone, at the steals it makes while a phase is traced; read and cleared by the thread that
/// runs the traced phase, before it starts and after it returns (see trace_pickup).
struct alignas(k_cache_line) worker_trace {
  schedule::steal_log log;
  std::uint32_t next_seq = 0;  ///< the worker's sequence number for its next phase
  bool overflow = false;       ///< a record was lost (ids exhausted, no memory): incomplete
};

/// What a traced phase leaves besides the logs: its root phase, written by the worker that
/// picks up the root (once per phase), read after the phase returned.
struct trace_root {
  std::uint32_t worker = 0;
  std::uint32_t seq = 0;
  bool seen = false;
};

struct runtime_state {
  config cfg;  ///< the configuration in force (a scheduler's fixed choices applied)
  /// The scheduler's strategies (locus/ext/scheduler.hpp): who acquires, and the custom spawn
  /// rule (null: the built-in policy of cfg.policy, inline in the spawn).
  std::shared_ptr<ext::acquisition> acquire;
  std::shared_ptr<ext::spawn_rule> spawn;
  /// Locality accounting (config::accounting), or null when off.
  std::unique_ptr<locus::accountant> acct;
  topology topo;
  std::vector<std::unique_ptr<worker>> workers;
  std::vector<std::size_t> core_of;  ///< per worker, its core's index in topo.cores()
  std::vector<unsigned> cpu_of;      ///< per worker, the processor it is pinned to (cfg.pin)
  std::vector<std::unique_ptr<place_state>> places;
  std::vector<std::unique_ptr<idle_domain>> idle_domains;
  /// Per worker, the victims to try in order: tiers of worker indices (nearest first).
  std::vector<std::vector<std::vector<unsigned>>> victim_tiers;
  /// Per worker, other places to look in (their workers' deques and mailboxes), nearest first;
  /// empty unless cross-place stealing is on.
  std::vector<std::vector<unsigned>> remote_places;
  std::atomic<bool> stopping{false};
  /// Steal-tree recording (docs/design/0008): on while a traced phase runs. Read relaxed at
  /// each pickup of work from elsewhere; set before the phase's root is published and cleared
  /// after the phase returned, so every pickup of the phase's work sees it set (the root's
  /// publication and the deques' release/acquire order it before them).
  std::atomic<bool> tracing{false};
  std::atomic<bool> phase_running{false};  ///< a traced or replayed phase is in progress
  std::vector<worker_trace> traces;        ///< per worker
  trace_root traced_root;
  std::vector<std::thread> threads;
};

/// Push a root or remote task into place `p`'s mailbox and wake a sleeper there.
void post_to_place(runtime_state& rt, std::uint32_t p, std::uintptr_t item);

/// The body of each worker thread.
void worker_main(runtime_state& rt, worker& w, unsigned os_cpu, bool pin);

/// Tracing (src/schedule/trace.cpp): worker `w` picked up `f` from another worker (a steal or
/// a donation; `from_worker`) or from a mailbox, while a traced phase runs: start a phase.
void trace_pickup(worker& w, frame& f, bool continuation, bool from_worker) noexcept;

}  // namespace locus::detail
