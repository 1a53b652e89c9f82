// The Chase–Lev deque: single-thread semantics and a multi-threaded no-loss/no-dup stress, for
// every form of the owner's pop (pop_fence; the forms' own races: deque_fence_test).
#include "locus/detail/deque.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

using locus::detail::deque;
using locus::detail::pop_fence;

TEST(Deque, OwnerPopsLifoThiefStealsFifo) {
  deque<std::uintptr_t> d(4);
  for (std::uintptr_t i = 1; i <= 3; ++i)
    d.push(i);
  std::uintptr_t v = 0;
  ASSERT_TRUE(d.steal(v));
  EXPECT_EQ(v, 1u);
  ASSERT_TRUE(d.pop(v));
  EXPECT_EQ(v, 3u);
  ASSERT_TRUE(d.pop(v));
  EXPECT_EQ(v, 2u);
  EXPECT_FALSE(d.pop(v));
  EXPECT_FALSE(d.steal(v));
}

TEST(Deque, GrowsPastInitialCapacityKeepingOrder) {
  deque<std::uintptr_t> d(2);
  for (std::uintptr_t i = 0; i < 1000; ++i)
    d.push(i);
  EXPECT_GE(d.capacity(), 1000u);
  EXPECT_EQ(d.size_hint(), 1000);
  std::uintptr_t v = 0;
  for (std::uintptr_t i = 0; i < 10; ++i) {
    ASSERT_TRUE(d.steal(v));
    EXPECT_EQ(v, i);
  }
  for (std::uintptr_t i = 999; i >= 10; --i) {
    ASSERT_TRUE(d.pop(v));
    EXPECT_EQ(v, i);
  }
  EXPECT_FALSE(d.pop(v));
}

TEST(Deque, EmptyAfterPopOfLastItemRestoresState) {
  deque<std::uintptr_t> d;
  std::uintptr_t v = 0;
  EXPECT_FALSE(d.pop(v));
  d.push(7);
  ASSERT_TRUE(d.pop(v));
  EXPECT_EQ(v, 7u);
  EXPECT_FALSE(d.pop(v));
  d.push(8);
  ASSERT_TRUE(d.steal(v));
  EXPECT_EQ(v, 8u);
}

namespace {

// One owner pushes and pops 10^6 items while three thieves steal; every item must be taken
// exactly once (no loss, no duplication), including across ring growth. `quiet_pops`: the
// adaptive form's run of pops with no steal before the owner drops its fence.
void stress_no_loss(pop_fence fence,
                    std::uint32_t quiet_pops = locus::detail::k_default_quiet_pops) {
  constexpr std::uintptr_t k_items = 1'000'000;
  deque<std::uintptr_t> d(16, fence, quiet_pops);
  ASSERT_EQ(d.fence(), fence);
  std::vector<std::atomic<std::uint8_t>> seen(k_items + 1);
  std::atomic<bool> done{false};
  std::atomic<std::uint64_t> taken{0};
  auto take = [&](std::uintptr_t v) {
    seen[v].fetch_add(1, std::memory_order_relaxed);
    taken.fetch_add(1, std::memory_order_relaxed);
  };
  std::vector<std::thread> thieves;
  for (int t = 0; t < 3; ++t) {
    thieves.emplace_back([&] {
      std::uintptr_t v = 0;
      while (!done.load(std::memory_order_acquire)) {
        if (d.steal(v)) take(v);
      }
      while (d.steal(v))
        take(v);
    });
  }
  std::uintptr_t next = 1;
  std::uintptr_t v = 0;
  while (next <= k_items) {
    const int burst = static_cast<int>(next % 7) + 1;
    for (int i = 0; i < burst && next <= k_items; ++i)
      d.push(next++);
    if (next % 3 == 0 && d.pop(v)) take(v);
  }
  while (d.pop(v))
    take(v);
  done.store(true, std::memory_order_release);
  for (auto& t : thieves)
    t.join();
  EXPECT_EQ(taken.load(), k_items);
  for (std::uintptr_t i = 1; i <= k_items; ++i)
    ASSERT_EQ(seen[i].load(), 1) << "item " << i;
}

}  // namespace

TEST(Deque, StressNoItemLostOrDuplicated) {
  stress_no_loss(pop_fence::full);
}

TEST(Deque, StressNoItemLostOrDuplicatedAsymmetric) {
  if (!locus::detail::asymmetric_fence_available())
    GTEST_SKIP() << "membarrier(PRIVATE_EXPEDITED) is not available here";
  stress_no_loss(pop_fence::asymmetric);
}

// The adaptive form with its default quiet run, and with a run of 3 pops, which switches the
// owner to the fence and back all the time while the thieves steal.
TEST(Deque, StressNoItemLostOrDuplicatedAdaptive) {
  if (!locus::detail::asymmetric_fence_available())
    GTEST_SKIP() << "membarrier(PRIVATE_EXPEDITED) is not available here";
  stress_no_loss(pop_fence::adaptive);
  stress_no_loss(pop_fence::adaptive, 3);
}

// owner_sees_empty (the idle loop's look before pop, worker.cpp): never "empty" while an item
// is there. Single-threaded through every transition, then against thieves: whenever the owner
// sees empty, its pop right after must find nothing (only the owner pushes).
TEST(Deque, OwnerSeesEmptyOnlyWhenNothingIsLeft) {
  deque<std::uintptr_t> d(2);
  std::uintptr_t v = 0;
  EXPECT_TRUE(d.owner_sees_empty());
  d.push(1);
  EXPECT_FALSE(d.owner_sees_empty());
  ASSERT_TRUE(d.pop(v));
  EXPECT_TRUE(d.owner_sees_empty());
  d.push(2);
  d.push(3);
  ASSERT_TRUE(d.steal(v));
  EXPECT_FALSE(d.owner_sees_empty());
  ASSERT_TRUE(d.steal(v));
  EXPECT_TRUE(d.owner_sees_empty());
  EXPECT_FALSE(d.pop(v));
  EXPECT_TRUE(d.owner_sees_empty());  // the failed pop restored bottom

  constexpr int k_rounds = 200'000;
  std::atomic<bool> done{false};
  std::atomic<std::uint64_t> stolen{0};
  std::thread thief([&] {
    std::uintptr_t x = 0;
    while (!done.load(std::memory_order_acquire))
      if (d.steal(x)) stolen.fetch_add(1, std::memory_order_relaxed);
  });
  std::uint64_t popped = 0, wrong = 0;
  for (int r = 0; r < k_rounds; ++r) {
    d.push(static_cast<std::uintptr_t>(r) + 10);
    if ((r & 1) != 0) d.push(static_cast<std::uintptr_t>(r) + 11);
    for (;;) {
      if (d.owner_sees_empty()) {
        if (d.pop(v)) {
          ++wrong;
          ++popped;
        }
        break;
      }
      if (d.pop(v)) ++popped;
    }
  }
  done.store(true, std::memory_order_release);
  thief.join();
  EXPECT_EQ(wrong, 0u);
  EXPECT_EQ(popped + stolen.load(), static_cast<std::uint64_t>(k_rounds + k_rounds / 2));
}
