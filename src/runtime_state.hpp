// runtime_state.hpp (private to the core) — what a runtime owns: workers, places, their pools
// and idle-worker bookkeeping, the victim lists, the observers and the phase. Extensions never
// include this file: they see a runtime through locus/ext/ (tests/include_boundary.cmake).
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <semaphore>
#include <string>
#include <thread>
#include <vector>

#include "locus/config.hpp"
#include "locus/detail/worker.hpp"
#include "locus/ext/accounting.hpp"
#include "locus/ext/observer.hpp"
#include "locus/ext/pool.hpp"
#include "locus/ext/scheduler.hpp"
#include "locus/topology.hpp"

namespace locus::detail {

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
///  * a push into a shared pool (ext/pool.hpp: a place's mailbox, a strategy's pool) wakes a
///    sleeper of the pool's domain, and a worker going to sleep re-reads the sizes of every
///    pool watched by its domain after its state update (both seq_cst: one of the two sees
///    the other).
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

  /// Link `p` into the pools this domain's sleepers re-read, and make its pushes wake this
  /// domain. Once per pool. Release: a sleeper that sees the link sees the pool.
  void watch(ext::shared_pool& p) noexcept {
    p.m_domain = this;
    ext::shared_pool* head = m_watched.load(std::memory_order_relaxed);
    do {
      p.m_next_watched = head;
    } while (!m_watched.compare_exchange_weak(head, &p, std::memory_order_release,
                                              std::memory_order_relaxed));
  }
  /// Whether a pool this domain watches holds an item (seq_cst reads: the sleep re-read).
  [[nodiscard]] bool any_watched_nonempty() const noexcept {
    for (const ext::shared_pool* p = m_watched.load(std::memory_order_acquire); p != nullptr;
         p = p->m_next_watched)
      if (!p->empty_seq_cst()) return true;
    return false;
  }
  /// The domain whose sleepers a push into `p` wakes (null: unbound).
  [[nodiscard]] static idle_domain* of(const ext::shared_pool& p) noexcept { return p.m_domain; }

 private:
  std::uint64_t m_workers;
  alignas(k_cache_line) std::atomic<std::uint64_t> m_state;
  std::counting_semaphore<> m_sem{0};
  std::atomic<ext::shared_pool*> m_watched{nullptr};  ///< an intrusive list, only grows
};

/// A place (SLAW section IV): its workers, its mailbox (a shared pool watched by the place's
/// idle domain), and the idle domain it sleeps in.
struct place_state {
  ext::shared_pool mail;
  std::vector<unsigned> workers;  ///< worker indices of this place
  idle_domain* idle = nullptr;    ///< owned by runtime_state::idle_domains
};

/// The observers installed on a runtime (ext/observer.hpp): an immutable list, replaced
/// whole when one is added (under runtime_state::observer_mutex); lists replaced stay alive
/// with the runtime, since a worker may still be iterating one. Observers are never removed,
/// so at most one list per installed observer is ever made.
struct observer_set {
  std::vector<std::shared_ptr<ext::observer>> list;
  std::vector<const void*> keys;
};

struct runtime_state {
  /// Unique per runtime made by this process (an address may be reused; this is not).
  const std::uint64_t id = next_runtime_id();
  static std::uint64_t next_runtime_id() noexcept {
    static std::atomic<std::uint64_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
  }
  config cfg;  ///< the configuration in force (a scheduler's fixed choices applied)
  /// The scheduler's strategies (locus/ext/scheduler.hpp): who acquires, and the custom spawn
  /// rule (null: the built-in policy of cfg.policy, inline in the spawn).
  std::shared_ptr<ext::acquisition> acquire;
  std::shared_ptr<ext::spawn_rule> spawn;
  /// Locality accounting (config::accounting), or null when off (made through ext/accounting).
  ext::accountant_ptr acct;
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
  /// The observers, or null when none is installed (the worker loop's one load and branch at
  /// each point it would call them). Release on install, acquire on every read.
  std::atomic<const observer_set*> observers{nullptr};
  std::vector<std::unique_ptr<observer_set>> observer_sets;  ///< every list made, under the mutex
  std::mutex observer_mutex;
  /// The phase running now (ext::core_ref::begin_phase), or null.
  std::atomic<const ext::phase_info*> phase{nullptr};
  /// Cleared (release) by ~runtime once the workers have stopped. Shared with what may outlive
  /// the runtime (a dataflow graph's state, src/dataflow/graph_state.hpp), which reads it
  /// (acquire) before it would reach the runtime from outside its workers.
  std::shared_ptr<std::atomic<bool>> alive = std::make_shared<std::atomic<bool>>(true);
  std::vector<std::thread> threads;

  // The per-frame strategy slot's owner (ext::core_ref::claim_frame_slot), under slot_mutex.
  std::mutex slot_mutex;
  const void* slot_owner = nullptr;
  std::string slot_owner_name;
};

/// Push a root or remote task into place `p`'s pool and wake a sleeper there.
void post_to_place(runtime_state& rt, std::uint32_t p, std::uintptr_t item);

/// The body of each worker thread.
void worker_main(runtime_state& rt, worker& w, unsigned os_cpu, bool pin);

}  // namespace locus::detail
