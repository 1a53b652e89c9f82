// Terminally strict async/finish: a finish waits for every async started inside it,
// transitively, including asyncs whose own frames never waited for them.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>

#include "test_support.hpp"

namespace {
// Each node starts asyncs for its children and returns at once, without waiting.
locus::task<void> fan_out(std::atomic<long>* count, int depth, locus::spawn_options o) {
  count->fetch_add(1);
  if (depth == 0) co_return;
  for (int i = 0; i < 3; ++i)
    co_await locus::async(fan_out(count, depth - 1, o), o);
}

locus::task<long> finish_then_read(std::atomic<long>* count, locus::spawn_options o) {
  co_await locus::finish(fan_out(count, 6, o));
  co_return count->load();  // all 1 + 3 + ... + 3^6 nodes have run
}

locus::task<void> async_thrower() {
  throw std::runtime_error("async failed");
  co_return;
}

locus::task<int> finish_catches(std::atomic<long>* count) {
  try {
    co_await locus::finish([](std::atomic<long>* c) -> locus::task<> {
      co_await locus::async(async_thrower());
      co_await locus::async(fan_out(c, 3, {}));
    }(count));
  } catch (const std::runtime_error&) {
    co_return count->load() == 40 ? 1 : -1;  // the other async finished first
  }
  co_return 0;
}

locus::task<void> unsynced_root(std::atomic<long>* count) {
  co_await locus::async(fan_out(count, 5, {}));
  co_return;  // run() itself is a finish scope
}
}  // namespace

constexpr long k_nodes6 = (2187 - 1) / 2;  // 1 + 3 + ... + 3^6

class finish_scopes : public ::testing::TestWithParam<locus_test::setup> {};

TEST_P(finish_scopes, WaitForEveryTransitiveAsync) {
  locus::runtime rt{GetParam().cfg()};
  for (auto o : {locus::work_first, locus::help_first, locus::adaptive}) {
    std::atomic<long> count{0};
    EXPECT_EQ(rt.run(finish_then_read(&count, o)), k_nodes6);
  }
}

INSTANTIATE_TEST_SUITE_P(Setups, finish_scopes, ::testing::ValuesIn(locus_test::all_setups()),
                         [](const auto& info) { return info.param.name(); });

TEST(Finish, RunWaitsForAsyncsOfTheRootTask) {
  locus::runtime rt{locus::config{.workers = 2}};
  std::atomic<long> count{0};
  rt.run(unsynced_root(&count));
  EXPECT_EQ(count.load(), (729 - 1) / 2);  // 1 + 3 + ... + 3^5
}

TEST(Finish, AsyncExceptionIsRethrownAfterTheScopeDrains) {
  locus::runtime rt{locus::config{.workers = 2}};
  std::atomic<long> count{0};
  EXPECT_EQ(rt.run(finish_catches(&count)), 1);
}
