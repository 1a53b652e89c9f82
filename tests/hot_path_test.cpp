// The spawn and sync fast paths (docs/design/0016): the join counter that starts at zero, SLAW's
// re-evaluation moved out of line, spawn(t) without options, frames freed off the current
// stacklet, a call's result, calls in place (docs/design/0020).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

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

namespace {

locus::task<long> fib_with(int n, locus::spawn_options o) {
  if (n < 2) co_return n;
  auto a = co_await locus::spawn(fib_with(n - 1, o), o);
  const long b = co_await fib_with(n - 2, o);
  co_await locus::sync();
  co_return a.get() + b;
}

}  // namespace

// Once SLAW's heuristic says work-first, condition (iii) decides every spawn, but the stack
// condition (i) is tested before it and must still hold: with S = 4 every spawn whose child
// would be the fourth frame of the on-stack chain goes help-first and is counted. One worker,
// INT = 2: one help-first spawn before the switch (the chain is short then), every other one is
// a stack condition's. A fast path for the work-first state that skipped condition (i) would
// count none.
TEST(Adaptive, TheWorkFirstStateStillAppliesTheStackCondition) {
  locus::config c{.workers = 1};
  c.slaw.interval = 2;
  c.slaw.stack_limit = 4;
  locus::runtime rt{c};
  EXPECT_EQ(rt.run(fib(14)), 377);
  const auto t = rt.stats().total();
  EXPECT_GT(t.stack_condition, 0u);
  EXPECT_EQ(t.spawns_help_first, 1u + t.stack_condition);
  EXPECT_GT(t.spawns_work_first, 0u);
  EXPECT_EQ(t.policy_switches, 1u);
}

// An explicit `adaptive` option reads the worker's heuristic and its interval count like a
// default spawn: the counts are the default form's (ReevaluatesAtTheIntervalsEnd): INT - 1
// help-first spawns, then one switch to work-first, for good.
TEST(Adaptive, AnExplicitAdaptiveOptionSharesTheWorkersCount) {
  for (const std::uint32_t interval : {2u, 3u}) {
    locus::config c{.workers = 1};
    c.slaw.interval = interval;
    locus::runtime rt{c};
    EXPECT_EQ(rt.run(fib_with(12, locus::adaptive)), 144);
    auto t = rt.stats().total();
    EXPECT_EQ(t.spawns_help_first, interval - 1) << "INT " << interval;
    EXPECT_EQ(t.policy_switches, 1u) << "INT " << interval;
  }
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

// ---- Calls in place (docs/design/0020, "Calls in place") ----

static_assert(locus::detail::k_in_place_call<long>);
static_assert(locus::detail::k_in_place_call<void>);
static_assert(locus::detail::k_in_place_call<const char*>);
static_assert(!locus::detail::k_in_place_call<std::string>);
static_assert(!locus::detail::k_in_place_call<std::unique_ptr<int>>);
static_assert(!locus::detail::k_in_place_call<int&>);

namespace {

std::size_t held_here() {
  return locus::detail::t_worker->stack().held_bytes();
}

locus::task<long> value_of(long v) {
  co_return v;
}
locus::task<void> nothing() {
  co_return;
}

/// Calls `n` children of each form and returns how many frame-stack bytes were still held
/// right after a call returned, beyond what was held before it (the largest such excess). The
/// bytes are read inside the call's full-expression (a braced list: left to right), while the
/// task temporary still lives: a frame freed only by the temporary's destructor would show.
locus::task<long> held_after_calls(int n, long* sum) {
  long worst = 0;
  *sum = 0;
  for (int i = 0; i < n; ++i) {
    const std::size_t before = held_here();
    const std::array<long, 2> v{co_await value_of(i), static_cast<long>(held_here())};
    *sum += v[0];
    worst = std::max(worst, v[1] - static_cast<long>(before));
    const std::array<long, 2> w{(co_await nothing(), 0L), static_cast<long>(held_here())};
    worst = std::max(worst, w[1] - static_cast<long>(before));
  }
  co_return worst;
}

}  // namespace

// A called child of a trivial result (or void) frees its own frame before its caller resumes:
// the bytes the frame stack holds right after the call are those it held before.
TEST(CallInPlace, TheChildsFrameIsFreedBeforeTheCallerResumes) {
  locus::runtime rt{locus::config{.workers = 1}};
  long sum = 0;
  EXPECT_EQ(rt.run(held_after_calls(100, &sum)), 0);
  EXPECT_EQ(sum, 99 * 100 / 2);
}

namespace {

locus::task<long> throws_now(int v) {
  if (v >= 0) throw std::runtime_error("call " + std::to_string(v));
  co_return v;
}
locus::task<void> throws_void() {
  throw std::logic_error("void call");
  co_return;
}

/// A spawned child throws first (work-first on one worker: it has completed, its exception
/// is in this frame's slot, before the calls run); a call returns normally all the same, a
/// throwing call rethrows its own exception, and the sync rethrows the spawned child's.
locus::task<std::string> calls_beside_a_failed_spawn() {
  std::string seen;
  long ignored = 0;
  co_await locus::spawn(&ignored, throws_now(1), locus::work_first);
  seen += std::to_string(co_await value_of(5)) + ";";
  try {
    (void)co_await throws_now(2);
    seen += "missed;";
  } catch (const std::runtime_error& e) {
    seen += std::string(e.what()) + ";";
  }
  try {
    co_await throws_void();
    seen += "missed;";
  } catch (const std::logic_error& e) {
    seen += std::string(e.what()) + ";";
  }
  seen += std::to_string(co_await value_of(6)) + ";";  // the field was emptied
  try {
    co_await locus::sync();
    seen += "sync missed";
  } catch (const std::runtime_error& e) {
    seen += std::string("sync: ") + e.what();
  }
  co_return seen;
}

}  // namespace

// Exceptions stay exact: a throwing called child rethrows at its call and nowhere else, and a
// spawned child's exception waits for the sync even when the calls in between run after it.
TEST(CallInPlace, ACallRethrowsItsOwnExceptionAndNotASpawnedSiblings) {
  locus::runtime rt{locus::config{.workers = 1}};
  EXPECT_EQ(rt.run(calls_beside_a_failed_spawn()), "5;call 2;void call;6;sync: call 1");
}

namespace {

/// Returns a value, then its implicit final sync finds its spawned child's exception.
locus::task<long> returns_then_child_throws(locus::spawn_options o) {
  co_await locus::spawn(locus::discard, throws_now(7), o);
  co_return 3;
}
locus::task<std::string> call_of_returns_then_throws(locus::spawn_options o) {
  try {
    const long v = co_await returns_then_child_throws(o);
    co_return "value " + std::to_string(v);
  } catch (const std::runtime_error& e) {
    co_return e.what();
  }
}

}  // namespace

// A called child that returned and whose own child then threw (its final sync) rethrows at the
// call: the exception wins over the value, as for a future. Work-first (the grandchild ran at
// once) and help-first (it runs at the child's final sync).
TEST(CallInPlace, AnExceptionAfterTheReturnWinsOverTheValue) {
  for (const auto o : {locus::work_first, locus::help_first}) {
    locus::runtime rt{locus::config{.workers = 1}};
    EXPECT_EQ(rt.run(call_of_returns_then_throws(o)), "call 7");
  }
}

namespace {

struct counted {
  std::atomic<int>* destroyed;
  explicit counted(std::atomic<int>* d) : destroyed(d) {}
  counted(const counted&) = default;
  counted& operator=(const counted&) = delete;
  ~counted() { destroyed->fetch_add(1, std::memory_order_relaxed); }
};

/// Not plain (a parameter with a destructor): the frame frees itself through its destroy
/// function.
locus::task<long> with_counted(counted c, long v) {
  (void)c;
  co_return v;
}
locus::task<void> void_with_counted(counted c) {
  (void)c;
  co_return;
}
locus::task<long> calls_counted(std::atomic<int>* destroyed, int n) {
  long sum = 0;
  for (int i = 0; i < n; ++i) {
    const counted c{destroyed};
    sum += co_await with_counted(c, i);
    co_await void_with_counted(c);
  }
  co_return sum;
}

/// Results that are not written in place (k_in_place_call false): the task temporary keeps
/// destroying the child's frame after the call read it.
locus::task<std::unique_ptr<int>> box(int v) {
  co_return std::make_unique<int>(v);
}
locus::task<std::string> text(int v) {
  co_return std::string(40, static_cast<char>('a' + v));  // past the small-string buffer
}
locus::task<std::size_t> calls_of_other_results() {
  const std::unique_ptr<int> b = co_await box(4);
  const std::string t = co_await text(1);
  co_return static_cast<std::size_t>(*b) + t.size();
}

}  // namespace

// A called frame that is not plain is destroyed exactly once (three counted objects per call:
// the caller's, the argument and the frame's copy); move-only and non-trivial results still
// arrive through the child's frame.
TEST(CallInPlace, FramesWithDestructorsAndOtherResultsAreFreedOnce) {
  std::atomic<int> destroyed{0};
  {
    locus::runtime rt{locus::config{.workers = 1}};
    EXPECT_EQ(rt.run(calls_counted(&destroyed, 50)), 49 * 50 / 2);
    EXPECT_EQ(rt.run(calls_of_other_results()), 44u);
  }
  // Per iteration: c, and for each of the two calls the argument and the frame's copy.
  EXPECT_EQ(destroyed.load(), 50 * 5);
}

namespace {

using gate = locus_test::steal_gate;

locus::task<void> hold_until_continued(gate* g) {
  g->wait_for_continuation();
  co_return;
}

/// Called: spawns a child that holds its worker until this frame's continuation runs, which
/// only a thief can do; this frame then syncs and completes on the thief, heading its chain
/// there, with its block on the first worker's stack (the slow completion of a call in place).
locus::task<long> called_and_stolen(gate* g, bool fail) {
  co_await locus::spawn(locus::discard, hold_until_continued(g), locus::work_first);
  g->continued.store(true, std::memory_order_release);
  co_await locus::sync();
  if (fail) throw std::runtime_error("stolen call");
  co_return 11;
}
locus::task<std::string> caller_of_stolen(gate* g, bool fail) {
  try {
    const long v = co_await called_and_stolen(g, fail);
    co_return std::to_string(v);
  } catch (const std::runtime_error& e) {
    co_return e.what();
  }
}

}  // namespace

// A called child whose continuation was stolen completes on another worker: it frees its frame
// there (off that worker's current stacklet) and returns its value or its exception.
TEST(CallInPlace, AStolenCallStillReturnsItsValueOrException) {
  locus::runtime rt{locus_test::work_first_pair()};
  for (int i = 0; i < 4; ++i) {
    gate g;
    const bool fail = i % 2 == 1;
    EXPECT_EQ(rt.run(caller_of_stolen(&g, fail)), fail ? "stolen call" : "11");
    EXPECT_FALSE(g.timed_out.load()) << "the continuation was never stolen";
  }
  EXPECT_GE(rt.stats().total().steals_succeeded, 4u);
}

// fib with calls in place under every setup (steals, help-first, adaptive): the right value.
TEST(CallInPlace, FibHasTheRightValueEverywhere) {
  for (const auto& s : all_setups()) {
    locus::runtime rt{s.cfg()};
    EXPECT_EQ(rt.run(fib(18)), 2584) << s.name();
  }
}

namespace {

locus::config two_places() {
  locus::config c;
  c.topology = "sockets=2,cores=2";
  c.workers = 4;
  c.places = "socket";
  return c;
}

/// Runs at place 1; waits until its parent has (almost) reached its final suspend point, so
/// that this child's completion, on a worker of place 1, is the last arrival there.
locus::task<void> late_at_place1(const std::atomic<bool>* parent_done, bool fail) {
  while (!parent_done->load(std::memory_order_acquire))
    std::this_thread::yield();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  if (fail) throw std::runtime_error("from place 1");
  co_return;
}

/// Called at place 0; spawns at place 1 and returns without a sync: its implicit final sync
/// is joined by the child, so its completion (and the caller's resumption) starts on place 1.
locus::task<long> called_with_remote_child(std::atomic<bool>* done, bool fail) {
  co_await locus::spawn(locus::discard, late_at_place1(done, fail), locus::at(1));
  done->store(true, std::memory_order_release);
  co_return 5;
}

/// Returns the place the caller runs on after the call, times 10, plus the call's value (or 9
/// for its exception).
locus::task<int> caller_at_place0(bool fail) {
  std::atomic<bool> done{false};
  int got = 0;
  try {
    got = static_cast<int>(co_await called_with_remote_child(&done, fail));
  } catch (const std::runtime_error&) {
    got = 9;
  }
  co_return locus::this_worker::place() * 10 + got;
}

locus::task<int> at_place0(bool fail) {
  int r = -1;
  co_await locus::spawn(&r, caller_at_place0(fail), locus::at(0));
  co_await locus::sync();
  co_return r;
}

}  // namespace

// The place rule holds for a call in place whose completion another place's worker runs (its
// last child's, joining its final sync): the caller resumes in its own place, with the call's
// value or its exception.
TEST(CallInPlace, TheCallerResumesInItsOwnPlace) {
  locus::runtime rt{two_places()};
  for (int i = 0; i < 4; ++i) {
    const bool fail = i % 2 == 1;
    EXPECT_EQ(rt.run(at_place0(fail)), fail ? 9 : 5) << (fail ? "throwing" : "returning");
  }
}
