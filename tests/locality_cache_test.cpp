// locality_cache_test.cpp — the LRU cache model against a hand-computed trace and a reference.
#include <locus/config.hpp>
#include <locus/locality/cache_model.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <list>
#include <random>
#include <stdexcept>

#include "locality_support.hpp"

namespace {

using locality_test::message_of;
using locus::cache_counts;
using locus::cache_model;

constexpr std::uintptr_t k_base = 0x40000000;
std::uintptr_t line(unsigned i) {
  return k_base + 64 * std::uintptr_t{i};
}

// Capacity 4 lines. Trace 0 1 2 3 0 4 1 0 2 3; LRU order (most recent first) after each:
//   0 1 2 3 -> 3 2 1 0   4 misses
//   0       -> 0 3 2 1   hit
//   4       -> 4 0 3 2   miss, evicts 1
//   1       -> 1 4 0 3   miss, evicts 2
//   0       -> 0 1 4 3   hit
//   2       -> 2 0 1 4   miss, evicts 3
//   3       -> 3 2 0 1   miss, evicts 4
// Totals: 2 hits, 8 misses, 4 evictions; resident {3, 2, 0, 1}.
TEST(LocalityCache, HandComputedTraceOfFourLines) {
  cache_model c(4 * 64, 64);
  EXPECT_EQ(c.capacity_lines(), 4U);
  const unsigned trace[] = {0, 1, 2, 3, 0, 4, 1, 0, 2, 3};
  const bool hit[] = {false, false, false, false, true, false, false, true, false, false};
  for (std::size_t i = 0; i < std::size(trace); ++i)
    EXPECT_EQ(c.access_block(line(trace[i])), hit[i]) << "access " << i;
  EXPECT_EQ(c.totals(), (cache_counts{2, 8, 4}));
  for (unsigned l : {0U, 1U, 2U, 3U})
    EXPECT_TRUE(c.contains(line(l))) << l;
  EXPECT_FALSE(c.contains(line(4)));
  EXPECT_EQ(c.resident_lines(), 4U);
}

TEST(LocalityCache, RangesTouchEveryLineTheyOverlap) {
  cache_model c(4 * 64, 64);
  // 8 bytes across a line boundary: two lines, two misses.
  EXPECT_EQ(c.access(reinterpret_cast<const void*>(line(0) + 60), 8), (cache_counts{0, 2, 0}));
  // Lines 0..3 (the first two hit), then line 4 evicts line 0.
  EXPECT_EQ(c.access(reinterpret_cast<const void*>(line(0)), 5 * 64), (cache_counts{2, 3, 1}));
  EXPECT_EQ(c.access(reinterpret_cast<const void*>(line(0)), 0), (cache_counts{}));
  EXPECT_EQ(c.totals(), (cache_counts{2, 5, 1}));
}

TEST(LocalityCache, CoarserBlocksCountBlocks) {
  cache_model c(4096, 1024);  // 4 blocks of 1 KiB
  EXPECT_EQ(c.line_bytes(), 1024U);
  EXPECT_EQ(c.access(reinterpret_cast<const void*>(k_base), 4096), (cache_counts{0, 4, 0}));
  EXPECT_EQ(c.access(reinterpret_cast<const void*>(k_base + 100), 1), (cache_counts{1, 0, 0}));
}

TEST(LocalityCache, ZeroCapacityMissesAlways) {
  cache_model c(32, 64);
  EXPECT_EQ(c.capacity_lines(), 0U);
  EXPECT_FALSE(c.access_block(line(0)));
  EXPECT_FALSE(c.access_block(line(0)));
  EXPECT_EQ(c.totals(), (cache_counts{0, 2, 0}));
}

TEST(LocalityCache, FlushEmptiesAndResetKeepsContents) {
  cache_model c(4 * 64, 64);
  c.access_block(line(0));
  c.reset_totals();
  EXPECT_TRUE(c.access_block(line(0)));
  c.flush();
  EXPECT_FALSE(c.access_block(line(0)));
  EXPECT_EQ(c.totals(), (cache_counts{1, 1, 0}));
}

TEST(LocalityCache, LineBytesMustBeAPowerOfTwo) {
  const auto m = message_of<std::invalid_argument>([] { cache_model c(1024, 48); });
  EXPECT_NE(m.find("cache_model line_bytes=\"48\" is not valid; expected a power of two"),
            std::string::npos)
      << m;
}

// Every access agrees with a std::list LRU, over traces that evict constantly and collide in
// the hash table (strided blocks), which exercises the backward-shift deletion.
TEST(LocalityCache, AgreesWithAReferenceLruOnRandomTraces) {
  for (std::uintptr_t stride : {std::uintptr_t{64}, std::uintptr_t{64} << 12}) {
    constexpr std::size_t capacity = 37;
    cache_model c(capacity * 64, 64);
    std::list<std::uintptr_t> ref;  // most recent first
    std::mt19937_64 rng(42);
    std::uniform_int_distribution<unsigned> pick(0, 99);
    std::uint64_t hits = 0;
    for (int i = 0; i < 20000; ++i) {
      const std::uintptr_t a = k_base + stride * pick(rng);
      auto it = std::find(ref.begin(), ref.end(), a);
      const bool expect_hit = it != ref.end();
      if (expect_hit) {
        ref.erase(it);
        ++hits;
      } else if (ref.size() == capacity) {
        ref.pop_back();
      }
      ref.push_front(a);
      ASSERT_EQ(c.access_block(a), expect_hit) << "access " << i << " stride " << stride;
    }
    EXPECT_EQ(c.totals().hits, hits);
    for (std::uintptr_t a : ref)
      EXPECT_TRUE(c.contains(a));
  }
}

}  // namespace
