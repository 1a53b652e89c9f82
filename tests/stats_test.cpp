// Counters and resets: a reset records baselines (it never races the owners' stores), idle
// time includes the spell in progress, and snapshots taken during a run are monotone.
#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "locus/detail/asymmetric_fence.hpp"
#include "locus/detail/worker.hpp"
#include "test_support.hpp"

using locus::detail::counters;

namespace {

using locus_test::wait_until_all_asleep;

/// Occupies a worker until `stop` is set.
locus::task<int> spin_until(const std::atomic<bool>* stop) {
  while (!stop->load(std::memory_order_acquire))
    std::this_thread::yield();
  co_return 1;
}

/// Every field of a worker_stats, for comparisons.
std::array<std::uint64_t, locus::stat_fields.size()> fields(const locus::worker_stats& s) {
  std::array<std::uint64_t, locus::stat_fields.size()> out{};
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = s.*locus::stat_fields[i].member;
  return out;
}

/// fib(n)'s spawns: one per internal node of its call tree, F(n + 1) - 1.
constexpr std::uint64_t fib_spawns(int n) {
  std::uint64_t a = 0, b = 1;  // F(0), F(1)
  for (int i = 0; i <= n; ++i) {
    const std::uint64_t c = a + b;
    a = b;
    b = c;
  }
  return a - 1;
}
static_assert(fib_spawns(15) == 986);

}  // namespace

// The interleaving that lost a reset, played by hand: the owner's bump is a relaxed load and
// a store; a reset that lands between them must still count.
TEST(Counters, AResetBetweenAnOwnersLoadAndStoreIsNotLost) {
  counters c;
  counters::bump(c.spawns_work_first, 1000);
  const std::uint64_t loaded = c.spawns_work_first.load();  // the owner loads 1000,
  c.reset();                                                // stats() resets,
  c.spawns_work_first.store(loaded + 1);                    // the owner stores 1001
  EXPECT_EQ(c.snapshot().spawns_work_first, 1u);
  counters::bump(c.spawns_work_first);
  EXPECT_EQ(c.snapshot().spawns_work_first, 2u);
  c.reset();
  EXPECT_EQ(c.snapshot().spawns_work_first, 0u);
}

// Between runs everything a run counts is exact: zero after the reset, the known count of a
// known run after it.
TEST(Stats, AResetBetweenRunsIsExact) {
  locus::runtime rt{locus::config{.workers = 1, .policy = locus::spawn_policy::work_first}};
  EXPECT_EQ(rt.run(locus_test::fib(20)), 6765);
  const locus::worker_stats first = rt.stats().total();
  EXPECT_EQ(first.spawns_work_first, fib_spawns(20));
  EXPECT_GT(first.peak_stack_bytes, 0u);
  for (int i = 0; i < 3; ++i) {
    rt.reset_stats();
    const locus::worker_stats zero = rt.stats().total();
    EXPECT_EQ(zero.spawns_work_first, 0u);
    EXPECT_EQ(zero.spawns_help_first, 0u);
    EXPECT_EQ(zero.syncs_suspended, 0u);
    EXPECT_EQ(zero.steals_succeeded, 0u);
    EXPECT_EQ(zero.mailbox_takes, 0u);
    EXPECT_EQ(zero.peak_stack_bytes, 0u);  // one worker frees LIFO: nothing held after a run
    EXPECT_EQ(rt.run(locus_test::fib(20)), 6765);
    const locus::worker_stats t = rt.stats().total();
    EXPECT_EQ(t.spawns_work_first, fib_spawns(20));
    EXPECT_EQ(t.spawns_help_first, 0u);
    EXPECT_EQ(t.mailbox_takes, 1u);  // the root
    EXPECT_EQ(t.peak_stack_bytes, first.peak_stack_bytes);
  }
}

// One worker spins in a task, so the idle protocol keeps another awake as a thief, counting
// steal attempts all the time. A reset must never be lost to one of its bumps: right after a
// reset the count is what was attempted since, far below the count before it.
TEST(Stats, AResetWhileAThiefCountsIsNeverLost) {
  locus::runtime rt{locus::config{.workers = 2, .pin = false}};
  std::atomic<bool> stop{false};
  std::thread runner([&] { EXPECT_EQ(rt.run(spin_until(&stop)), 1); });
  using clock = std::chrono::steady_clock;
  const auto deadline = clock::now() + std::chrono::seconds(20);
  while (rt.stats().total().steals_attempted < 1000 && clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  int lost = 0;
  int checked = 0;
  auto last_reset = clock::now();
  for (int i = 0; i < 3000; ++i) {
    std::this_thread::sleep_for(std::chrono::microseconds(300));
    const std::uint64_t before = rt.stats().total().steals_attempted;
    const auto t0 = clock::now();
    rt.reset_stats();
    const std::uint64_t after = rt.stats().total().steals_attempted;
    const auto t1 = clock::now();
    // A kept reset leaves what the thief did in [t0, t1]; a lost one about `before` more.
    // Judge only when [t0, t1] is much shorter than the time `before` accumulated over.
    if (before >= 20 && (t1 - t0) * 8 < t0 - last_reset) {
      ++checked;
      if (after >= before) ++lost;
    }
    last_reset = t0;
  }
  stop.store(true, std::memory_order_release);
  runner.join();
  EXPECT_EQ(lost, 0) << "of " << checked << " resets checked";
  EXPECT_GT(checked, 0);
}

// idle_ns includes the idle spell in progress: a runtime that sits idle accumulates it with
// no run finishing and no work found.
TEST(Stats, IdleTimeGrowsWhileTheRuntimeSitsIdle) {
  locus::runtime rt{locus::config{.workers = 2, .pin = false}};
  EXPECT_EQ(rt.run(locus_test::fib(10)), 55);
  ASSERT_TRUE(wait_until_all_asleep(rt));
  const locus::runtime_stats a = rt.stats();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const locus::runtime_stats b = rt.stats();
  for (std::size_t i = 0; i < a.workers.size(); ++i)
    EXPECT_GE(b.workers[i].idle_ns, a.workers[i].idle_ns + 50'000'000u) << "worker " << i;
  // A reset starts the idle time from zero, and it grows again.
  rt.reset_stats();
  const std::uint64_t after_reset = rt.stats().total().idle_ns;
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const std::uint64_t later = rt.stats().total().idle_ns;
  EXPECT_LT(after_reset, 2 * 20'000'000u);
  EXPECT_GE(later, after_reset + 2 * 20'000'000u);
}

// During runs, stats() is racy but monotone: no field goes down between two calls.
TEST(Stats, SnapshotsDuringRunsAreMonotone) {
  locus::runtime rt{locus::config{.workers = 3, .pin = false}};
  std::atomic<bool> done{false};
  std::thread runner([&] {
    for (int i = 0; i < 30; ++i)
      EXPECT_EQ(rt.run(locus_test::fib(16)), 987);
    done.store(true, std::memory_order_release);
  });
  locus::runtime_stats prev = rt.stats();
  int snapshots = 0;
  while (!done.load(std::memory_order_acquire)) {
    const locus::runtime_stats s = rt.stats();
    for (std::size_t w = 0; w < s.workers.size(); ++w) {
      const auto now = fields(s.workers[w]);
      const auto before = fields(prev.workers[w]);
      for (std::size_t f = 0; f < now.size(); ++f)
        ASSERT_GE(now[f], before[f]) << "worker " << w << " field " << f;
    }
    prev = s;
    ++snapshots;
  }
  runner.join();
  EXPECT_GT(snapshots, 0);
}

// The pop's fence counters (docs/design/0021) follow its form: under `full` no thief makes the
// membarrier call and no episode starts; under `asymmetric` every steal that takes an item made
// the call (the owner never fences, so no episode either); under `adaptive` a stolen item means
// at least one call (the deques start unfenced, and only a heavy steal's request fences one),
// and each episode answers a request that some heavy steal made. A reset zeroes both.
TEST(Stats, FenceCountsFollowThePopForm) {
  using locus::pop_fence_policy;
  std::vector<pop_fence_policy> policies{pop_fence_policy::full};
  if (locus::detail::asymmetric_fence_available()) {
    policies.push_back(pop_fence_policy::asymmetric);
    policies.push_back(pop_fence_policy::adaptive);
  }
  for (const pop_fence_policy p : policies) {
    SCOPED_TRACE(std::string(locus::to_string(p)));
    locus::runtime rt{locus::config{.workers = 2, .pin = false, .pop_fence = p}};
    locus::worker_stats t;
    // Runs until a steal took an item (two workers on fib(22): nearly always the first run).
    for (int i = 0; i < 200 && t.steals_succeeded == 0; ++i) {
      EXPECT_EQ(rt.run(locus_test::fib(22)), 17711);
      t = rt.stats().total();
    }
    ASSERT_GT(t.steals_succeeded, 0u);
    switch (p) {
      case pop_fence_policy::full:
        EXPECT_EQ(t.heavy_fences, 0u);
        EXPECT_EQ(t.fence_episodes, 0u);
        break;
      case pop_fence_policy::asymmetric:
        EXPECT_GE(t.heavy_fences, t.steals_succeeded);
        EXPECT_EQ(t.fence_episodes, 0u);
        break;
      case pop_fence_policy::adaptive:
        EXPECT_GE(t.heavy_fences, 1u);
        EXPECT_LE(t.fence_episodes, t.heavy_fences);
        break;
    }
    EXPECT_LE(t.heavy_fences, t.steals_attempted);
    rt.reset_stats();
    const locus::worker_stats zero = rt.stats().total();
    EXPECT_EQ(zero.heavy_fences, 0u);
    EXPECT_EQ(zero.fence_episodes, 0u);
  }
}
