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

#include "idle_domain.hpp"
#include "locus/config.hpp"
#include "locus/detail/worker.hpp"
#include "locus/ext/accounting.hpp"
#include "locus/ext/observer.hpp"
#include "locus/ext/pool.hpp"
#include "locus/ext/scheduler.hpp"
#include "locus/topology.hpp"

namespace locus::detail {

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
  /// The idle domains (idle_domain.hpp): one per place, one for all with cross-place stealing,
  /// or the scheduler's own (ext::scheduler::idle_domains). A place lies in one domain.
  std::vector<std::unique_ptr<idle_domain>> idle_domains;
  std::vector<unsigned> domain_of;    ///< per worker, its idle domain's index
  std::vector<unsigned> domain_slot;  ///< per worker, its slot among its domain's members
  /// The custom scheduler's idle domains (ext::scheduler::idle_domains), or empty; its name.
  ext::domain_function domain_fn;
  std::shared_ptr<ext::iteration_hooks> iterations;  ///< the custom scheduler's, or null
  std::string custom_name;
  /// locus::iterate's records since start or the last reset (runtime::stats()), the latest
  /// k_iteration_records_kept of them; written by the thread that runs iterate, between runs
  /// (ext::core_ref::record_iteration), read by stats() on any thread: under iteration_mutex.
  std::mutex iteration_mutex;
  std::deque<iteration_stats> iteration_records;
  std::uint64_t iteration_records_dropped = 0;
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
  /// Posts to a place's pool in progress (detail::post_to_place). A post from outside the
  /// workers (an event satisfied by another thread) may make runnable the task that ends a run:
  /// a worker can take the item and the owner destroy the runtime while the poster still wakes
  /// a sleeper in the place's idle domain. ~runtime waits for this to reach zero (acquire; the
  /// post's decrement is a release) after joining the workers.
  std::atomic<unsigned> posting{0};
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
