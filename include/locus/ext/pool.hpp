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
#include <set>
#include <vector>

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

  // --- Ranked pools: a priority deque (the flow scheduler's ready queues; any strategy) -------
  // A pool made with order::ranked holds items with a rank (lower is preferred) and a weight,
  // and has two ends. The front holds the lowest rank, the newest first among equal ranks; the
  // back the highest rank, the oldest first among equal ranks. With every rank equal it is a
  // work-stealing deque's order: the owner takes the newest (front), thieves the oldest
  // (back). push() and take() work on it too (rank 0, weight 1; the front). A fifo pool
  // answers the calls below as well: its front is the oldest item, its back the newest, every
  // weight 1 (push_ranked alone is refused: a fifo pool has no order to put a rank in). The
  // idle-domain protocol is the same for both orders (the same size word, the same wake-up).
  // Cost: O(log n) per operation and one node allocation per push (an ordered set under the
  // mutex), against the fifo pool's amortised O(1).
  enum class order : std::uint8_t { fifo, ranked };
  struct ranked_item {
    work_item item;
    std::uint64_t rank = 0;    ///< lower ranks come out of the front first
    std::uint32_t weight = 1;  ///< what take_back_half adds up (at least 1 by convention)
    std::uintptr_t tag = 0;    ///< the strategy's own word, returned with the item
  };
  explicit shared_pool(order o, std::size_t capacity = k_unbounded) noexcept
      : m_capacity(capacity), m_order(o) {}
  [[nodiscard]] order ordering() const noexcept { return m_order; }
  /// Add `it` in rank order and wake one sleeper of the domain, as push() does; false when
  /// full. Throws std::logic_error on a fifo pool, std::bad_alloc.
  bool push_ranked(const ranked_item& it);
  /// Take the item at the front (lowest rank, newest among equals); false if empty.
  bool take_front(ranked_item& out);
  /// Take the item at the back (highest rank, oldest among equals); false if empty.
  bool take_back(ranked_item& out);
  /// Steal-half: take items from the back, appending them to `out` back first, until their
  /// weights reach half the pool's total weight as it was (at least one item). Returns how
  /// many were taken (0: empty). One lock for the lot.
  std::size_t take_back_half(std::vector<ranked_item>& out);
  /// The sum of the weights of the items now (under the lock: a look, not a hint).
  [[nodiscard]] std::uint64_t weight();

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

  // Ranked pools (see above); all under m_mutex. A fifo pool leaves them empty.
  struct ranked_entry {
    ranked_item it;
    std::uint64_t seq;  ///< push order: newer entries have larger numbers
    bool operator<(const ranked_entry& o) const noexcept {
      return it.rank != o.it.rank ? it.rank < o.it.rank : seq > o.seq;
    }
  };
  bool take_end(ranked_item& out, bool front);
  ranked_item pop_ranked(std::set<ranked_entry>::iterator at);
  order m_order = order::fifo;
  std::set<ranked_entry> m_ranked;
  std::uint64_t m_weight = 0;
  std::uint64_t m_next_seq = 0;
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
