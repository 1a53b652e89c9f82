// locus/ext/pool.hpp — a shared pool of work items that knows its idle domain.
//
// One type for every pool that is not a worker's own deque: a place's mailbox (roots, remote
// spawns, frames sent home), a replay worker's donation buffer, and the pools strategies own
// (a socket's subtree pool, an inter-socket pool). FIFO, under a mutex: pools are touched at
// steals, donations and posts, rare beside deque operations (docs/design/0011 weighs a
// lock-free queue and keeps the mutex: the measured paths do not reach it per task).
//
// Idle domain. A pool bound to a runtime (core_ref::bind_pool, or the core for a place's
// pool) belongs to one idle domain: the workers that may take from it. A push wakes one
// sleeper of that domain, not every sleeper of the runtime. The no-lost-wake-up argument is
// the idle protocol's (docs/design/0003): the push raises the size (seq_cst), then reads the
// domain's sleepers (seq_cst); a worker going to sleep registers (seq_cst), then re-reads the
// size of every pool bound to its domain. One of the two sees the other. An unbound pool
// wakes nobody: a strategy that uses one keeps its takers awake (acquisition::may_sleep).
//
// Takers. A bound pool is open (any member of its domain may take from it: a push wakes one)
// or gated (set_pool_taker: one named worker takes from it, and only while no worker of its
// domain is running a task; LAWS's CF pool, taken by the socket's head once the socket's
// subtree is done). A push into a gated pool wakes its taker if the domain is quiet; else the
// last worker of the domain to stop running wakes it. The three-party argument is in
// src/idle_domain.hpp and docs/design/0003.
//
// Lifetime: a bound pool stays linked into its domain's list until the runtime is destroyed;
// it must outlive the runtime (a strategy's pools do: the runtime holds the strategy).
#pragma once

#include <atomic>
#include <cstddef>
#include <deque>
#include <limits>
#include <mutex>

#include "locus/ext/core.hpp"
#include "locus/ext/scheduler.hpp"

namespace locus::detail {
class idle_domain;
}

namespace locus::ext {

class shared_pool {
 public:
  static constexpr std::size_t k_unbounded = std::numeric_limits<std::size_t>::max();
  /// No named taker: the pool is open to its whole idle domain (set_pool_taker).
  static constexpr unsigned k_any_taker = 0xffffffffu;
  explicit shared_pool(std::size_t capacity = k_unbounded) noexcept : m_capacity(capacity) {}
  shared_pool(const shared_pool&) = delete;
  shared_pool& operator=(const shared_pool&) = delete;

  /// Add `item` at the back and wake one sleeper of the pool's idle domain. False (nothing
  /// added, nobody woken) when the pool holds `capacity` items. Throws std::bad_alloc.
  bool push(work_item item);
  /// Take the oldest item; false if empty. The mutex orders the pusher's writes (the item's
  /// frame) before the taker's reads, as a deque's release push and acquire steal do.
  bool take(work_item& out);
  /// Items now: a hint for looks without the lock (relaxed).
  [[nodiscard]] std::size_t size_hint() const noexcept {
    return m_size.load(std::memory_order_relaxed);
  }
  /// Empty, read seq_cst: the sleep protocol's re-read (see above).
  [[nodiscard]] bool empty_seq_cst() const noexcept {
    return m_size.load(std::memory_order_seq_cst) == 0;
  }
  [[nodiscard]] std::size_t capacity() const noexcept { return m_capacity; }
  /// Whether the pool is bound to an idle domain.
  [[nodiscard]] bool bound() const noexcept { return m_domain != nullptr; }

 private:
  friend class detail::idle_domain;
  std::mutex m_mutex;
  std::deque<work_item> m_items;
  std::atomic<std::size_t> m_size{0};
  std::size_t m_capacity;
  detail::idle_domain* m_domain = nullptr;  ///< set once, by idle_domain::watch
  /// The domain slot of the gated pool's taker, or k_any_taker (open).
  std::atomic<unsigned> m_taker{k_any_taker};
  shared_pool* m_next_watched = nullptr;  ///< the domain's list, set once before publication
};

/// Bind `pool` to the idle domain of worker `w` of `core` (its pushes wake that domain's
/// sleepers, whose sleep re-reads it). Once per pool, before its first push; any thread.
void bind_pool(core_ref core, unsigned w, shared_pool& pool);

/// Gate the bound `pool`: only worker `taker` takes from it, while no worker of its idle domain
/// runs a task (see above), and pushes wake `taker` alone; shared_pool::k_any_taker opens it
/// again. `taker` must belong to the pool's domain (std::invalid_argument otherwise, and for an
/// unbound pool). Between runs, or from the taker itself; a strategy that reads the gate takes
/// from the pool only when core_ref::domain_active says the domain is quiet.
void set_pool_taker(core_ref core, shared_pool& pool, unsigned taker);

}  // namespace locus::ext
