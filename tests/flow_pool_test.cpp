// The per-thread block pools behind task nodes and events (locus/detail/pool.hpp).
#include <gtest/gtest.h>

#include <set>
#include <thread>
#include <vector>

#include "locus/detail/frame_stack.hpp"  // LOCUS_ASAN, frame_stack_poisoned
#include "locus/detail/pool.hpp"

namespace ld = locus::detail;

TEST(FlowPool, AFreedBlockIsReusedByItsThreadLastInFirstOut) {
  std::vector<void*> a;
  for (int i = 0; i < 100; ++i)
    a.push_back(ld::pool_allocate(100));
  for (void* p : a)
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % 16, 0U);
  EXPECT_EQ(std::set<void*>(a.begin(), a.end()).size(), a.size());
  ld::pool_free(a[7], 100);
  ld::pool_free(a[3], 100);
  EXPECT_EQ(ld::pool_allocate(100), a[3]);
  EXPECT_EQ(ld::pool_allocate(97), a[7]);  // same 112-byte class
  for (void* p : a)
    ld::pool_free(p, 100);
}

TEST(FlowPool, ABlockFreedByAnotherThreadGoesBackToItsOwner) {
  // 496 bytes: a class nothing else in the test binaries uses, so this thread's free list of it
  // is empty once `mine` is taken (a remote list is only looked at when the free list is empty).
  std::vector<void*> mine;
  for (int i = 0; i < 64; ++i)
    mine.push_back(ld::pool_allocate(496));
  const std::size_t slabs = ld::pool_slab_bytes();
  std::thread other([&] {
    for (void* p : mine)
      ld::pool_free(p, 496);  // remote frees: onto this thread's remote list
  });
  other.join();
  // The owner's free list is empty, so it takes the remote list: the same blocks come back and
  // no new slab is made.
  std::set<void*> again;
  for (int i = 0; i < 64; ++i)
    again.insert(ld::pool_allocate(496));
  EXPECT_EQ(again, std::set<void*>(mine.begin(), mine.end()));
  EXPECT_EQ(ld::pool_slab_bytes(), slabs);
  for (void* p : again)
    ld::pool_free(p, 496);
}

TEST(FlowPool, LargeRequestsGoToTheHeap) {
  void* p = ld::pool_allocate(ld::k_pool_max_bytes + 1);
  ASSERT_NE(p, nullptr);
  ld::pool_free(p, ld::k_pool_max_bytes + 1);
  EXPECT_EQ(ld::pool_block_bytes(40), 48U);
  EXPECT_EQ(ld::pool_block_bytes(144), 144U);
}

#if LOCUS_ASAN
TEST(FlowPool, AFreedBlockIsPoisonedUnderAsan) {
  auto* p = static_cast<char*>(ld::pool_allocate(64));
  EXPECT_FALSE(ld::frame_stack_poisoned(p + 8));
  ld::pool_free(p, 64);
  EXPECT_TRUE(ld::frame_stack_poisoned(p + 8));  // past the free-list link
  EXPECT_EQ(ld::pool_allocate(64), p);
  EXPECT_FALSE(ld::frame_stack_poisoned(p + 8));
  ld::pool_free(p, 64);
}
#endif
