// Fork/join correctness: fib, n-queens and tree sums under every policy, victim selection and
// 1 to 4 workers; calls, futures, void tasks, parallel algorithms.
#include <gtest/gtest.h>

#include <atomic>
#include <numeric>

#include "test_support.hpp"

using namespace locus_test;

class every_setup : public ::testing::TestWithParam<setup> {};

TEST_P(every_setup, FibMatchesKnownValues) {
  locus::runtime rt{GetParam().cfg()};
  EXPECT_EQ(rt.run(fib(20)), 6765);
  EXPECT_EQ(rt.run(fib(25)), 75025);
}

TEST_P(every_setup, NQueensCountsAllSolutions) {
  locus::runtime rt{GetParam().cfg()};
  EXPECT_EQ(rt.run(nqueens({}, 6, 0)), 4);
  EXPECT_EQ(rt.run(nqueens({}, 8, 0)), 92);
}

TEST_P(every_setup, TreeSumMatchesSerial) {
  locus::runtime rt{GetParam().cfg()};
  EXPECT_EQ(rt.run(tree_sum(1, 14)), tree_sum_serial(1, 14));
}

INSTANTIATE_TEST_SUITE_P(Policies, every_setup, ::testing::ValuesIn(all_setups()),
                         [](const auto& info) { return info.param.name(); });

namespace {
locus::task<int> add_one(int x) {
  co_return x + 1;
}
locus::task<int> caller() {
  int a = co_await add_one(1);  // a call: runs inline
  int b = co_await add_one(a);
  co_return b;
}
locus::task<void> bump(std::atomic<int>* c) {
  c->fetch_add(1);
  co_return;
}
locus::task<int> discard_futures(std::atomic<int>* c) {
  for (int i = 0; i < 100; ++i)
    co_await locus::spawn(bump(c));  // futures dropped at once
  co_await locus::sync();
  co_return c->load();
}
locus::task<int> implicit_sync(std::atomic<int>* c) {
  for (int i = 0; i < 50; ++i)
    co_await locus::spawn(bump(c));
  co_return 0;  // no sync: the frame still waits for its children before completing
}
locus::task<int> after_implicit(std::atomic<int>* c) {
  co_await implicit_sync(c);
  co_return c->load();
}
locus::task<long> mixed_policies(int n) {
  if (n < 2) co_return n;
  auto a =
      co_await locus::spawn(mixed_policies(n - 1), n % 2 ? locus::work_first : locus::help_first);
  auto b = co_await locus::spawn(mixed_policies(n - 2), locus::adaptive);
  co_await locus::sync();
  co_return a.get() + b.get();
}
}  // namespace

TEST(Task, CallsRunInlineAndReturnValues) {
  locus::runtime rt{locus::config{.workers = 2}};
  EXPECT_EQ(rt.run(caller()), 3);
}

TEST(Task, DiscardedFuturesStillCompleteBeforeSync) {
  locus::runtime rt{locus::config{.workers = 2}};
  std::atomic<int> c{0};
  EXPECT_EQ(rt.run(discard_futures(&c)), 100);
}

TEST(Task, FrameWaitsForUnsyncedChildrenBeforeCompleting) {
  locus::runtime rt{locus::config{.workers = 3}};
  for (int rep = 0; rep < 20; ++rep) {
    std::atomic<int> c{0};
    EXPECT_EQ(rt.run(after_implicit(&c)), 50);
  }
}

TEST(Task, PerSpawnPoliciesMixInOneRun) {
  locus::runtime rt{locus::config{.workers = 2}};
  EXPECT_EQ(rt.run(mixed_policies(20)), 6765);
  const auto t = rt.stats().total();
  EXPECT_GT(t.spawns_work_first, 0u);
  EXPECT_GT(t.spawns_help_first, 0u);
}

TEST(Algorithm, ParallelForVisitsEveryIndexOnce) {
  locus::runtime rt{locus::config{.workers = 3}};
  std::vector<std::atomic<int>> hits(10'000);
  rt.run([](std::vector<std::atomic<int>>* h) -> locus::task<> {
    co_await locus::parallel_for(std::size_t{0}, h->size(), std::size_t{7},
                                 [h](std::size_t i) { (*h)[i].fetch_add(1); });
  }(&hits));
  for (auto& h : hits)
    ASSERT_EQ(h.load(), 1);
}

TEST(Algorithm, ParallelForChunkBodyGetsDisjointRanges) {
  locus::runtime rt{locus::config{.workers = 2}};
  std::vector<int> v(5000, 0);
  rt.run([](std::vector<int>* v) -> locus::task<> {
    co_await locus::parallel_for(0, static_cast<int>(v->size()), 64, [v](int lo, int hi) {
      EXPECT_LE(hi - lo, 64);
      for (int i = lo; i < hi; ++i)
        (*v)[static_cast<std::size_t>(i)] += i;
    });
  }(&v));
  for (int i = 0; i < 5000; ++i)
    ASSERT_EQ(v[static_cast<std::size_t>(i)], i);
}

TEST(Algorithm, ParallelReduceEqualsSerialSum) {
  locus::runtime rt{locus::config{.workers = 2}};
  const long n = 100'000;
  const long got = rt.run(locus::parallel_reduce(
      0L, n, 1000L, 0L,
      [](long lo, long hi) {
        long s = 0;
        for (long i = lo; i < hi; ++i)
          s += i;
        return s;
      },
      [](long a, long b) { return a + b; }));
  EXPECT_EQ(got, n * (n - 1) / 2);
  EXPECT_EQ(rt.run(locus::parallel_reduce(
                5, 5, 1, 42, [](int, int) { return 0; }, [](int a, int b) { return a + b; })),
            42);
}

TEST(Algorithm, JoinRunsBothCallables) {
  locus::runtime rt{locus::config{.workers = 2}};
  std::atomic<int> a{0}, b{0};
  rt.run(locus::join([&] { a = 1; }, [&] { b = 2; }));
  EXPECT_EQ(a.load() + b.load(), 3);
}
