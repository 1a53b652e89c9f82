// LAWS's third level (locus/laws.hpp): from the second iteration a socket's head takes whole
// CF subtrees from other sockets, never a task above a CF root (docs/design/0017, "Cross-socket
// takes"). Taking one moved its called half, a CF subtree of the victim, to the thief, and let
// heat's heads carry away half a socket's part (socket shares 12.4-37.6%).
#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "laws_support.hpp"
#include "locus/ext/core.hpp"
#include "locus/ext/data.hpp"
#include "locus/ext/observer.hpp"
#include "locus/ext/scheduler.hpp"
#include "locus/iterate.hpp"
#include "locus/laws.hpp"
#include "locus/locus.hpp"

namespace {

/// Every fresh task (not a continuation, not a root) a worker picks up from elsewhere during
/// the iterations under test: who took it and its data.
class pool_pickups final : public locus::ext::observer {
 public:
  struct pickup {
    unsigned worker = 0;
    std::size_t iteration = 0;
    std::uint32_t level = 0;
    locus::data_range range;
  };
  std::atomic<long> iteration{-1};  ///< -1: not recording

  void on_pickup(locus::ext::worker_ref& w, locus::ext::task_ref t,
                 const locus::ext::pickup& p) noexcept override {
    const long it = iteration.load(std::memory_order_relaxed);
    // From the second iteration a fresh child (not a continuation) changes hands only through
    // a pool: spawns below the CF level are work-first, so deques hold continuations. (A pool
    // item's `from` is its pusher, so p.from_worker() does not tell pools from deques.)
    if (it < 0 || p.continuation || !t.is_frame() || t.is_root()) return;
    const locus::ext::declared_data d = locus::ext::declared_data_of(t);
    if (d.bytes == 0) return;
    std::lock_guard lk(m_mutex);
    m_seen.push_back({w.index(), static_cast<std::size_t>(it), t.level(), d.ranges.front()});
  }
  std::vector<pickup> seen() {
    std::lock_guard lk(m_mutex);
    return m_seen;
  }

 private:
  std::mutex m_mutex;
  std::vector<pickup> m_seen;
};

constexpr char k_key = 0;

/// A D&C sweep (first half spawned, second called) whose leaves below `slow_below` spin for
/// `spin` before adding 1 to their elements. With slow_below = n / 2 (the first test) socket 0's
/// part is slow, so socket 1's head runs out of work early and looks at socket 0's pools while
/// socket 0 still holds tasks above its CF roots; with every leaf slow and a root of half the
/// array (the wake test), socket 1 has nothing of its own and its head parks.
struct slow_sweep {
  std::vector<double> a;
  std::size_t leaf = 64;
  std::size_t slow_below;
  std::chrono::microseconds spin;
  slow_sweep(std::size_t n, std::size_t slow_below_, std::chrono::microseconds spin_)
      : a(n, 0.0), slow_below(slow_below_), spin(spin_) {}

  locus::task<void> split(std::size_t lo, std::size_t hi) {
    if (hi - lo <= leaf) {
      if (lo < slow_below) {
        const auto until = std::chrono::steady_clock::now() + spin;
        while (std::chrono::steady_clock::now() < until) {
        }
      }
      for (std::size_t i = lo; i < hi; ++i)
        a[i] += 1.0;
      co_return;
    }
    const std::size_t mid = lo + (hi - lo) / 2;
    const auto half = [this](std::size_t l, std::size_t h) {
      return locus::with_data(
          split(l, h), locus::data_range::of(a.data() + l, h - l, locus::access::read_write));
    };
    co_await locus::spawn(half(lo, mid));
    co_await half(mid, hi);
    co_await locus::sync();
  }
  /// The sweep of [0, n): the whole array by default.
  locus::task<void> root(std::size_t n) {
    return locus::with_data(split(0, n),
                            locus::data_range::of(a.data(), n, locus::access::read_write));
  }
  locus::task<void> root() { return root(a.size()); }
};

TEST(LawsSteal, ASocketTakesOnlyWholeCfSubtreesFromAnother) {
  constexpr std::size_t n = 4096;  // 64 leaves of 64 doubles (512 B): 32 per socket
  locus::laws_options o;
  o.cache_bytes = 2 * 64 * sizeof(double);  // a CF subtree is 2 leaves: 16 per socket
  o.tune = false;
  locus::runtime rt(laws_test::laws_config("sockets=2,cores=1", 2, locus::make_laws_scheduler(o)));
  auto obs = std::static_pointer_cast<pool_pickups>(locus::ext::core_ref::of(rt).install_once(
      &k_key, [] { return std::make_shared<pool_pickups>(); }));
  slow_sweep sw(n, n / 2, std::chrono::microseconds(40));
  constexpr std::size_t iterations = 12;
  const auto recs = locus::iterate(rt, iterations, [&](std::size_t i) {
    obs->iteration.store(i >= 1 ? static_cast<long>(i) : -1, std::memory_order_relaxed);
    return sw.root();
  });
  obs->iteration.store(-1);
  for (double v : sw.a)
    ASSERT_EQ(v, static_cast<double>(iterations));
  const locus::data_range whole = locus::data_range::of(sw.a.data(), n, locus::access::read_write);
  std::size_t across = 0;
  for (const auto& p : obs->seen()) {
    const auto& r = recs[p.iteration];
    ASSERT_TRUE(r.stage == "searching" || r.stage == "tuned") << p.iteration << ": " << r.stage;
    ASSERT_GE(r.cf_level, 1);
    const unsigned socket = rt.topo().cores()[rt.core_of(p.worker)].package;
    const unsigned owner = locus::laws::owner_of(whole, p.range, 2).part;
    if (socket == owner) continue;
    ++across;
    EXPECT_EQ(static_cast<int>(p.level), r.cf_level)
        << "iteration " << p.iteration << ": worker " << p.worker << " (socket " << socket
        << ") took " << locus::to_string(p.range) << " of socket " << owner << " at level "
        << p.level << ", above the CF level " << r.cf_level;
  }
  // Every take across sockets the records count is one the check above saw. (Whether socket
  // 1 takes any depends on its head being awake, or woken while parked with nothing of its
  // own, when socket 0's CF pool holds two or more. With the old rule this test failed 10 runs
  // of 10.)
  std::uint64_t takes = 0;
  for (std::size_t i = 1; i < iterations; ++i)
    takes += recs[i].cross_socket_takes;
  EXPECT_EQ(takes, across);
}

/// Whether each worker is parked now: its last idle event was `sleeping` (a wake-up or a
/// pickup clears it).
class parked_workers final : public locus::ext::observer {
 public:
  std::array<std::atomic<bool>, 8> asleep{};
  std::atomic<std::uint64_t> woken_1{0};  ///< wake-ups of worker 1
  void on_idle(locus::ext::worker_ref& w, locus::ext::idle_event e) noexcept override {
    if (w.index() < asleep.size())
      asleep[w.index()].store(e == locus::ext::idle_event::sleeping, std::memory_order_release);
    if (w.index() == 1 && e == locus::ext::idle_event::woken) woken_1.fetch_add(1);
  }
};
constexpr char k_parked_key = 0;

/// Wake-ups of socket 1's head (worker 1) and cross-socket takes over iterations 1.. whose
/// work is all socket 0's, each begun once worker 1 has parked (waited for by its idle events,
/// up to 20 s; no clock in the assertions).
struct parked_outcome {
  std::uint64_t wakes = 0, takes = 0;
};
parked_outcome into_a_parked_socket(bool wake) {
  constexpr std::size_t n = 4096;
  locus::laws_options o;
  o.cache_bytes = 2 * 64 * sizeof(double);  // CF subtrees of 2 leaves: 16 in each half
  o.tune = false;
  o.wake_idle_heads = wake;
  locus::runtime rt(laws_test::laws_config("sockets=2,cores=1", 2, locus::make_laws_scheduler(o)));
  auto parked = std::static_pointer_cast<parked_workers>(locus::ext::core_ref::of(rt).install_once(
      &k_parked_key, [] { return std::make_shared<parked_workers>(); }));
  // Iteration 0 homes both parts; later ones sweep socket 0's part only, every leaf slow.
  slow_sweep sw(n, n, std::chrono::microseconds(100));
  constexpr std::size_t iterations = 6;
  const auto recs = locus::iterate(rt, iterations, [&](std::size_t i) {
    if (i >= 1) {
      const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
      while (!parked->asleep[1].load(std::memory_order_acquire) &&
             std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      EXPECT_TRUE(parked->asleep[1].load()) << "worker 1 never parked before iteration " << i;
      if (i == 1) parked->woken_1.store(0);
    }
    return sw.root(i == 0 ? n : n / 2);  // iteration 0 homes both parts
  });
  for (std::size_t i = 0; i < n; ++i)
    EXPECT_EQ(sw.a[i], i < n / 2 ? static_cast<double>(iterations) : 1.0) << i;
  parked_outcome out;
  out.wakes = parked->woken_1.load();
  for (std::size_t i = 1; i < iterations; ++i) {
    EXPECT_EQ(recs[i].stage, "tuned");
    out.takes += recs[i].cross_socket_takes;
  }
  return out;
}

// The wake rule (docs/design/0017, "Waking another head"): socket 0's CF pool fills with 16
// subtrees while its one worker runs the root (so it holds one or more at every push after the
// first) and socket 1's head is parked with nothing of its own. With the rule that head is
// woken; with wake=own nothing wakes it. (Not asserted, being up to the OS: whether a woken
// head takes before the owner drains its pool, and every one of the 5 iterations: a worker
// that reported `sleeping` may take its parking back and look once more, unseen here.)
TEST(LawsSteal, AParkedHeadWithNothingOfItsOwnIsWokenToTakeAcross) {
  const parked_outcome with = into_a_parked_socket(true);
  EXPECT_GE(with.wakes, 1u);
  const parked_outcome without = into_a_parked_socket(false);
  EXPECT_EQ(without.wakes, 0u);
}

}  // namespace
