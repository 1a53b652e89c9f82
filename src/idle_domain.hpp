// idle_domain.hpp (private to the core) — the workers that sleep and wake together, and the
// protocol that keeps them from sleeping through work (docs/design/0003-idle-protocol.md,
// "Domains a strategy defines" for the named and gated wake-ups).
//
// A domain is a place, the whole runtime (cross-place stealing: any awake worker may take work
// from any place), or a group a scheduler defines (ext::scheduler::idle_domains, e.g. one per
// socket). It counts how many of its members are active (running tasks), thieves (awake,
// looking for work) and asleep, packed in one word so every transition is one atomic step,
// and gives each member a parking slot of its own so that a wake-up can name the worker it
// reaches (a socket's head) instead of whichever sleeper a shared semaphore would release.
//
// Invariant (no lost wake-ups): while a member is active, at least one member is a thief or
// none sleeps. Deque items exist only under active workers (a worker turns thief only with an
// empty deque), and every thief of the domain may look into every deque of the domain, so
// work on a deque is always seen by an awake worker. The steps that keep it:
//  * a thief may register as a sleeper unless it is the last thief and some member is active;
//  * it then parks (its slot's flag, seq_cst) and re-reads the word (seq_cst): if it has
//    become the last thief's place to watch (no thief, some active) it takes the registration
//    back. A thief that becomes active leaving no thief claims a parked member (seq_cst reads
//    of the flags after its seq_cst update): one of the two sees the other (Dekker);
//  * a push into a pool the domain watches (ext/pool.hpp) wakes a member that may take it, and
//    a parked member re-reads those pools after parking (both seq_cst);
//  * a gated pool (one taker, only while no member is active: ext::set_pool_taker) wakes its
//    taker from the push if the domain is quiet, or from the step that makes it quiet (the
//    last active member turning thief), and its taker re-reads it after parking: whichever of
//    the three comes last in the seq_cst order sees the other two.
// A claim is a compare-exchange of a parked flag from 1 to 0, so each parking is ended by
// exactly one party: a waker (which then counts the sleeper back as a thief and releases the
// member's semaphore) or the member itself (which counts itself back and does not block).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <semaphore>
#include <string>
#include <vector>

#include "locus/detail/worker.hpp"
#include "locus/ext/pool.hpp"

namespace locus::detail {

class idle_domain {
 public:
  static constexpr std::uint64_t k_active = 1, k_thief = 1ull << 20, k_sleeper = 1ull << 40;
  static constexpr std::uint64_t k_field = (1ull << 20) - 1;
  static constexpr unsigned k_any = ext::shared_pool::k_any_taker;

  /// `members`: the worker indices of the domain, in order; slot i is members[i].
  explicit idle_domain(std::vector<unsigned> members);

  static std::uint64_t active(std::uint64_t s) noexcept { return s & k_field; }
  static std::uint64_t thieves(std::uint64_t s) noexcept { return (s >> 20) & k_field; }
  static std::uint64_t sleepers(std::uint64_t s) noexcept { return (s >> 40) & k_field; }

  [[nodiscard]] const std::vector<unsigned>& members() const noexcept { return m_members; }
  /// The slot of worker `w`, or k_any if it is not a member.
  [[nodiscard]] unsigned slot_of(unsigned w) const noexcept;

  void thief_to_active() noexcept {
    const std::uint64_t s =
        m_state.fetch_add(k_active - k_thief, std::memory_order_seq_cst) + k_active - k_thief;
    if (thieves(s) == 0 && sleepers(s) > 0) (void)wake_one();
  }
  void active_to_thief() noexcept {
    const std::uint64_t s =
        m_state.fetch_add(k_thief - k_active, std::memory_order_seq_cst) + k_thief - k_active;
    // The domain just became quiet: a gated pool's taker may take now.
    if (active(s) == 0 && m_gated.load(std::memory_order_relaxed) != 0) wake_gated_takers();
  }
  /// A thief asks to sleep; false if it must stay awake (last thief while work runs).
  bool thief_to_sleeper() noexcept {
    std::uint64_t s = m_state.load(std::memory_order_seq_cst);
    do {
      if (thieves(s) == 1 && active(s) > 0) return false;
    } while (!m_state.compare_exchange_weak(s, s - k_thief + k_sleeper, std::memory_order_seq_cst));
    return true;
  }
  /// After thief_to_sleeper: publish the parking of member `slot`, then re-read the word. True
  /// if the member may go on towards sleep; false if it took its registration back (it has
  /// become the thief that must watch the active members' deques) and is a thief again.
  bool park(unsigned slot) noexcept;
  /// A parked member takes its registration back (it found a reason to stay awake). False if
  /// a waker claimed it first: its semaphore has been released and sleep() returns at once.
  bool unpark_self(unsigned slot) noexcept;
  /// Blocks member `slot` until a waker claims it (or the runtime stops).
  void sleep(unsigned slot) { m_slots[slot].sem.acquire(); }

  /// Claim one parked member and let it run; false if none was parked.
  bool wake_one() noexcept;
  /// Claim member `slot` if it is parked; false if it was not (awake, or not parked yet: it
  /// re-reads what the caller published before it blocks).
  bool wake_member(unsigned slot) noexcept;
  /// Claim every parked member.
  void wake_all() noexcept;
  void wake_all_for_stop() noexcept;

  [[nodiscard]] std::uint64_t sleeping() const noexcept {
    return sleepers(m_state.load(std::memory_order_seq_cst));
  }
  [[nodiscard]] std::uint64_t active_now() const noexcept {
    return active(m_state.load(std::memory_order_seq_cst));
  }

  /// Link `p` into the pools this domain's sleepers re-read, and make its pushes wake this
  /// domain. Once per pool. Release: a sleeper that sees the link sees the pool.
  void watch(ext::shared_pool& p) noexcept;
  /// The domain whose sleepers a push into `p` wakes (null: unbound).
  [[nodiscard]] static idle_domain* of(const ext::shared_pool& p) noexcept { return p.m_domain; }
  /// Make `p` (watched by this domain) gated with taker `slot`, or open to all (k_any).
  void set_taker(ext::shared_pool& p, unsigned slot) noexcept;
  /// A push into `p` happened (seq_cst, after its size went up): wake whom it concerns.
  void pushed(const ext::shared_pool& p) noexcept;
  /// Whether member `slot` must not block: a pool this domain watches holds an item it may
  /// take now (seq_cst reads: the sleep re-read). Wakes one other member for an open pool.
  [[nodiscard]] bool work_for(unsigned slot) noexcept;

 private:
  /// Turn a claimed (or self-claimed) sleeper back into a thief.
  void count_back() noexcept { m_state.fetch_add(k_thief - k_sleeper, std::memory_order_seq_cst); }
  void wake_gated_takers() noexcept;

  struct alignas(k_cache_line) slot_state {
    std::atomic<std::uint32_t> parked{0};  ///< 1 while parked and not claimed
    std::counting_semaphore<> sem{0};
  };
  std::vector<unsigned> m_members;
  std::unique_ptr<slot_state[]> m_slots;
  alignas(k_cache_line) std::atomic<std::uint64_t> m_state;
  std::atomic<std::uint32_t> m_next{0};               ///< where wake_one's scan starts
  std::atomic<std::uint32_t> m_gated{0};              ///< gated pools watched (a hint)
  std::atomic<ext::shared_pool*> m_watched{nullptr};  ///< an intrusive list, only grows
};

/// Per worker, its domain: its place's, or 0 for all (cross-place stealing).
[[nodiscard]] std::vector<unsigned> default_domains(const std::vector<unsigned>& place_of,
                                                    bool one_for_all);
/// A scheduler's domains (`scheduler` names it in errors), checked: one per worker, dense
/// (0..k-1, each used), and each place inside one domain. Throws config_error otherwise.
[[nodiscard]] std::vector<unsigned> checked_domains(std::vector<unsigned> domain_of,
                                                    const std::vector<unsigned>& place_of,
                                                    const std::string& scheduler);
/// The domains for `domain_of`; fills `slot` (per worker, its slot in its domain).
[[nodiscard]] std::vector<std::unique_ptr<idle_domain>> make_domains(
    const std::vector<unsigned>& domain_of, std::vector<unsigned>& slot);

}  // namespace locus::detail
