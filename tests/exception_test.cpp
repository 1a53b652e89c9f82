// Exceptions: reach the syncing frame, then run()'s caller; siblings still finish; the runtime
// stays usable; nothing leaks (the asan preset checks the last part).
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>

#include "test_support.hpp"

namespace {
struct boom : std::runtime_error {
  using std::runtime_error::runtime_error;
};

locus::task<int> thrower(int depth) {
  if (depth == 0) throw boom("boom");
  auto f = co_await locus::spawn(thrower(depth - 1));
  co_await locus::sync();
  co_return f.get();
}

locus::task<void> slow_sibling(std::atomic<int>* finished) {
  long x = co_await locus_test::fib(18);
  if (x == 2584) finished->fetch_add(1);
}

locus::task<int> parent_catches(std::atomic<int>* finished) {
  co_await locus::spawn(slow_sibling(finished));
  co_await locus::spawn(thrower(3));
  co_await locus::spawn(slow_sibling(finished));
  try {
    co_await locus::sync();
  } catch (const boom&) {
    // The other children have finished by the time sync rethrows.
    co_return finished->load() == 2 ? 1 : -1;
  }
  co_return 0;
}

locus::task<int> propagates(std::atomic<int>* finished) {
  co_await locus::spawn(slow_sibling(finished));
  co_await locus::spawn(thrower(2), locus::help_first);
  co_await locus::sync();
  co_return 0;
}

locus::task<int> called_thrower() {
  try {
    co_await thrower(0);
  } catch (const boom&) {
    co_return 7;
  }
  co_return 0;
}
}  // namespace

class exceptions : public ::testing::TestWithParam<locus_test::setup> {};

TEST_P(exceptions, ReachTheSyncingFrameAfterSiblingsFinish) {
  locus::runtime rt{GetParam().cfg()};
  std::atomic<int> finished{0};
  EXPECT_EQ(rt.run(parent_catches(&finished)), 1);
}

TEST_P(exceptions, ReachTheCallerOfRunAndTheRuntimeStaysUsable) {
  locus::runtime rt{GetParam().cfg()};
  for (int rep = 0; rep < 5; ++rep) {
    std::atomic<int> finished{0};
    EXPECT_THROW(rt.run(propagates(&finished)), boom);
    EXPECT_EQ(finished.load(), 1);
    EXPECT_EQ(rt.run(locus_test::fib(15)), 610);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Policies, exceptions,
    ::testing::Values(
        locus_test::setup{locus::spawn_policy::work_first, locus::victim_policy::random, 2},
        locus_test::setup{locus::spawn_policy::help_first, locus::victim_policy::random, 2},
        locus_test::setup{locus::spawn_policy::adaptive, locus::victim_policy::hierarchical, 3}),
    [](const auto& info) { return info.param.name(); });

TEST(Exceptions, FromACallAreCatchableInTheCaller) {
  locus::runtime rt{locus::config{.workers = 2}};
  EXPECT_EQ(rt.run(called_thrower()), 7);
}

TEST(Exceptions, ThrownByTheRootTaskItself) {
  locus::runtime rt{locus::config{.workers = 1}};
  EXPECT_THROW(rt.run(thrower(0)), boom);
  EXPECT_EQ(rt.run(locus_test::fib(10)), 55);
}
