// The frame header's hot-path shapes (docs/design/0020, "Issue 20: the header and the ramp"):
// the coroutine's address derived from the header's (no m_handle field), the constructor's
// block of zeros, the futures' own fields (m_parent_epoch, m_parent_expected, stored by the
// spawns that make a future), the allocation's one compare against the high-water mark.
#include <gtest/gtest.h>

#include <atomic>
#include <coroutine>
#include <cstdint>
#include <thread>
#include <vector>

#include "locus/detail/frame_stack.hpp"
#include "locus/detail/scheduler.hpp"
#include "test_support.hpp"

namespace {

using locus::detail::frame;
using locus::detail::frame_stack;
using locus::detail::k_block_header;
using locus::detail::k_stacklet_bytes;

struct alignas(16) wide {
  std::uint64_t a;
  std::uint64_t b;
};

locus::task<long> value_task(long v) {
  co_return v;
}
locus::task<void> void_task() {
  co_return;
}
int g_referee = 7;
locus::task<int&> ref_task() {
  co_return g_referee;
}
locus::task<wide> wide_task() {
  co_return wide{1, 2};
}

template <class T>
void expect_address_is_from_promise(locus::task<T>& t) {
  auto& p = t.promise();
  const void* from_promise =
      std::coroutine_handle<locus::detail::promise<T>>::from_promise(p).address();
  const frame& f = p;
  EXPECT_EQ(f.address(), from_promise);
  EXPECT_EQ(f.handle().address(), from_promise);
}

}  // namespace

// handle() is the header's address less k_promise_offset: the same address from_promise gives,
// for every promise kind and for a result aligned to 16 (the largest alignment allowed). Off the
// workers (heap frames) and on one (frame-stack frames).
TEST(FrameHeader, TheHandleIsTheOneFromPromiseForEveryPromiseKind) {
  {
    auto a = value_task(1);
    auto b = void_task();
    auto c = ref_task();
    auto d = wide_task();
    expect_address_is_from_promise(a);
    expect_address_is_from_promise(b);
    expect_address_is_from_promise(c);
    expect_address_is_from_promise(d);
  }
  locus::runtime rt{locus::config{.workers = 1}};
  const long got = rt.run([]() -> locus::task<long> {
    auto a = value_task(3);
    auto d = wide_task();
    expect_address_is_from_promise(a);
    expect_address_is_from_promise(d);
    // And the handle resumes the right coroutine: called through it, the tasks run.
    const long v = co_await std::move(a);
    const wide w = co_await std::move(d);
    co_return v + static_cast<long>(w.a + w.b);
  }());
  EXPECT_EQ(got, 6);
}

namespace {

/// Spawns `n` children and syncs, then reads its own header (through `self`, which its caller
/// set): m_next_spawn = n and m_sync_epoch = 1, the counters a later frame on this block must
/// not inherit.
locus::task<long> spawns_and_syncs(int n, const frame* const* self, std::uint32_t* next_spawn,
                                   std::uint32_t* sync_epoch) {
  std::vector<long> out(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i)
    co_await locus::spawn(&out[static_cast<std::size_t>(i)], value_task(i));
  co_await locus::sync();
  *next_spawn = (*self)->m_next_spawn;
  *sync_epoch = (*self)->m_sync_epoch;
  long s = 0;
  for (long v : out)
    s += v;
  co_return s;
}

struct header_seen {
  const void* first = nullptr;
  const void* second = nullptr;
  std::uint32_t first_next_spawn = 0;
  std::uint32_t first_sync_epoch = 0;
  bool second_zeroed = false;
  bool second_plain = false;
  long sum = 0;
};

bool header_is_zeroed(const frame& f) {
  return f.m_join.load() == 0 && !f.m_exception.has() && f.m_data == nullptr &&
         f.m_call_exception == nullptr && f.m_expected == 0 && f.m_sync_epoch == 0 &&
         f.m_next_spawn == 0 && f.m_orphan.load() == locus::detail::k_owned && !f.m_at_final;
}

locus::task<void> reuse_a_block(header_seen& s) {
  {
    // A task made, run by a call and left with non-zero counters, then freed ...
    const frame* self = nullptr;
    auto t = spawns_and_syncs(5, &self, &s.first_next_spawn, &s.first_sync_epoch);
    self = &t.promise();
    s.first = self->address();
    s.sum = co_await std::move(t);
  }
  // ... (a call in place frees its own frame, so the next frame of this worker's stack takes
  // its block): the new header must read as zeros all the same.
  auto u = value_task(0);
  const frame& f = u.promise();
  s.second = f.address();
  s.second_zeroed = header_is_zeroed(f);
  s.second_plain = f.m_plain;
  // Run by a call, which hands the frame over (it frees itself): clang then cannot elide the
  // allocation into this frame (HALO), so the frame is the frame stack's.
  s.sum += co_await std::move(u);
}

}  // namespace

// The constructor clears [m_join, m_work_first) with one memset: a frame made on a block that
// a finished frame (its spawn count and sync epoch advanced) just gave back reads as zeros.
TEST(FrameHeader, ANewFrameOnAReusedBlockStartsZeroed) {
  locus::runtime rt{locus::config{.workers = 1}};
  header_seen s;
  rt.run(reuse_a_block(s));
  EXPECT_EQ(s.sum, 0 + 1 + 2 + 3 + 4);
  ASSERT_EQ(s.first, s.second) << "the test needs the second frame on the first one's block";
  ASSERT_EQ(s.first_next_spawn, 5u) << "the block held non-zero counters";
  ASSERT_EQ(s.first_sync_epoch, 1u) << "the block held non-zero counters";
  EXPECT_TRUE(s.second_zeroed);
  EXPECT_TRUE(s.second_plain) << "m_plain is set after the clear (a long, an int parameter)";
  // Off a worker the header starts the same (a heap block).
  auto t = value_task(1);
  EXPECT_TRUE(header_is_zeroed(t.promise()));
}

namespace {

locus::task<long> slow_value(long v, std::atomic<bool>& go) {
  while (!go.load())
    std::this_thread::yield();
  co_return v;
}

struct future_seen {
  bool ready_before_sync = true;
  bool ready_after_sync = false;
  long value = 0;
  std::size_t held_before_drop = 0;
  std::size_t held_after_drop = 0;
};

std::size_t held() {
  return locus::detail::t_worker->stack().held_bytes();
}

locus::task<void> future_epochs(future_seen& s, std::atomic<bool>& go) {
  // A sync before the spawn moves this frame's epoch off zero: the child's m_parent_epoch must
  // be the epoch at the spawn, not a zero left by the constructor.
  co_await locus::sync();
  auto f = co_await locus::spawn(slow_value(5, go), locus::help_first);
  s.ready_before_sync = f.ready();
  go.store(true);
  co_await locus::sync();
  s.ready_after_sync = f.ready();
  s.value = f.get();
  // A work-first child whose parent was popped back (one worker): dropping its future frees
  // its frame at once, by m_parent_expected (future::reset). Were the field not the parent's
  // m_expected at the spawn, the drop would leave the frame to a completion that is over.
  s.held_before_drop = held();
  { auto g = co_await locus::spawn(value_task(2), locus::work_first); }
  s.held_after_drop = held();
}

}  // namespace

// m_parent_epoch and m_parent_expected are stored by the spawns that make a future (not by
// link()): ready() is false before the parent's sync and true after it, whatever the epoch;
// a dropped future of a finished work-first child frees its frame at once.
TEST(FrameHeader, AFuturesEpochIsTheParentsAtTheSpawn) {
  for (const unsigned workers : {1u, 2u}) {
    locus::runtime rt{locus::config{.workers = workers}};
    future_seen s;
    std::atomic<bool> go{false};
    rt.run(future_epochs(s, go));
    EXPECT_FALSE(s.ready_before_sync) << workers;
    EXPECT_TRUE(s.ready_after_sync) << workers;
    EXPECT_EQ(s.value, 5) << workers;
    if (workers == 1) EXPECT_EQ(s.held_after_drop, s.held_before_drop);
  }
}

// allocate() compares a block's end with the stacklet's high-water mark only, and the end only
// when the mark rises. After reset_peak() lowered the mark (to the top), blocks that raise it
// again must still stop at the stacklet's end and go to a new stacklet, never past the end.
TEST(FrameStackAllocate, RaisingTheMarkAfterAResetStillStopsAtTheEnd) {
  frame_stack s;
  constexpr std::size_t k_block = 4000;  // 4016 with the header
  std::vector<void*> blocks;
  // Fill most of the first stacklet, free it all (the mark stays high), reset the peak (the
  // mark drops to the top, the stacklet's base).
  for (int i = 0; i < 40; ++i)
    blocks.push_back(s.allocate(k_block));
  for (auto it = blocks.rbegin(); it != blocks.rend(); ++it)
    s.deallocate_local(
        reinterpret_cast<locus::detail::block_header*>(static_cast<char*>(*it) - k_block_header));
  blocks.clear();
  s.reset_peak();
  EXPECT_EQ(s.peak_bytes(), 0u);
  // Now fill past one stacklet: every block lies wholly inside its own stacklet.
  const std::size_t n = 2 * k_stacklet_bytes / (k_block + k_block_header);
  for (std::size_t i = 0; i < n; ++i) {
    char* p = static_cast<char*>(s.allocate(k_block));
    blocks.push_back(p);
    const auto* st = frame_stack::stacklet_of(p);
    EXPECT_LE(p + k_block, reinterpret_cast<const char*>(st) + k_stacklet_bytes) << "block " << i;
    EXPECT_EQ(frame_stack::stacklet_of(p + k_block - 1), st) << "block " << i;
  }
  EXPECT_GE(s.stacklets_owned(), 2u);
  EXPECT_GE(s.peak_bytes(), n * (k_block + k_block_header));
  for (auto it = blocks.rbegin(); it != blocks.rend(); ++it)
    s.deallocate_local(
        reinterpret_cast<locus::detail::block_header*>(static_cast<char*>(*it) - k_block_header));
}

namespace {

locus::task<long> plus_one(long v) {
  co_return v + 1;
}

using in_place_form = decltype(locus::spawn(std::declval<long*>(), plus_one, 1L));
using in_place_task_form = decltype(locus::spawn(std::declval<long*>(), plus_one(1)));
using discard_form = decltype(locus::spawn(locus::discard, plus_one(1)));
using optioned_form = decltype(locus::spawn(std::declval<long*>(), plus_one(1), locus::at(0)));
template <class A>
using transformed =
    decltype(std::declval<locus::detail::promise_base&>().await_transform(std::declval<A&&>()));

// co_await spawn(&out, ...) without options runs an in_place_spawn_op, a prvalue that owns no
// task (gcc 12 moves an awaiter that await_transform passes through by reference: a task moved
// and tested twice). With options the awaiter itself (it may throw in await_ready).
static_assert(std::is_same_v<transformed<in_place_form>, locus::detail::in_place_spawn_op<long>>);
static_assert(
    std::is_same_v<transformed<in_place_task_form>, locus::detail::in_place_spawn_op<long>>);
static_assert(std::is_same_v<transformed<discard_form>, locus::detail::in_place_spawn_op<long>>);
static_assert(std::is_same_v<transformed<optioned_form>, optioned_form&&>);
static_assert(std::is_trivially_destructible_v<locus::detail::in_place_spawn_op<long>>);
// The operation is the child's handle alone: `out` goes to the child's promise in
// locus_operation, so nothing copies {out, child} as one wide load right after the ramp stored
// `child` (a store-forwarding stall: task.hpp, in_place_spawn_op).
static_assert(sizeof(locus::detail::in_place_spawn_op<long>) == sizeof(void*));

struct op_seen {
  std::vector<long> a;
  long b = 0;
  long dropped_before = 0;
};

locus::task<void> through_the_op(op_seen& s, int n) {
  // Unawaited spawns keep their child owned by the awaiter: freed with it, never started.
  { auto unawaited = locus::spawn(&s.dropped_before, plus_one, 41L); }
  s.a.assign(static_cast<std::size_t>(n), 0);
  for (int i = 0; i < n; ++i) {
    co_await locus::spawn(&s.a[static_cast<std::size_t>(i)], plus_one, static_cast<long>(i));
    co_await locus::spawn(locus::discard, plus_one(2));
  }
  co_await locus::spawn(&s.b, plus_one(10));
  co_await locus::sync();
}

}  // namespace

// The operation runs the spawn as the awaiter did: values arrive, an unawaited spawn runs
// nothing, on one worker (never stolen) and on two (stolen at times).
TEST(FrameHeader, TheInPlaceSpawnOperationSpawnsAsTheAwaiterDid) {
  for (const unsigned workers : {1u, 2u}) {
    locus::runtime rt{locus::config{.workers = workers}};
    op_seen s;
    rt.run(through_the_op(s, 100));
    for (std::size_t i = 0; i < s.a.size(); ++i)
      EXPECT_EQ(s.a[i], static_cast<long>(i) + 1) << workers << " workers, child " << i;
    EXPECT_EQ(s.b, 11) << workers;
    EXPECT_EQ(s.dropped_before, 0) << workers;
  }
}
