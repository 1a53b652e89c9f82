// Regression tests for the place defects of issue #6: the place rule at joins (a task stays in
// its place when a remote child, async or callee completes it) and cross-place stealing from a
// sleeping place. The other core regressions are in core_regression_test.cpp.
//
// Each test names the behaviour it checks; the comment above it says how the code before the
// fix (commit 78cbc40) failed it.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

#include "test_support.hpp"

namespace {

using namespace std::chrono_literals;

locus::task<void> nothing() {
  co_return;
}

// ---- 5. Places across joins -------------------------------------------------------------------

/// Two places of one worker each, no cross-place stealing: a frame can only be on place 1's
/// worker by being sent there (or by a bug).
locus::config two_places_of_one() {
  locus::config c;
  c.topology = "sockets=2,cores=1";
  c.workers = 2;
  c.places = "socket";
  c.cross_place_steals = false;
  return c;
}

/// Sleeps long enough that its spawner is waiting for it when it completes, then records the
/// place it ran in.
locus::task<void> slow_record_place(std::atomic<int>* where) {
  std::this_thread::sleep_for(20ms);
  where->store(locus::this_worker::place());
  co_return;
}

locus::task<int> place_of_child() {
  co_return locus::this_worker::place();
}

struct place_report {
  int before = -2;         ///< the frame's place before it waited
  int remote_child = -2;   ///< where the child sent to place 1 ran
  int after = -2;          ///< the frame's place after the wait ended on place 1's worker
  int default_child = -2;  ///< a child spawned after the wait, runtime's policy
  int help_first_child = -2;
  int callee_after = -2;  ///< (call variant) the callee's place after its own sync
};

/// Spawns two children after the wait and records where they ran.
locus::task<void> record_children_places(place_report* r) {
  auto a = co_await locus::spawn(place_of_child());
  auto b = co_await locus::spawn(place_of_child(), locus::help_first);
  co_await locus::sync();
  r->default_child = a.get();
  r->help_first_child = b.get();
}

locus::task<void> sync_with_a_remote_child(place_report* r) {
  r->before = locus::this_worker::place();
  std::atomic<int> child{-2};
  co_await locus::spawn(slow_record_place(&child), locus::at(1));
  co_await locus::sync();  // the child, on place 1's worker, completes last
  r->after = locus::this_worker::place();
  r->remote_child = child.load();
  co_await record_children_places(r);
}

locus::task<void> finish_body_with_a_remote_async(std::atomic<int>* child) {
  co_await locus::async(slow_record_place(child), locus::at(1));
  // The body returns at once: the async, on place 1's worker, drains the scope.
}

locus::task<void> finish_with_a_remote_async(place_report* r) {
  r->before = locus::this_worker::place();
  std::atomic<int> child{-2};
  co_await locus::finish(finish_body_with_a_remote_async(&child));
  r->after = locus::this_worker::place();
  r->remote_child = child.load();
  co_await record_children_places(r);
}

locus::task<void> callee_joined_by_a_remote_child(place_report* r) {
  std::atomic<int> child{-2};
  co_await locus::spawn(slow_record_place(&child), locus::at(1));
  co_await locus::sync();  // the callee's continuation is resumed by place 1's worker
  r->callee_after = locus::this_worker::place();
  r->remote_child = child.load();
}

locus::task<void> call_whose_callee_joined_elsewhere(place_report* r) {
  r->before = locus::this_worker::place();
  co_await callee_joined_by_a_remote_child(r);
  r->after = locus::this_worker::place();
  co_await record_children_places(r);
}

struct bad_place_report {
  bool spawn_threw = false;
  bool async_threw = false;
  bool spawn_ran_anyway = false;
};

locus::task<void> set_flag(bool* flag) {
  *flag = true;
  co_return;
}

locus::task<bad_place_report> spawn_at_all_ones() {
  bad_place_report r;
  try {
    co_await locus::spawn(set_flag(&r.spawn_ran_anyway), locus::at(0xffffffffu));
  } catch (const std::out_of_range&) {
    r.spawn_threw = true;
  }
  try {
    co_await locus::async(set_flag(&r.spawn_ran_anyway),
                          locus::at(0xffffffffu) | locus::help_first);
  } catch (const std::out_of_range&) {
    r.async_threw = true;
  }
  co_await locus::sync();
  co_return r;
}

// ---- 6. Cross-place stealing from a sleeping place -------------------------------------------

locus::task<void> nap_and_count(std::atomic<int>* per_place) {
  std::this_thread::sleep_for(2ms);
  const int p = locus::this_worker::place();
  if (p == 0 || p == 1) per_place[p].fetch_add(1, std::memory_order_relaxed);
  co_return;
}

locus::task<int> spawn_naps(int n, std::atomic<int>* per_place) {
  const int root_place = locus::this_worker::place();
  for (int i = 0; i < n; ++i)
    co_await locus::spawn(nap_and_count(per_place), locus::help_first);
  co_await locus::sync();
  co_return root_place;
}

}  // namespace

// 5. Old code: the last child joined its parent on whichever worker it completed on, so the

/// The root ran at place 0, its remote child at place 1, and after the wait the root and every
/// child it spawned afterwards were back in place 0.
static void expect_stayed_home(const place_report& r) {
  EXPECT_EQ(r.before, 0);
  EXPECT_EQ(r.remote_child, 1);
  EXPECT_EQ(r.after, 0);
  EXPECT_EQ(r.default_child, 0);
  EXPECT_EQ(r.help_first_child, 0);
}

//    parent continued on place 1's worker (after = 1) and its next children ran in place 1.
TEST(CoreRegression, TaskStaysInItsPlaceWhenARemoteChildCompletesItsSync) {
  locus::runtime rt{two_places_of_one()};
  ASSERT_EQ(rt.num_places(), 2u);
  for (int rep = 0; rep < 3; ++rep) {
    place_report r;
    rt.run(sync_with_a_remote_child(&r), locus::at(0));
    expect_stayed_home(r);
  }
}

// 5. Old code: the async that drained the finish scope resumed the waiting frame on its own
//    worker, in place 1 (after = 1).
TEST(CoreRegression, TaskStaysInItsPlaceWhenARemoteAsyncDrainsItsFinish) {
  locus::runtime rt{two_places_of_one()};
  for (int rep = 0; rep < 3; ++rep) {
    place_report r;
    rt.run(finish_with_a_remote_async(&r), locus::at(0));
    expect_stayed_home(r);
  }
}

// 5. Old code: the callee was resumed by the remote child's join on place 1's worker and then
//    returned to its caller there (callee_after = after = 1).
TEST(CoreRegression, CallerStaysInItsPlaceWhenItsCalleeWasJoinedFromAnotherPlace) {
  locus::runtime rt{two_places_of_one()};
  for (int rep = 0; rep < 3; ++rep) {
    place_report r;
    rt.run(call_whose_callee_joined_elsewhere(&r), locus::at(0));
    EXPECT_EQ(r.callee_after, 0);
    expect_stayed_home(r);
  }
}

// 5. Old code: at(0xffffffff) was the "any place" sentinel, so the spawn ran anywhere and
//    run() ran at place 0, silently.
TEST(CoreRegression, SpawnAtPlace0xffffffffThrowsOutOfRange) {
  locus::runtime rt{two_places_of_one()};
  const bad_place_report r = rt.run(spawn_at_all_ones());
  EXPECT_TRUE(r.spawn_threw);
  EXPECT_TRUE(r.async_threw);
  EXPECT_FALSE(r.spawn_ran_anyway);
  EXPECT_THROW((void)rt.run(place_of_child(), locus::at(0xffffffffu)), std::out_of_range);
}

// 6. Old code: each place had its own idle protocol, so place 1's sleeping workers were never
//    woken by work on place 0's deques: place 1 ran none of the 200 tasks (so did 4e5a04c,
//    before the shared idle domain of 858dffa).
TEST(CoreRegression, CrossPlaceStealingReachesAPlaceWhoseWorkersSleep) {
  locus::config c;
  c.topology = "sockets=2,cores=2";
  c.workers = 4;
  c.places = "socket";
  c.cross_place_steals = true;
  locus::runtime rt{c};
  ASSERT_EQ(rt.num_places(), 2u);
  rt.run(nothing());
  ASSERT_TRUE(locus_test::wait_until_all_asleep(rt)) << "the idle runtime did not fall asleep";

  constexpr int n = 200;
  std::atomic<int> per_place[2] = {0, 0};
  const int root_place = rt.run(spawn_naps(n, per_place), locus::at(0));
  EXPECT_EQ(per_place[0].load() + per_place[1].load(), n);
  EXPECT_GE(per_place[1].load(), n / 5)
      << "place 0 ran " << per_place[0].load() << ", place 1 ran " << per_place[1].load()
      << "; the root ran in place " << root_place;
}
