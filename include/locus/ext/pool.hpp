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
  shared_pool* m_next_watched = nullptr;    ///< the domain's list, set once before publication
};

/// Bind `pool` to the idle domain of worker `w` of `core` (its pushes wake that domain's
/// sleepers, whose sleep re-reads it). Once per pool, before its first push; any thread.
void bind_pool(core_ref core, unsigned w, shared_pool& pool);

}  // namespace locus::ext
