// Places (SLAW section IV) on a virtual 2-socket machine: tasks spawned at a place run there,
// through its mailbox; cross-place stealing is off unless asked for.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>

#include "test_support.hpp"

namespace {
locus::config two_sockets(bool cross = false) {
  locus::config c;
  c.topology = "sockets=2,cores=2";
  c.workers = 4;
  c.places = "socket";
  c.cross_place_steals = cross;
  return c;
}

locus::task<int> where_am_i() {
  co_return locus::this_worker::place();
}

locus::task<int> spawn_at(unsigned p) {
  auto f = co_await locus::spawn(where_am_i(), locus::at(p));
  co_await locus::sync();
  co_return f.get();
}

locus::task<void> record_place(std::atomic<int>* wrong, int expected) {
  if (locus::this_worker::place() != expected) wrong->fetch_add(1);
  long x = co_await locus_test::fib(10);  // its children stay in the place too
  if (x != 55) wrong->fetch_add(100);
  co_return;
}

locus::task<void> many_at(std::atomic<int>* wrong) {
  for (int i = 0; i < 200; ++i) {
    const unsigned p = static_cast<unsigned>(i % 2);
    co_await locus::spawn(record_place(wrong, static_cast<int>(p)), locus::at(p));
    co_await locus::async(record_place(wrong, static_cast<int>(p)), locus::at(p));
  }
  co_await locus::sync();
}

locus::task<int> bad_place() {
  try {
    co_await locus::spawn(where_am_i(), locus::at(9));
  } catch (const std::out_of_range&) {
    co_return 1;
  }
  co_return 0;
}
}  // namespace

TEST(Places, DefaultIsOnePlacePerSocket) {
  locus::runtime rt{two_sockets()};
  EXPECT_EQ(rt.num_places(), 2u);
  EXPECT_EQ(rt.place_of(0), 0u);
  EXPECT_EQ(rt.place_of(1), 0u);
  EXPECT_EQ(rt.place_of(2), 1u);
  EXPECT_EQ(rt.place_of(3), 1u);
}

TEST(Places, TaskSpawnedAtAPlaceRunsOnAWorkerOfThatPlace) {
  locus::runtime rt{two_sockets()};
  for (int rep = 0; rep < 50; ++rep) {
    EXPECT_EQ(rt.run(spawn_at(1)), 1);
    EXPECT_EQ(rt.run(spawn_at(0)), 0);
  }
  EXPECT_GT(rt.stats().total().spawns_remote, 0u);
  EXPECT_GT(rt.stats().total().mailbox_takes, 0u);
}

TEST(Places, ManyRemoteSpawnsAndAsyncsStayInTheirPlaces) {
  locus::runtime rt{two_sockets()};
  std::atomic<int> wrong{0};
  rt.run(many_at(&wrong));
  EXPECT_EQ(wrong.load(), 0);
}

TEST(Places, RootCanBeRunAtAPlace) {
  locus::runtime rt{two_sockets()};
  EXPECT_EQ(rt.run(where_am_i(), locus::at(1)), 1);
  EXPECT_THROW((void)rt.run(where_am_i(), locus::at(5)), std::out_of_range);
}

TEST(Places, SpawnAtANonexistentPlaceThrows) {
  locus::runtime rt{two_sockets()};
  EXPECT_EQ(rt.run(bad_place()), 1);
}

TEST(Places, WithoutCrossPlaceStealingOtherPlacesNeverStealFib) {
  locus::runtime rt{two_sockets(false)};
  EXPECT_EQ(rt.run(locus_test::fib(22)), 17711);
  for (const auto& w : rt.stats().workers)
    if (w.place == 1) EXPECT_EQ(w.steals_succeeded + w.mailbox_takes, 0u);
}

TEST(Places, CrossPlaceStealingSpreadsWork) {
  locus::runtime rt{two_sockets(true)};
  EXPECT_EQ(rt.run(locus_test::fib(24)), 46368);
}
