// The per-worker frame stack: LIFO reuse, out-of-order and remote frees, stacklet retirement.
#include "locus/detail/frame_stack.hpp"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

using locus::detail::block_header;
using locus::detail::frame_stack;
using locus::detail::k_block_header;

namespace {
block_header* header_of(void* p) {
  return reinterpret_cast<block_header*>(static_cast<char*>(p) - k_block_header);
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
  EXPECT_EQ(header_of(big)->heap, 1u);
  locus::detail::heap_block_free(header_of(big));
}
