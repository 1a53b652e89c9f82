// Runtime lifecycle, sleeping when idle, counters, adaptive switching, misuse errors.
#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>
#include <thread>

#include "test_support.hpp"

namespace {
using locus_test::wait_until_all_asleep;

locus::task<int> nested_run(locus::runtime* rt) {
  try {
    (void)rt->run(locus_test::fib(3));
  } catch (const std::logic_error&) {
    co_return 1;
  }
  co_return 0;
}
}  // namespace

// 10,000 cycles; 2,000 under ThreadSanitizer, where starting a thread costs about 25 ms (the
// full count alone took 250 s of CI's TSan run), still thousands of start and stop races.
#if defined(__SANITIZE_THREAD__)
constexpr int k_cycles = 2'000;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
constexpr int k_cycles = 2'000;
#else
constexpr int k_cycles = 10'000;
#endif
#else
constexpr int k_cycles = 10'000;
#endif

TEST(Runtime, ManyCreateRunDestroyCyclesDoNotHang) {
  for (int i = 0; i < k_cycles; ++i) {
    locus::runtime rt{locus::config{.workers = 2, .pin = false}};
    ASSERT_EQ(rt.run(locus_test::fib(5)), 5) << "cycle " << i;
  }
}

TEST(Runtime, RunManyTimesOnOneRuntime) {
  locus::runtime rt{locus::config{.workers = 2}};
  for (int i = 0; i < 2000; ++i)
    ASSERT_EQ(rt.run(locus_test::fib(i % 12)), rt.run(locus_test::fib(i % 12)));
}

TEST(Runtime, IdleRuntimeSleeps) {
  locus::runtime rt{locus::config{.workers = 3}};
  EXPECT_TRUE(wait_until_all_asleep(rt));
  EXPECT_EQ(rt.run(locus_test::fib(22)), 17711);
  // After the work is done every worker goes back to sleep: an idle runtime uses no CPU.
  EXPECT_TRUE(wait_until_all_asleep(rt));
  EXPECT_GT(rt.stats().total().sleeps, 0u);
}

TEST(Runtime, RunFromInsideATaskIsAnError) {
  locus::runtime rt{locus::config{.workers = 1}};
  EXPECT_EQ(rt.run(nested_run(&rt)), 1);
}

TEST(Runtime, EmptyTaskIsRejected) {
  locus::runtime rt{locus::config{.workers = 1}};
  EXPECT_THROW(rt.run(locus::task<int>{}), std::invalid_argument);
}

TEST(Runtime, DefaultsToOneWorkerPerCore) {
  locus::runtime rt;
  EXPECT_EQ(rt.num_workers(), rt.topo().num_cores());
  EXPECT_GE(rt.num_places(), 1u);
}

TEST(Runtime, StatsCountSpawnsAndSummaryPrintsThem) {
  locus::runtime rt{locus::config{.workers = 2, .policy = locus::spawn_policy::work_first}};
  EXPECT_EQ(rt.run(locus_test::fib(15)), 610);
  const auto s = rt.stats();
  EXPECT_EQ(s.workers.size(), 2u);
  EXPECT_EQ(s.total().spawns_work_first + s.total().spawns_help_first, 986u);  // fib(15) spawns
  EXPECT_GT(s.total().peak_stack_bytes, 0u);
  EXPECT_NE(s.summary().find("wf="), std::string::npos);
  EXPECT_NE(s.to_json().find("\"steals_succeeded\""), std::string::npos);
  rt.reset_stats();
  EXPECT_EQ(rt.stats().total().spawns_work_first, 0u);
}

// SLAW starts help-first and re-evaluates every INT spawns; on one worker nothing is stolen,
// so the first evaluation switches to work-first and it stays there.
TEST(Adaptive, SwitchesToWorkFirstWhenNothingIsStolen) {
  locus::config c{.workers = 1};
  c.slaw.interval = 16;
  locus::runtime rt{c};
  EXPECT_EQ(rt.run(locus_test::fib(18)), 2584);
  const auto t = rt.stats().total();
  EXPECT_EQ(t.policy_switches, 1u);
  EXPECT_EQ(t.spawns_help_first, 15u);  // the first interval, minus the evaluating spawn
  EXPECT_GT(t.spawns_work_first, 4000u);
}

// The stack condition: past S on-stack frames, spawns go help-first regardless.
TEST(Adaptive, StackConditionForcesHelpFirstPastS) {
  locus::config c{.workers = 1};
  c.slaw.stack_limit = 4;
  c.slaw.interval = 1;
  locus::runtime rt{c};
  EXPECT_EQ(rt.run(locus_test::fib(16)), 987);
  EXPECT_GT(rt.stats().total().stack_condition, 0u);
}

// The fresh-task condition: with F reached, spawns go work-first even in help-first mode.
TEST(Adaptive, FreshConditionForcesWorkFirstPastF) {
  locus::config c{.workers = 1};
  c.slaw.fresh_limit = 2;
  c.slaw.interval = 1'000'000;  // stay in the initial help-first mode
  locus::runtime rt{c};
  EXPECT_EQ(rt.run(locus_test::fib(16)), 987);
  const auto t = rt.stats().total();
  EXPECT_GT(t.fresh_condition, 0u);
  EXPECT_GT(t.spawns_work_first, 0u);
}
