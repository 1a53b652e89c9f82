// The spawn and sync fast paths (docs/design/0016): the join counter that starts at zero, SLAW's
// re-evaluation moved out of line, spawn(t) without options, frames freed off the current
// stacklet, a call's result.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "locus/detail/scheduler.hpp"
#include "test_support.hpp"

using namespace locus_test;

namespace {

/// A frame header alone, as the join protocol sees it (no coroutine needed).
struct bare_frame : locus::detail::frame {};

}  // namespace

// Children that complete before their frame arrives at the sync never bring the counter to
// zero (the counter is minus their number, below zero); the frame, arriving after all of them,
// continues itself.
TEST(JoinCounter, ChildrenBeforeTheArrivalNeverReachZeroAndTheFrameContinues) {
  bare_frame f;
  f.m_expected = 3;
  for (int i = 0; i < 3; ++i)
    EXPECT_FALSE(locus::detail::child_arrive(f)) << "child " << i;
  EXPECT_TRUE(locus::detail::join_arrive(f));
  locus::detail::after_join(f);
  EXPECT_EQ(f.m_join.load(), 0);
  EXPECT_EQ(f.m_expected, 0u);
}

// The frame arrives first (or between its children): only the last child brings the counter to
// zero, and then it, not the frame, continues the frame.
TEST(JoinCounter, TheLastChildAfterTheArrivalContinuesTheFrame) {
  for (std::uint32_t before = 0; before < 4; ++before) {
    bare_frame f;
    f.m_expected = 4;
    for (std::uint32_t i = 0; i < before; ++i)
      EXPECT_FALSE(locus::detail::child_arrive(f));
    EXPECT_FALSE(locus::detail::join_arrive(f)) << before << " children before the arrival";
    for (std::uint32_t i = before; i + 1 < 4; ++i)
      EXPECT_FALSE(locus::detail::child_arrive(f)) << "child " << i << " is not the last";
    EXPECT_TRUE(locus::detail::child_arrive(f)) << "the last child continues the frame";
  }
}

// A second epoch starts from a reset counter: the first epoch's arrival left nothing behind.
TEST(JoinCounter, AfterJoinStartsTheNextEpochFromZero) {
  bare_frame f;
  f.m_expected = 1;
  EXPECT_FALSE(locus::detail::join_arrive(f));
  EXPECT_TRUE(locus::detail::child_arrive(f));
  locus::detail::after_join(f);
  EXPECT_EQ(f.m_sync_epoch, 1u);
  f.m_expected = 2;
  EXPECT_FALSE(locus::detail::child_arrive(f));
  EXPECT_FALSE(locus::detail::join_arrive(f));
  EXPECT_TRUE(locus::detail::child_arrive(f));
}

// SLAW re-evaluates every INT spawns; choose_spawn returns `reevaluate` at the INT-th spawn and
// the re-evaluation runs out of line. With INT = 2 on one worker: the first spawn is help-first
// (SLAW starts there), the second re-evaluates (nothing stolen: work-first), and it stays
// work-first. An off-by-one in the count makes it 0 or 2 help-first spawns.
TEST(Adaptive, ReevaluatesAtTheIntervalsEnd) {
  for (const std::uint32_t interval : {2u, 3u, 5u}) {
    locus::config c{.workers = 1};
    c.slaw.interval = interval;
    locus::runtime rt{c};
    EXPECT_EQ(rt.run(fib(12)), 144);
    const auto t = rt.stats().total();
    EXPECT_EQ(t.spawns_help_first, interval - 1) << "INT " << interval;
    EXPECT_EQ(t.policy_switches, 1u) << "INT " << interval;
  }
}

namespace {

locus::task<long> fib_with(int n, locus::spawn_options o) {
  if (n < 2) co_return n;
  auto a = co_await locus::spawn(fib_with(n - 1, o), o);
  const long b = co_await fib_with(n - 2, o);
  co_await locus::sync();
  co_return a.get() + b;
}

}  // namespace

// spawn(t) folds the runtime's policy in as a constant; spawn(t, o) reads o. Each obeys its own.
TEST(Spawn, WithoutOptionsFollowsTheRuntimesPolicyWithOptionsTheirs) {
  locus::runtime rt{locus::config{.workers = 1, .policy = locus::spawn_policy::help_first}};
  EXPECT_EQ(rt.run(fib(10)), 55);  // test_support's fib: spawn(t), no options
  auto t = rt.stats().total();
  EXPECT_EQ(t.spawns_work_first, 0u);
  EXPECT_EQ(t.spawns_help_first, 88u);  // fib(10) spawns
  rt.reset_stats();
  EXPECT_EQ(rt.run(fib_with(10, locus::work_first)), 55);
  t = rt.stats().total();
  EXPECT_EQ(t.spawns_work_first, 88u);
  EXPECT_EQ(t.spawns_help_first, 0u);
}

namespace {

/// Bytes kept live across a sync, so they are in the coroutine frame: more than a stacklet,
/// so the frame is a heap block (frame_stack.hpp, "Layout").
constexpr std::size_t k_big = locus::detail::k_stacklet_bytes + 4096;

locus::task<long> big_frame(int n) {
  std::array<unsigned char, k_big> bytes{};
  bytes[static_cast<std::size_t>(n) % k_big] = static_cast<unsigned char>(n);
  long below = 0;
  if (n > 0) {
    auto child = co_await locus::spawn(big_frame(n - 1));
    below = co_await big_frame(n - 1);
    co_await locus::sync();
    below += child.get();
  }
  co_return below + bytes[static_cast<std::size_t>(n) % k_big];
}

}  // namespace

// A frame too large for a stacklet comes from the heap; freeing it on a worker goes round the
// current-stacklet test (frame_deallocate reads the heap flag only after that test fails).
// Spawned and called, freed by futures and by calls, on one and two workers.
TEST(FrameFree, HeapFramesAreFreedOnWorkersAndOffThem) {
  for (const unsigned workers : {1u, 2u}) {
    locus::runtime rt{locus::config{.workers = workers}};
    // big_frame(n) = 2 big_frame(n - 1) + n, big_frame(0) = 0: the plain recursion.
    const auto expect = [](auto& self, int n) -> long {
      return n > 0 ? 2 * self(self, n - 1) + n : 0;
    };
    EXPECT_EQ(rt.run(big_frame(6)), expect(expect, 6)) << workers << " workers";
  }
  // Off the workers: made and destroyed unrun on this thread (heap_block_free).
  { auto t = big_frame(1); }
}

namespace {

locus::task<int&> ref_to(int& x) {
  co_return x;
}
locus::task<int> throws_after_call() {
  int v = 41;
  int& r = co_await ref_to(v);  // completed_result: a reference
  ++r;
  throw std::runtime_error("after " + std::to_string(v));
}
locus::task<int> calls_a_thrower() {
  co_return co_await throws_after_call();  // completed_result: the exception
}

}  // namespace

// A call's await_resume tests only the exception (the child has completed): a reference comes
// back, and an exception is rethrown, not mistaken for a missing value.
TEST(Call, ResultIsTheValueOrTheExceptionNeverMissing) {
  locus::runtime rt{locus::config{.workers = 1}};
  try {
    (void)rt.run(calls_a_thrower());
    FAIL() << "the exception was lost";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "after 42");
  }
}
