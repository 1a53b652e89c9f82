// locality_home_map_test.cpp — the page table of homes: packing, first touch, placement,
// interleave, clear, errors, and racing first touches.
#include <locus/locality/home_map.hpp>

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <thread>
#include <vector>

#include "locality_support.hpp"

namespace {

using locality_test::message_of;
using locus::home;
using locus::home_map;

constexpr std::size_t k_page = home_map::page_bytes;

/// A fake address: the map never dereferences what it is given.
const void* at(std::uintptr_t a) {
  return reinterpret_cast<const void*>(a);
}

TEST(LocalityHomeMap, HomePacksKindAndIndexInto32Bits) {
  static_assert(sizeof(home) == 4);
  EXPECT_TRUE(home{}.is_none());
  EXPECT_EQ(home{}.where(), home::kind::none);
  const home c = home::on_core(17), n = home::on_numa(3), p = home::on_package(1);
  EXPECT_EQ(c.where(), home::kind::core);
  EXPECT_EQ(c.index(), 17U);
  EXPECT_EQ(n.where(), home::kind::numa);
  EXPECT_EQ(n.index(), 3U);
  EXPECT_EQ(p.where(), home::kind::package);
  EXPECT_EQ(home::from_bits(p.bits()), p);
  EXPECT_NE(home::on_core(0), home{});  // core 0 is a home, not "none"
  EXPECT_NE(home::on_core(1), home::on_numa(1));
  const auto m = message_of<std::invalid_argument>([] { (void)home::on_core(1U << 30); });
  EXPECT_NE(m.find("home core=\"1073741824\" is not valid; expected an index below 2^30"),
            std::string::npos)
      << m;
}

TEST(LocalityHomeMap, UnknownPagesHaveNoHomeAndCostNothing) {
  home_map m;
  EXPECT_TRUE(m.home_of(at(0x1234000)).is_none());
  m.clear(at(0x1234000), 1 << 20);
  EXPECT_EQ(m.table_bytes(), 0U);
}

TEST(LocalityHomeMap, FirstTouchSetsOnlyPagesWithoutAHome) {
  home_map m;
  const std::uintptr_t base = 0x7f0000000000;
  EXPECT_EQ(m.first_touch(at(base + 2 * k_page), 2 * k_page, home::on_core(1)), 2U);
  // Pages 0..4: 0, 1, 4 are new; 2, 3 keep core 1.
  EXPECT_EQ(m.first_touch(at(base), 5 * k_page, home::on_core(2)), 3U);
  EXPECT_EQ(m.home_of(at(base)), home::on_core(2));
  EXPECT_EQ(m.home_of(at(base + 2 * k_page + 100)), home::on_core(1));
  EXPECT_EQ(m.home_of(at(base + 3 * k_page)), home::on_core(1));
  EXPECT_EQ(m.home_of(at(base + 5 * k_page - 1)), home::on_core(2));
  EXPECT_TRUE(m.home_of(at(base + 5 * k_page)).is_none());
  EXPECT_GT(m.table_bytes(), 0U);
}

TEST(LocalityHomeMap, UnalignedRangesCoverEveryPageTheyTouch) {
  home_map m;
  const std::uintptr_t base = 0x10000000;
  // 2 bytes straddling a page boundary: two pages.
  EXPECT_EQ(m.first_touch(at(base + k_page - 1), 2, home::on_numa(0)), 2U);
  EXPECT_EQ(m.home_of(at(base)), home::on_numa(0));
  EXPECT_EQ(m.home_of(at(base + k_page)), home::on_numa(0));
  EXPECT_EQ(m.first_touch(at(base), 0, home::on_numa(1)), 0U);
}

TEST(LocalityHomeMap, ClaimReturnsTheWinningHome) {
  home_map m;
  EXPECT_EQ(m.claim(at(0x5000), home::on_core(4)), home::on_core(4));
  EXPECT_EQ(m.claim(at(0x5fff), home::on_core(5)), home::on_core(4));
}

TEST(LocalityHomeMap, PlaceOverwritesAndClearForgets) {
  home_map m;
  const std::uintptr_t base = 0x20000000;
  (void)m.first_touch(at(base), 4 * k_page, home::on_core(0));
  m.place(at(base + k_page), 2 * k_page, home::on_package(3));
  EXPECT_EQ(m.home_of(at(base)), home::on_core(0));
  EXPECT_EQ(m.home_of(at(base + k_page)), home::on_package(3));
  EXPECT_EQ(m.home_of(at(base + 2 * k_page)), home::on_package(3));
  EXPECT_EQ(m.home_of(at(base + 3 * k_page)), home::on_core(0));
  m.clear(at(base), 4 * k_page);
  for (std::size_t i = 0; i < 4; ++i)
    EXPECT_TRUE(m.home_of(at(base + i * k_page)).is_none());
}

TEST(LocalityHomeMap, InterleaveIsPageRoundRobin) {
  home_map m;
  const std::uintptr_t base = 0x30000000;
  const std::array<home, 3> homes{home::on_numa(0), home::on_numa(1), home::on_numa(2)};
  m.interleave(at(base), 7 * k_page, homes);
  for (std::size_t i = 0; i < 7; ++i)
    EXPECT_EQ(m.home_of(at(base + i * k_page)), homes[i % 3]) << i;
}

// Ranges crossing the 16 MiB leaf windows (and a 32 GiB interior window) count every page once.
TEST(LocalityHomeMap, RangesSpanningLeavesAndInteriorNodes) {
  home_map m;
  const std::uintptr_t gib32 = std::uintptr_t{32} << 30;
  const std::uintptr_t start = 3 * gib32 - 5 * k_page;
  EXPECT_EQ(m.first_touch(at(start), 10 * k_page, home::on_core(9)), 10U);
  EXPECT_EQ(m.home_of(at(3 * gib32 - 1)), home::on_core(9));
  EXPECT_EQ(m.home_of(at(3 * gib32)), home::on_core(9));
  EXPECT_TRUE(m.home_of(at(start + 10 * k_page)).is_none());
  const std::array<home, 2> two{home::on_core(1), home::on_core(2)};
  m.interleave(at(start), 10 * k_page, two);
  EXPECT_EQ(m.home_of(at(3 * gib32)), home::on_core(2));  // the 5th page (0-based)
  // A large range: 40 MiB over three leaves.
  EXPECT_EQ(m.first_touch(at(std::uintptr_t{1} << 40), 40 << 20, home::on_core(0)),
            (40U << 20) / k_page);
}

TEST(LocalityHomeMap, NoneIsNotAHomeToSet) {
  home_map m;
  auto msg = message_of<std::invalid_argument>([&] { m.place(at(0x1000), 1, home{}); });
  EXPECT_NE(msg.find("home_map::place home=\"none\" is not valid"), std::string::npos) << msg;
  msg = message_of<std::invalid_argument>([&] { (void)m.first_touch(at(0x1000), 1, home{}); });
  EXPECT_NE(msg.find("home_map::first_touch home=\"none\""), std::string::npos) << msg;
  msg = message_of<std::invalid_argument>(
      [&] { m.interleave(at(0x1000), k_page, std::span<const home>()); });
  EXPECT_NE(msg.find("home_map::interleave homes=\"{}\" is not valid; expected at least one home"),
            std::string::npos)
      << msg;
}

// Threads first-touch overlapping ranges at once: every page gets exactly one home, the home of
// a thread whose range holds it, and the pages each thread reports setting add up to the union.
TEST(LocalityHomeMap, RacingFirstTouchesGiveEachPageExactlyOneHome) {
  home_map m;
  constexpr unsigned threads = 6;
  constexpr std::size_t pages = 8192;  // 32 MiB: three leaves
  const std::uintptr_t base = (std::uintptr_t{5} << 32) - 1000 * k_page;
  auto first_page = [](unsigned t) { return t * pages / 8; };
  auto last_page = [](unsigned t) { return t * pages / 8 + pages / 2; };  // exclusive
  std::atomic<std::size_t> set{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      while (!go.load(std::memory_order_acquire))
        std::this_thread::yield();
      // Page by page from the end for odd threads, so the races cover both directions.
      std::size_t mine = 0;
      if (t % 2 == 0) {
        mine = m.first_touch(at(base + first_page(t) * k_page),
                             (last_page(t) - first_page(t)) * k_page, home::on_core(t));
      } else {
        for (std::size_t p = last_page(t); p-- > first_page(t);)
          mine += m.claim(at(base + p * k_page), home::on_core(t)) == home::on_core(t) ? 1 : 0;
      }
      set.fetch_add(mine);
    });
  }
  go.store(true, std::memory_order_release);
  for (auto& th : pool)
    th.join();
  const std::size_t union_pages = last_page(threads - 1) - first_page(0);
  EXPECT_EQ(set.load(), union_pages);
  for (std::size_t p = 0; p < union_pages; ++p) {
    const home h = m.home_of(at(base + p * k_page));
    ASSERT_EQ(h.where(), home::kind::core) << p;
    ASSERT_GE(p, first_page(h.index())) << p;
    ASSERT_LT(p, last_page(h.index())) << p;
  }
}

}  // namespace
