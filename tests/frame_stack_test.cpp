// The per-worker frame stack: LIFO reuse, out-of-order and remote frees, stacklet retirement,
// the peak since a reset, and ASan poisoning of freed frames.
#include "locus/detail/frame_stack.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <locus/locus.hpp>
#include <thread>
#include <utility>
#include <vector>

using locus::detail::block_header;
using locus::detail::frame_stack;
using locus::detail::frame_stack_poisoned;
using locus::detail::k_asan;
using locus::detail::k_block_header;

namespace {
block_header* header_of(void* p) {
  return reinterpret_cast<block_header*>(static_cast<char*>(p) - k_block_header);
}
char* alloc(frame_stack& s, std::size_t n) {
  return static_cast<char*>(s.allocate(n));
}

locus::task<int> leaf() {
  co_return 7;
}

/// Makes a child frame on this worker's frame stack, runs it, frees it, then reports whether
/// it was addressable while alive and poisoned once freed.
locus::task<int> free_a_frame(bool* poisoned_while_live, bool* poisoned_after_free) {
  auto t = leaf();
  const void* frame = &t.promise();
  *poisoned_while_live = frame_stack_poisoned(frame);
  const int v = co_await std::move(t);
  { auto dead = std::move(t); }  // destroys the frame: freed on this worker
  *poisoned_after_free = frame_stack_poisoned(frame);
  co_return v;
}

/// Reads a byte of a child's coroutine frame after freeing it.
locus::task<int> read_a_freed_frame() {
  auto t = leaf();
  const auto* frame = reinterpret_cast<const volatile char*>(&t.promise());
  (void)co_await std::move(t);
  { auto dead = std::move(t); }
  co_return frame[0];
}
}  // namespace

TEST(FrameStack, LifoFreesReuseTheSameBytes) {
  frame_stack s;
  void* a = s.allocate(100);
  void* b = s.allocate(200);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a) % 16, 0u);
  s.deallocate_local(header_of(b));
  void* c = s.allocate(200);
  EXPECT_EQ(b, c);
  s.deallocate_local(header_of(c));
  s.deallocate_local(header_of(a));
  EXPECT_EQ(s.allocate(100), a);
}

TEST(FrameStack, HolesAreReclaimedWhenEverythingIsFreed) {
  frame_stack s;
  void* a = s.allocate(64);
  void* b = s.allocate(64);
  s.deallocate_local(header_of(a));  // a hole below b
  s.deallocate_local(header_of(b));  // now empty: the stack restarts at its base
  EXPECT_EQ(s.allocate(64), a);
}

// A stacklet keeps no count until its first hole, which counts the blocks below the top by
// walking their headers (frame_stack.hpp, "Counted after a hole"). A miscount shows as the
// top dropping to the base under a live frame: the next allocation would then overlap it.
TEST(FrameStack, TheFirstHoleCountsTheBlocksBelowTheTop) {
  frame_stack s;
  char* a = alloc(s, 64);
  char* b = alloc(s, 100);
  char* c = alloc(s, 64);
  char* d = alloc(s, 300);
  s.deallocate_local(header_of(b));  // the first hole: 4 blocks counted, 3 left
  s.deallocate_local(header_of(d));  // on top: 2 left (a, c)
  s.deallocate_local(header_of(c));  // on top: 1 left (a), so the top stays above b's hole
  char* e = alloc(s, 64);
  EXPECT_EQ(e, c);  // not a's bytes: a lives
  s.deallocate_local(header_of(e));
  s.deallocate_local(header_of(a));  // the last one, below the top: the stacklet restarts
  EXPECT_EQ(alloc(s, 64), a);
}

// The walk steps over a block another thread freed (poisoned under ASan, header and all) and
// counts it as the owner's: `remote` holds its free.
TEST(FrameStack, TheFirstHoleStepsOverBlocksFreedRemotely) {
  frame_stack s;
  char* a = alloc(s, 64);
  char* b = alloc(s, 64);
  char* c = alloc(s, 64);
  std::thread([&] { frame_stack::free_remote(header_of(a)); }).join();
  s.deallocate_local(header_of(b));  // the first hole: a, b, c counted; live: c alone
  char* d = alloc(s, 64);
  EXPECT_GT(d, c);  // c lives: nothing restarted
  s.deallocate_local(header_of(d));
  s.deallocate_local(header_of(c));
  EXPECT_EQ(alloc(s, 64), c);  // LIFO reuse above b's hole
}

TEST(FrameStack, RemoteFreesAndRetirementKeepCountsRight) {
  frame_stack s;
  std::vector<void*> blocks;
  // Several stacklets' worth of frames, so some get retired.
  for (int i = 0; i < 6000; ++i)
    blocks.push_back(s.allocate(200));
  EXPECT_GE(s.peak_bytes(), 6000u * 200);
  // Free half of them from another thread (remote frees), the rest locally.
  std::thread other([&] {
    for (std::size_t i = 0; i < blocks.size(); i += 2)
      frame_stack::free_remote(frame_stack::stacklet_of(header_of(blocks[i])));
  });
  other.join();
  for (std::size_t i = 1; i < blocks.size(); i += 2)
    s.deallocate_local(header_of(blocks[i]));
  // Every stacklet is now empty: allocating as much again must reuse them, not grow the peak.
  const std::size_t peak = s.peak_bytes();
  for (int i = 0; i < 6000; ++i)
    blocks[static_cast<std::size_t>(i)] = s.allocate(200);
  EXPECT_LE(s.peak_bytes(), peak + locus::detail::k_stacklet_bytes);
  for (auto it = blocks.rbegin(); it != blocks.rend(); ++it)
    s.deallocate_local(header_of(*it));
}

TEST(FrameStack, OversizedBlocksComeFromTheHeap) {
  frame_stack s;
  void* big = s.allocate(locus::detail::k_stacklet_bytes * 2);
  EXPECT_TRUE(header_of(big)->heap());
  locus::detail::heap_block_free(header_of(big));
}

/// Where the frame stack that frame_allocate uses (t_frames) is, seen from a task.
locus::task<bool> frames_are_the_workers() {
  co_return locus::detail::t_frames == &locus::detail::t_worker->stack();
}

// t_frames is never null: off the workers it is the stand-in, which owns no stacklet and gives
// every frame a heap block (before a runtime exists too), and on a worker it is the worker's
// own stack. A coroutine made off the workers (the root task of run) lives on the heap.
TEST(FrameStack, OffTheWorkersFramesComeFromTheHeapThroughTheStandIn) {
  frame_stack& stand_in = locus::detail::g_off_worker_frames.stack;
  EXPECT_EQ(locus::detail::t_frames, &stand_in);
  void* p = locus::detail::frame_allocate(64);
  EXPECT_TRUE(header_of(p)->heap());
  locus::detail::frame_deallocate(p);
  std::thread other([&] {
    void* q = locus::detail::frame_allocate(64);
    EXPECT_TRUE(header_of(q)->heap());
    locus::detail::frame_deallocate(q);
  });
  other.join();
  EXPECT_EQ(stand_in.stacklets_owned(), 0u);

  locus::runtime rt{locus::config{}};
  auto root = frames_are_the_workers();
  EXPECT_TRUE(header_of(root.promise().address())->heap()) << "made on the test's thread";
  EXPECT_TRUE(rt.run(frames_are_the_workers()));
  EXPECT_EQ(locus::detail::t_frames, &stand_in);
}

// reset_peak() restarts the peak from what is held, not from zero: a peak below the bytes in
// use would be a lie. Sizes: a block is its payload rounded up to 16 plus a 16-byte header.
TEST(FrameStackPeak, AResetRestartsFromTheBytesStillHeld) {
  frame_stack s;
  void* a = s.allocate(1000);  // 1024 bytes
  void* b = s.allocate(4000);  // 4016 bytes
  EXPECT_EQ(s.peak_bytes(), 1024u + 4016u);
  s.deallocate_local(header_of(b));
  s.reset_peak();
  EXPECT_EQ(s.peak_bytes(), 1024u);  // a is still held
  void* c = s.allocate(2000);        // 2016 bytes
  EXPECT_EQ(s.peak_bytes(), 1024u + 2016u);
  s.deallocate_local(header_of(c));
  EXPECT_EQ(s.peak_bytes(), 1024u + 2016u);
  s.deallocate_local(header_of(a));
  s.reset_peak();
  EXPECT_EQ(s.peak_bytes(), 0u);
  void* d = s.allocate(16);
  EXPECT_EQ(s.peak_bytes(), 32u);
  s.deallocate_local(header_of(d));
}

// Resets from another thread while the owner allocates and frees: the peak reported after
// the last reset is never below the bytes held then, and once the owner allocates again it
// follows what the owner holds.
TEST(FrameStackPeak, ResetsFromAnotherThreadAreNeverLost) {
  frame_stack s;
  std::vector<void*> live;
  for (int i = 0; i < 200; ++i)
    live.push_back(s.allocate(100));  // 200 * 128 bytes held throughout
  std::atomic<bool> stop{false};
  std::thread resetter([&] {
    while (!stop.load())
      s.reset_peak();
  });
  for (int round = 0; round < 2000; ++round) {
    void* big = s.allocate(100'000);
    s.deallocate_local(header_of(big));
  }
  stop.store(true);
  resetter.join();
  s.reset_peak();
  EXPECT_EQ(s.peak_bytes(), 200u * 128);
  void* x = s.allocate(100);
  EXPECT_EQ(s.peak_bytes(), 201u * 128);
  s.deallocate_local(header_of(x));
  for (auto it = live.rbegin(); it != live.rend(); ++it)
    s.deallocate_local(header_of(*it));
}

// Under AddressSanitizer only the live blocks of a stacklet (header and rounded payload) are
// addressable; the rest of it, and a block once freed, are poisoned. The stacklet header stays
// addressable. In other builds nothing is poisoned.
TEST(FrameStackAsan, OnlyLiveBlocksAreAddressable) {
  frame_stack s;
  char* a = alloc(s, 100);  // payload rounded to 112
  EXPECT_FALSE(frame_stack_poisoned(header_of(a)));
  EXPECT_FALSE(frame_stack_poisoned(a));
  EXPECT_FALSE(frame_stack_poisoned(a + 111));
  EXPECT_EQ(frame_stack_poisoned(a + 112), k_asan);  // free space above the block
  EXPECT_FALSE(frame_stack_poisoned(frame_stack::stacklet_of(a)));
  char* b = alloc(s, 32);
  EXPECT_EQ(b, a + 112 + k_block_header);
  EXPECT_FALSE(frame_stack_poisoned(header_of(b)));
  s.deallocate_local(header_of(b));
  EXPECT_EQ(frame_stack_poisoned(b), k_asan);
  EXPECT_EQ(frame_stack_poisoned(header_of(b)), k_asan);
  EXPECT_FALSE(frame_stack_poisoned(a + 111));  // the neighbour stays usable
  s.deallocate_local(header_of(a));
  EXPECT_EQ(frame_stack_poisoned(a), k_asan);
  EXPECT_EQ(frame_stack_poisoned(header_of(a)), k_asan);
  // Reallocated: addressable again, exactly the block.
  char* c = alloc(s, 100);
  EXPECT_EQ(c, a);
  EXPECT_FALSE(frame_stack_poisoned(header_of(c)));
  EXPECT_FALSE(frame_stack_poisoned(c + 111));
  EXPECT_EQ(frame_stack_poisoned(c + 112), k_asan);
  s.deallocate_local(header_of(c));
}

// A free from another thread (a stolen child freed by its parent on the thief) poisons the
// block and nothing of its live neighbours.
TEST(FrameStackAsan, RemoteFreePoisonsOnlyTheBlock) {
  frame_stack s;
  char* a = alloc(s, 64);
  char* b = alloc(s, 64);
  char* c = alloc(s, 64);
  std::thread([&] { frame_stack::free_remote(header_of(b)); }).join();
  EXPECT_EQ(frame_stack_poisoned(header_of(b)), k_asan);
  EXPECT_EQ(frame_stack_poisoned(b + 63), k_asan);
  EXPECT_FALSE(frame_stack_poisoned(a + 63));
  EXPECT_FALSE(frame_stack_poisoned(header_of(c)));
  EXPECT_FALSE(frame_stack_poisoned(c + 63));
  s.deallocate_local(header_of(c));
  s.deallocate_local(header_of(a));
  EXPECT_EQ(frame_stack_poisoned(a), k_asan);
  EXPECT_EQ(frame_stack::stacklet_of(a), frame_stack::stacklet_of(alloc(s, 64)));
}

// Frames spread over several stacklets, freed in every way; the freed stacklets stay
// poisoned until they are reused, and reuse makes exactly the new blocks addressable.
TEST(FrameStackAsan, FreedStackletsStayPoisonedUntilReused) {
  frame_stack s;
  std::vector<char*> blocks;
  for (int i = 0; i < 3000; ++i)  // 3000 * 224 bytes: three stacklets
    blocks.push_back(alloc(s, 200));
  std::thread other([&] {
    for (std::size_t i = 0; i < blocks.size(); i += 3)
      frame_stack::free_remote(header_of(blocks[i]));
  });
  other.join();
  for (std::size_t i = blocks.size(); i-- > 0;)
    if (i % 3 != 0) s.deallocate_local(header_of(blocks[i]));
  std::size_t addressable = 0;
  for (char* b : blocks)
    addressable += frame_stack_poisoned(b) ? 0 : 1;
  EXPECT_EQ(addressable, k_asan ? 0u : blocks.size());
  for (char*& b : blocks)
    b = alloc(s, 200);
  std::size_t poisoned = 0;
  for (char* b : blocks)
    poisoned += frame_stack_poisoned(header_of(b)) || frame_stack_poisoned(b + 199) ? 1 : 0;
  EXPECT_EQ(poisoned, 0u);
  EXPECT_EQ(frame_stack_poisoned(blocks.back() + 200 + k_block_header), k_asan);
  for (auto it = blocks.rbegin(); it != blocks.rend(); ++it)
    s.deallocate_local(header_of(*it));
}

// The same on a worker: a coroutine frame is addressable while alive, poisoned once freed.
TEST(FrameStackAsan, AFrameFreedOnAWorkerIsPoisoned) {
  locus::runtime rt{locus::config{.workers = 1}};
  bool poisoned_while_live = true;
  bool poisoned_after_free = false;
  EXPECT_EQ(rt.run(free_a_frame(&poisoned_while_live, &poisoned_after_free)), 7);
  EXPECT_FALSE(poisoned_while_live);
  EXPECT_EQ(poisoned_after_free, k_asan);
}

// What the poisoning is for: ASan reports a read of a freed frame.
TEST(FrameStackAsanDeathTest, ReadingAFreedBlockIsReported) {
  if (!k_asan) GTEST_SKIP() << "AddressSanitizer builds only";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        frame_stack s;
        char* p = alloc(s, 64);
        s.deallocate_local(header_of(p));
        std::printf("%d\n", *static_cast<volatile char*>(p + 8));
      },
      "use-after-poison");
}

TEST(FrameStackAsanDeathTest, ReadingAFreedCoroutineFrameIsReported) {
  if (!k_asan) GTEST_SKIP() << "AddressSanitizer builds only";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        locus::runtime rt{locus::config{.workers = 1}};
        std::printf("%d\n", rt.run(read_a_freed_frame()));
      },
      "use-after-poison");
}

// Regression (found by the dataflow tests): a stacklet full of holes is reused in place; if
// some of its frames had been freed by other threads, its remote count was negative and was
// kept, so a later free thought the stacklet empty while a frame lived and restarted the bump
// pointer under it.
TEST(FrameStack, InPlaceReuseForgetsRemoteFreesOfTheOldFrames) {
  frame_stack s;
  void* a = s.allocate(64);
  frame_stack::free_remote(header_of(a));  // freed by another thread: remote = -1
  const std::size_t big = locus::detail::k_stacklet_bytes * 3 / 4;
  void* x = s.allocate(big);
  void* y = s.allocate(64);
  s.deallocate_local(header_of(x));  // a hole below y
  s.deallocate_local(header_of(y));  // top back to y; only holes are left
  // Does not fit behind the hole: the slow path reuses the stacklet in place.
  void* p1 = s.allocate(big / 2);
  void* p2 = s.allocate(64);
  s.deallocate_local(header_of(p1));  // p2 still lives
  char* p3 = static_cast<char*>(s.allocate(big / 2 + 64));
  char* q2 = static_cast<char*>(p2);
  const bool overlaps = p3 < q2 + 64 && q2 < p3 + big / 2 + 64;
  EXPECT_FALSE(overlaps) << "a new block was placed over a live one";
  s.deallocate_local(header_of(p3));
  s.deallocate_local(header_of(p2));
}
