// The frame stack across stacklet boundaries: pop-back to a retired stacklet when a path
// retracts (no segment waste when it grows again), the count handed back from `remote`
// while other threads free blocks, and a stacklet reused in place restarting its count.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "locus/detail/frame_stack.hpp"

using locus::detail::block_header;
using locus::detail::frame_stack;
using locus::detail::k_block_header;
using locus::detail::k_stacklet_bytes;

namespace {
block_header* header_of(void* p) {
  return reinterpret_cast<block_header*>(static_cast<char*>(p) - k_block_header);
}

constexpr std::size_t k_payload = 1000;  // a 1024-byte block
constexpr std::size_t k_per_stacklet = k_stacklet_bytes / 1024;

/// A block stamped with its index in every word, so a block overwritten while live is seen.
void* stamped(frame_stack& s, std::uint64_t id) {
  void* p = s.allocate(k_payload);
  auto* w = static_cast<std::uint64_t*>(p);
  for (std::size_t i = 0; i < k_payload / sizeof(std::uint64_t); ++i)
    w[i] = id;
  return p;
}
bool intact(const void* p, std::uint64_t id) {
  const auto* w = static_cast<const std::uint64_t*>(p);
  for (std::size_t i = 0; i < k_payload / sizeof(std::uint64_t); ++i)
    if (w[i] != id) return false;
  return true;
}
}  // namespace

// A stacklet whose every frame is dead is reused in place; its count must restart at zero on
// both sides. Before the fix `remote` kept -1 from a frame freed by another thread, so with
// three frames made and one of them freed remotely the stack believed itself empty, dropped
// its top onto the two live frames and handed their bytes out again.
TEST(FrameStackReuse, AStackletReusedInPlaceRestartsItsRemoteCount) {
  frame_stack s;
  void* a = s.allocate(k_payload);
  frame_stack::free_remote(header_of(a));  // another thread's free: remote -1, local_live 1
  std::vector<void*> fill;
  while (fill.size() + 2 < k_per_stacklet)
    fill.push_back(s.allocate(k_payload));
  for (void* p : fill)
    s.deallocate_local(header_of(p));     // holes, then the top: it stays high, nothing lives
  void* big = s.allocate(8 * k_payload);  // does not fit above the top: the slow path
  EXPECT_EQ(frame_stack::stacklet_of(big), frame_stack::stacklet_of(a)) << "reused in place";
  s.deallocate_local(header_of(big));
  void* b = stamped(s, 1);
  void* c = stamped(s, 2);
  void* d = stamped(s, 3);
  frame_stack::free_remote(header_of(d));
  s.deallocate_local(header_of(c));  // not the top: d's block is above it
  void* e = stamped(s, 4);
  EXPECT_NE(e, b) << "a live frame's bytes were handed out again";
  EXPECT_TRUE(intact(b, 1));
  s.deallocate_local(header_of(e));
  s.deallocate_local(header_of(b));
}

// A path that crosses a stacklet boundary, retracts below it and grows again, twenty times:
// with pop-back the stack holds the retired stacklet and one spare. Without it every regrowth
// went to other stacklets while the retired one kept its freed upper part: three stacklets.
TEST(FrameStackPopBack, AnOscillatingPathHoldsTwoStacklets) {
  frame_stack s;
  std::vector<void*> path;
  const std::size_t high = k_per_stacklet + k_per_stacklet / 2;
  const std::size_t low = k_per_stacklet / 2;
  for (int round = 0; round < 20; ++round) {
    while (path.size() < high)
      path.push_back(stamped(s, path.size()));
    while (path.size() > low) {
      ASSERT_TRUE(intact(path.back(), path.size() - 1));
      s.deallocate_local(header_of(path.back()));
      path.pop_back();
    }
  }
  EXPECT_LE(s.peak_bytes(), 2 * k_stacklet_bytes);
  // The path's bottom half went back to being the current stacklet's own: LIFO frees of it
  // pop the top again, and a regrowth reuses the bytes just freed.
  void* top = path.back();
  s.deallocate_local(header_of(top));
  path.pop_back();
  EXPECT_EQ(stamped(s, 99), top);
  s.deallocate_local(header_of(top));
  while (!path.empty()) {
    ASSERT_TRUE(intact(path.back(), path.size() - 1));
    s.deallocate_local(header_of(path.back()));
    path.pop_back();
  }
  EXPECT_LE(s.held_bytes(), k_stacklet_bytes);  // the spare; the current one is empty
}

// A deep path retracting across several boundaries leaves several empty stacklets behind. They
// are kept as spares, and the regrowth switches to them: no stacklet is made twice. The first
// pop-back kept one spare and gave the others back, so every regrowth made (and faulted in)
// fresh stacklets: PDFS, with thousands of crossings a run, was about 50% slower.
TEST(FrameStackPopBack, ARetractedDeepPathLeavesSparesThatItsRegrowthReuses) {
  frame_stack s;
  std::vector<void*> path;
  const std::size_t deep = 5 * k_per_stacklet;
  const std::size_t low = k_per_stacklet / 4;
  while (path.size() < deep)
    path.push_back(stamped(s, path.size()));
  const std::size_t owned = s.stacklets_owned();
  EXPECT_GE(owned, 6u);
  for (int round = 0; round < 10; ++round) {
    while (path.size() > low) {
      ASSERT_TRUE(intact(path.back(), path.size() - 1));
      s.deallocate_local(header_of(path.back()));
      path.pop_back();
    }
    EXPECT_LE(s.held_bytes(), k_stacklet_bytes) << "retracted: only the bottom is held";
    while (path.size() < deep)
      path.push_back(stamped(s, path.size()));
    EXPECT_EQ(s.stacklets_owned(), owned) << "round " << round << ": a stacklet was made again";
  }
  while (!path.empty()) {
    ASSERT_TRUE(intact(path.back(), path.size() - 1));
    s.deallocate_local(header_of(path.back()));
    path.pop_back();
  }
  EXPECT_EQ(s.stacklets_owned(), owned);
}

// Pop-back takes a retired stacklet's live count back from `remote` with one exchange while
// another thread frees that stacklet's blocks (a thief destroying stolen children): every
// free lands on one side of the exchange. A miscount would drop a top onto live frames (seen
// as a broken stamp) or keep a dead stacklet forever (seen in the bytes held at the end).
TEST(FrameStackPopBack, RemoteFreesRacingWithPopBackKeepEveryFrame) {
  frame_stack s;
  for (int round = 0; round < 200; ++round) {
    // A path over three stacklets; every third block is "stolen": freed by the other thread.
    std::vector<void*> path;
    std::vector<std::uint64_t> ids;
    std::vector<void*> stolen;
    const std::size_t depth = 3 * k_per_stacklet;
    for (std::size_t i = 0; i < depth; ++i) {
      const std::uint64_t id = (std::uint64_t(round) << 32) | i;
      void* p = stamped(s, id);
      if (i % 3 == 1) {
        stolen.push_back(p);
      } else {
        path.push_back(p);
        ids.push_back(id);
      }
    }
    std::atomic<bool> go{false};
    std::thread thief([&] {
      while (!go.load(std::memory_order_acquire)) {
      }
      for (void* p : stolen)
        frame_stack::free_remote(header_of(p));
    });
    go.store(true, std::memory_order_release);
    // The owner retracts meanwhile: its frees pop back through the retired stacklets.
    while (!path.empty()) {
      ASSERT_TRUE(intact(path.back(), ids.back())) << "round " << round;
      s.deallocate_local(header_of(path.back()));
      path.pop_back();
      ids.pop_back();
    }
    thief.join();
  }
  // Everything is freed: whatever is held is empty stacklets, reusable. A count that never
  // came back to zero would keep its stacklet retired for good, and 200 rounds of three
  // stacklets would pile them up; a path of the same depth again fits in what is there. The
  // path needs four stacklets (a stacklet holds 255 of these blocks beside its header); a
  // round whose top blocks were still out with the thief leaves its stacklets retired until
  // they are reused, so allow two more.
  constexpr std::size_t bound = 6 * k_stacklet_bytes;
  EXPECT_LE(s.held_bytes(), bound);
  std::vector<void*> again;
  for (std::size_t i = 0; i < 3 * k_per_stacklet - 8; ++i)
    again.push_back(s.allocate(k_payload));
  EXPECT_LE(s.held_bytes(), bound);
  for (auto it = again.rbegin(); it != again.rend(); ++it)
    s.deallocate_local(header_of(*it));
}
