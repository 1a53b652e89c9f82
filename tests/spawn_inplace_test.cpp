// Spawns in place (locus/task.hpp: spawn(&out, t), spawn(&out, f, args...), spawn(discard, t)):
// no future; the child assigns its result to the parent's variable and frees its own frame.
// Each path a child can take is covered: run at once and its parent popped back (never
// stolen), run after its parent's continuation was stolen, pushed help-first and run later;
// exceptions, void and move-only results, frames with and without destructors.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "locus/detail/worker.hpp"
#include "test_support.hpp"

namespace {

locus::task<long> fib_in_place(int n) {
  if (n < 2) co_return n;
  long a = 0;
  co_await locus::spawn(&a, fib_in_place, n - 1);
  const long b = co_await fib_in_place(n - 2);
  co_await locus::sync();
  co_return a + b;
}

/// The same with the task form and options.
locus::task<long> fib_task_form(int n, locus::spawn_options o) {
  if (n < 2) co_return n;
  long a = 0;
  co_await locus::spawn(&a, fib_task_form(n - 1, o), o);
  const long b = co_await fib_task_form(n - 2, o);
  co_await locus::sync();
  co_return a + b;
}

locus::config one_worker(locus::spawn_policy p) {
  locus::config c;
  c.workers = 1;
  c.pin = false;
  c.policy = p;
  return c;
}

/// Bytes this worker's frame stack holds now (the current task's own frame included).
std::size_t held_here() {
  return locus::detail::t_worker->stack().held_bytes();
}

}  // namespace

// Under each policy on one worker (work-first: the child runs at once and pops its parent back,
// the fast path; help-first: the child waits on the deque and runs at the sync), and on four
// workers with steals, fib written in place gives fib's value.
TEST(SpawnInPlace, FibHasTheRightValueUnderEveryPolicyAndWorkerCount) {
  for (const auto& s : locus_test::all_setups()) {
    locus::runtime rt{s.cfg()};
    EXPECT_EQ(rt.run(fib_in_place(18)), 2584) << s.name();
    EXPECT_EQ(rt.run(fib_task_form(15, {})), 610) << s.name();
  }
}

// spawn(&out, t, options) obeys its options, as spawn(t, options) does.
TEST(SpawnInPlace, OptionsChooseThePolicy) {
  locus::runtime rt{one_worker(locus::spawn_policy::work_first)};
  EXPECT_EQ(rt.run(fib_task_form(10, locus::help_first)), 55);
  const auto t = rt.stats().total();
  EXPECT_EQ(t.spawns_help_first, 88u);  // every spawn of fib(10)
  EXPECT_EQ(t.spawns_work_first, 0u);
}

namespace {

locus::task<long> leaf_value(long v) {
  co_return v;
}

/// Spawns `n` children in place and returns the frame-stack bytes held after their sync minus
/// before their spawns: zero when every child freed its own frame.
locus::task<long> frames_left_after(int n, long* sum) {
  std::vector<long> out(static_cast<std::size_t>(n), -1);
  const std::size_t before = held_here();
  for (int i = 0; i < n; ++i)
    co_await locus::spawn(&out[static_cast<std::size_t>(i)], leaf_value, i);
  co_await locus::sync();
  const std::size_t after = held_here();
  *sum = 0;
  for (long v : out)
    *sum += v;
  co_return static_cast<long>(after) - static_cast<long>(before);
}

}  // namespace

// Nobody frees a child spawned in place but the child: on the fast path (work-first, parent
// popped back) and on the help-first path (run from the deque at the sync) every child's
// frame is back on the frame stack by the sync.
TEST(SpawnInPlace, EveryChildFreesItsOwnFrameByTheSync) {
  for (const auto p : {locus::spawn_policy::work_first, locus::spawn_policy::help_first}) {
    locus::runtime rt{one_worker(p)};
    long sum = 0;
    EXPECT_EQ(rt.run(frames_left_after(1000, &sum)), 0) << locus::to_string(p);
    EXPECT_EQ(sum, 999 * 1000 / 2) << locus::to_string(p);
  }
}

namespace {

using locus_test::steal_gate;

locus::task<std::string> wait_for_steal(steal_gate* g, std::string v) {
  g->wait_for_continuation();
  co_return v + "!";
}

locus::task<std::string> parent_stolen(steal_gate* g) {
  std::string out = "untouched";
  co_await locus::spawn(&out, wait_for_steal(g, "stolen"), locus::work_first);
  g->continued.store(true, std::memory_order_release);  // runs on the thief
  co_await locus::sync();
  co_return out;
}

}  // namespace

// Work-first on two workers: the child holds its worker until the parent's continuation runs,
// which only the other worker can do by stealing it. The child then completes with its parent
// taken (complete_taken: it joins the parent and frees itself), and a std::string (assigned,
// not constructed, and a frame with a destructor to run) arrives.
TEST(SpawnInPlace, StolenContinuationStillGetsTheResult) {
  locus::runtime rt{locus_test::work_first_pair()};
  for (int i = 0; i < 5; ++i) {
    steal_gate g;
    EXPECT_EQ(rt.run(parent_stolen(&g)), "stolen!");
    EXPECT_FALSE(g.timed_out.load()) << "the continuation was never stolen";
  }
  EXPECT_GE(rt.stats().total().steals_succeeded, 5u);
}

namespace {

locus::task<long> throws_before_return(int v) {
  if (v >= 0) throw std::runtime_error("child " + std::to_string(v));
  co_return v;
}

locus::task<long> out_after_throw(locus::spawn_options o, bool* rethrown) {
  long out = 7;
  co_await locus::spawn(&out, throws_before_return(3), o);
  try {
    co_await locus::sync();
  } catch (const std::runtime_error& e) {
    *rethrown = std::string(e.what()) == "child 3";
  }
  co_return out;
}

}  // namespace

// A child that throws before its co_return leaves *out as it was; the sync rethrows its
// exception (the fast path's exception test sends such a child the slow way, which moves the
// exception to the parent before the child frees itself).
TEST(SpawnInPlace, AThrowingChildLeavesOutUntouchedAndTheSyncRethrows) {
  for (const auto o : {locus::work_first, locus::help_first}) {
    locus::runtime rt{one_worker(locus::spawn_policy::adaptive)};
    bool rethrown = false;
    EXPECT_EQ(rt.run(out_after_throw(o, &rethrown)), 7);
    EXPECT_TRUE(rethrown);
  }
}

namespace {

/// Counts destructions: a parameter of this type makes a frame that is not plain (its destroy
/// function must run), so the tests see the frame destroyed exactly once.
struct counted {
  std::atomic<int>* destroyed;
  explicit counted(std::atomic<int>* d) : destroyed(d) {}
  counted(const counted& o) = default;
  counted& operator=(const counted&) = delete;
  ~counted() { destroyed->fetch_add(1, std::memory_order_relaxed); }
};

locus::task<void> touch(counted c, std::atomic<int>* ran) {
  (void)c;
  ran->fetch_add(1, std::memory_order_relaxed);
  co_return;
}

locus::task<void> spawns_voids(std::atomic<int>* destroyed, std::atomic<int>* ran, int n) {
  for (int i = 0; i < n; ++i) {
    const counted c{destroyed};
    co_await locus::spawn(locus::discard, touch(c, ran));
  }
  co_await locus::sync();
}

}  // namespace

// spawn(discard, t) for task<void>: each child runs once, and its frame (not plain: a
// parameter with a destructor) is destroyed once, through its destroy function. Three counted
// objects per child: the parent's, the argument of the call touch(c, ran) and the copy in the
// child's frame; a frame never destroyed would leave 2 per child, one destroyed twice 4.
TEST(SpawnInPlace, VoidChildrenRunOnceAndTheirFramesAreDestroyedOnce) {
  for (const auto& s : locus_test::all_setups()) {
    std::atomic<int> destroyed{0};
    std::atomic<int> ran{0};
    {
      locus::runtime rt{s.cfg()};
      rt.run(spawns_voids(&destroyed, &ran, 200));
    }
    EXPECT_EQ(ran.load(), 200) << s.name();
    EXPECT_EQ(destroyed.load(), 600) << s.name();
  }
}

namespace {

locus::task<std::unique_ptr<int>> boxed(int v) {
  co_return std::make_unique<int>(v);
}

locus::task<int> move_only_sum(int n) {
  std::vector<std::unique_ptr<int>> boxes(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i)
    co_await locus::spawn(&boxes[static_cast<std::size_t>(i)], boxed, i);
  co_await locus::sync();
  int sum = 0;
  for (const auto& b : boxes)
    sum += *b;
  co_return sum;
}

locus::task<int> discarded_values() {
  co_await locus::spawn(locus::discard, boxed(1));       // a value that needs freeing
  co_await locus::spawn(locus::discard, leaf_value, 2);  // a plain one
  co_await locus::spawn(locus::discard, boxed(3), locus::help_first);
  co_await locus::sync();
  co_return 0;
}

}  // namespace

// A move-only result is moved into *out; a discarded one is destroyed with its frame (ASan's
// leak check sees a lost unique_ptr).
TEST(SpawnInPlace, MoveOnlyResultsAreMovedAndDiscardedOnesFreed) {
  for (const auto& s : locus_test::all_setups()) {
    locus::runtime rt{s.cfg()};
    EXPECT_EQ(rt.run(move_only_sum(50)), 49 * 50 / 2) << s.name();
    EXPECT_EQ(rt.run(discarded_values()), 0) << s.name();
  }
}

namespace {

locus::task<std::size_t> length_of(const std::string& s) {
  co_return s.size();
}

locus::task<std::size_t> callables(std::size_t* by_lambda) {
  std::string s = "four";
  std::size_t by_ref = 0;
  // A reference parameter: the argument is decay-copied into a wrapper frame, so changing s
  // before the (help-first) child runs does not change what it sees.
  co_await locus::spawn(&by_ref, length_of, s);
  const auto body = [s]() -> locus::task<std::size_t> { co_return s.size() * 2; };
  co_await locus::spawn(by_lambda, body);  // a closure: kept alive by the wrapper frame
  s = "changed before the children ran";
  co_await locus::sync();
  co_return by_ref;
}

static_assert(locus::detail::by_value_function<locus::task<long> (*)(int)>::value);
static_assert(
    !locus::detail::by_value_function<locus::task<std::size_t> (*)(const std::string&)>::value);

}  // namespace

// spawn(&out, f, args...): a function taking references, or any other callable, goes through a
// wrapper frame that owns f and copies of args (as spawn(f, args...) does); a function taking
// values is called directly (by_value_function).
TEST(SpawnInPlace, CallablesAndReferenceParametersAreCopiedLikeSpawnF) {
  locus::runtime rt{one_worker(locus::spawn_policy::help_first)};
  std::size_t by_lambda = 0;
  EXPECT_EQ(rt.run(callables(&by_lambda)), 4u);
  EXPECT_EQ(by_lambda, 8u);
}

namespace {

locus::task<long> mixed(int n) {
  if (n < 2) co_return n;
  long a = 0;
  co_await locus::spawn(&a, mixed, n - 1);       // in place
  auto b = co_await locus::spawn(mixed(n - 2));  // a future
  co_await locus::sync();
  co_return a + b.get();
}

}  // namespace

// Both forms in one frame, under steals: the future form keeps working beside the new one.
TEST(SpawnInPlace, MixesWithFuturesInOneFrame) {
  for (const auto& s : locus_test::all_setups()) {
    locus::runtime rt{s.cfg()};
    EXPECT_EQ(rt.run(mixed(16)), 987) << s.name();
  }
}
