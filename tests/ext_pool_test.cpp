// Shared pools' two orders (locus/ext/pool.hpp): fifo and ranked (a priority deque), their two
// ends, steal-half by weight, and the idle-domain wake-up a ranked push keeps.
#include <locus/ext/core.hpp>
#include <locus/ext/pool.hpp>
#include <locus/ext/scheduler.hpp>
#include <locus/locus.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "test_support.hpp"

namespace {

using pool = locus::ext::shared_pool;
using ranked = pool::ranked_item;

ranked item(std::uintptr_t bits, std::uint64_t rank, std::uint32_t weight = 1) {
  return ranked{locus::ext::work_item{bits, 7}, rank, weight, bits * 10};
}

TEST(ExtRankedPool, TheFrontIsTheLowestRankNewestFirstAndTheBackTheHighestOldestFirst) {
  pool p(pool::order::ranked);
  EXPECT_EQ(p.ordering(), pool::order::ranked);
  ASSERT_TRUE(p.push_ranked(item(8, 5)));
  ASSERT_TRUE(p.push_ranked(item(16, 1)));
  ASSERT_TRUE(p.push_ranked(item(24, 1)));
  ASSERT_TRUE(p.push_ranked(item(32, 9)));
  ASSERT_TRUE(p.push_ranked(item(40, 9)));
  EXPECT_EQ(p.size_hint(), 5u);
  ranked r;
  ASSERT_TRUE(p.take_front(r));
  EXPECT_EQ(r.item.bits, 24u);  // rank 1, the newer of the two
  EXPECT_EQ(r.item.from, 7u);
  EXPECT_EQ(r.tag, 240u);  // the strategy's word comes back
  ASSERT_TRUE(p.take_back(r));
  EXPECT_EQ(r.item.bits, 32u);  // rank 9, the older of the two
  ASSERT_TRUE(p.take_front(r));
  EXPECT_EQ(r.item.bits, 16u);
  ASSERT_TRUE(p.take_back(r));
  EXPECT_EQ(r.item.bits, 40u);
  ASSERT_TRUE(p.take_back(r));
  EXPECT_EQ(r.item.bits, 8u);
  EXPECT_FALSE(p.take_front(r));
  EXPECT_FALSE(p.take_back(r));
  EXPECT_TRUE(p.empty_seq_cst());
}

TEST(ExtRankedPool, EqualRanksKeepADequesOrder) {
  pool p(pool::order::ranked);
  for (std::uintptr_t i = 1; i <= 4; ++i)
    ASSERT_TRUE(p.push_ranked(item(i * 8, 0)));
  ranked r;
  ASSERT_TRUE(p.take_front(r));
  EXPECT_EQ(r.item.bits, 32u);  // the owner: newest
  ASSERT_TRUE(p.take_back(r));
  EXPECT_EQ(r.item.bits, 8u);  // a thief: oldest
}

TEST(ExtRankedPool, TakeBackHalfStopsAtHalfTheWeightAndTakesAtLeastOne) {
  pool p(pool::order::ranked);
  // Back to front: 48 (w 1), 40 (w 1), 32 (w 4), 24 (w 1), 16 (w 1), 8 (w 2); total 10.
  const std::uint32_t weights[] = {2, 1, 1, 4, 1, 1};
  for (std::uintptr_t i = 0; i < 6; ++i)
    ASSERT_TRUE(p.push_ranked(item((i + 1) * 8, i, weights[i])));
  EXPECT_EQ(p.weight(), 10u);
  std::vector<ranked> got;
  EXPECT_EQ(p.take_back_half(got), 3u);  // 1 + 1 + 4 = 6 >= 5
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].item.bits, 48u);
  EXPECT_EQ(got[1].item.bits, 40u);
  EXPECT_EQ(got[2].item.bits, 32u);
  EXPECT_EQ(p.weight(), 4u);
  EXPECT_EQ(p.size_hint(), 3u);
  // A lone item is taken even though half of its weight is less than it.
  pool one(pool::order::ranked);
  ASSERT_TRUE(one.push_ranked(item(8, 0, 9)));
  got.clear();
  EXPECT_EQ(one.take_back_half(got), 1u);
  EXPECT_EQ(one.take_back_half(got), 0u);  // empty
}

TEST(ExtRankedPool, PlainPushAndTakeUseRankZeroAndTheFront) {
  pool p(pool::order::ranked, 2);
  ASSERT_TRUE(p.push_ranked(item(8, 3)));
  ASSERT_TRUE(p.push(locus::ext::work_item{16, 1}));   // rank 0: before rank 3
  EXPECT_FALSE(p.push(locus::ext::work_item{24, 1}));  // the capacity holds for both calls
  EXPECT_FALSE(p.push_ranked(item(32, 0)));
  locus::ext::work_item out;
  ASSERT_TRUE(p.take(out));
  EXPECT_EQ(out.bits, 16u);
  ASSERT_TRUE(p.take(out));
  EXPECT_EQ(out.bits, 8u);
  EXPECT_FALSE(p.take(out));
}

TEST(ExtRankedPool, AFifoPoolAnswersBothEndsAndRefusesRanks) {
  pool p;
  EXPECT_EQ(p.ordering(), pool::order::fifo);
  EXPECT_THROW((void)p.push_ranked(item(8, 0)), std::logic_error);
  EXPECT_EQ(p.size_hint(), 0u);
  for (std::uintptr_t i = 1; i <= 5; ++i)
    ASSERT_TRUE(p.push(locus::ext::work_item{i * 8, 1}));
  ranked r;
  ASSERT_TRUE(p.take_front(r));
  EXPECT_EQ(r.item.bits, 8u);  // oldest
  ASSERT_TRUE(p.take_back(r));
  EXPECT_EQ(r.item.bits, 40u);  // newest
  std::vector<ranked> got;
  EXPECT_EQ(p.take_back_half(got), 1u);  // 3 left, weight 1 each: 1 >= 3 / 2
  EXPECT_EQ(got[0].item.bits, 32u);
  EXPECT_EQ(p.weight(), 2u);
}

/// An acquisition that takes (and counts) test items from a ranked pool bound to worker 0's
/// idle domain; they are not work, so it never hands them to the core.
class ranked_taker final : public locus::ext::acquisition {
 public:
  bool acquire(locus::ext::worker_ref w, locus::ext::work_item& out) override {
    std::call_once(m_bound, [&] { locus::ext::bind_pool(w.core(), 0, pool); });
    ranked r;
    while (pool.take_front(r))
      taken.fetch_add(1, std::memory_order_relaxed);
    return m_inner->acquire(w, out);
  }
  [[nodiscard]] std::string_view name() const noexcept override { return "ranked-taker"; }

  locus::ext::shared_pool pool{locus::ext::shared_pool::order::ranked};
  std::atomic<std::uint64_t> taken{0};

 private:
  std::once_flag m_bound;
  std::shared_ptr<locus::ext::acquisition> m_inner = locus::ext::slaw_acquisition();
};

// With every worker asleep, a ranked push from outside the runtime wakes one (the pool's
// domain): without the wake-up nobody would look at the pool again.
TEST(ExtRankedPool, APushWakesASleeperOfItsDomain) {
  auto taker = std::make_shared<ranked_taker>();
  locus::config c;
  c.workers = 2;
  c.pin = false;
  c.custom_scheduler = std::make_shared<locus::ext::scheduler>(
      locus::ext::scheduler{"ranked-taker", taker, nullptr});
  locus::runtime rt{c};
  EXPECT_EQ(rt.run(locus_test::fib(15)), 610);  // every worker has looked: the pool is bound
  ASSERT_TRUE(taker->pool.bound());
  ASSERT_TRUE(locus_test::wait_until_all_asleep(rt));
  ASSERT_TRUE(taker->pool.push_ranked(item(8, 4)));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (taker->taken.load() == 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_EQ(taker->taken.load(), 1u);
}

}  // namespace
