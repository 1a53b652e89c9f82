// locality_cache_test.cpp — the LRU cache model against a hand-computed trace and a reference.
#include <locus/config.hpp>
#include <locus/locality/cache_model.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <list>
#include <random>
#include <set>
#include <stdexcept>
#include <vector>

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
  EXPECT_NE(m.find("line_bytes=\"48\" is not valid; expected a power of two"), std::string::npos)
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

/// The per-line LRU of a set of `ways` (0: one set of `capacity` lines), most recent first.
struct reference_cache {
  reference_cache(std::size_t capacity, unsigned ways)
      : ways(ways == 0 ? capacity : ways), sets(ways == 0 ? 1 : capacity / ways), lru(sets) {}
  bool access(std::uint64_t line) {
    auto& set = lru[line % sets];
    auto it = std::find(set.begin(), set.end(), line);
    const bool hit = it != set.end();
    if (hit) {
      set.erase(it);
      ++counts.hits;
    } else {
      ++counts.misses;
      if (set.size() == ways) {
        set.pop_back();
        ++counts.evictions;
      }
    }
    set.push_front(line);
    return hit;
  }
  std::size_t ways, sets;
  std::vector<std::list<std::uint64_t>> lru;
  cache_counts counts;
};

struct miss_log {
  std::vector<std::uint64_t> lines;
  std::uint64_t runs = 0;
  static void sink(void* context, std::uint64_t first, std::uint64_t n) {
    auto* log = static_cast<miss_log*>(context);
    ++log->runs;
    for (std::uint64_t l = first; l < first + n; ++l)
      log->lines.push_back(l);
  }
};

// Runs of lines (sweeps, overlapping sweeps, single lines) against the per-line reference: the
// extent engine must give the same hits, misses, evictions, missed lines and contents, including
// runs longer than the cache and runs whose own evictions remove lines further on.
TEST(LocalityCache, RunsAgreeWithAPerLineReference) {
  for (unsigned ways : {0U, 1U, 4U}) {
    for (std::size_t capacity : {std::size_t{8}, std::size_t{36}, std::size_t{64}}) {
      cache_model c(capacity * 64, 64, ways);
      reference_cache ref(c.capacity_lines(), ways);
      std::mt19937_64 rng(7 + capacity + ways);
      std::uniform_int_distribution<std::uint64_t> start(0, 199), len(1, 90);
      for (int i = 0; i < 3000; ++i) {
        const std::uint64_t first = start(rng), n = i % 3 == 0 ? 1 : len(rng);
        miss_log log;
        const cache_counts got = c.access_lines(first, n, &miss_log::sink, &log);
        const cache_counts before = ref.counts;
        std::vector<std::uint64_t> missed;
        for (std::uint64_t l = first; l < first + n; ++l)
          if (!ref.access(l)) missed.push_back(l);
        const cache_counts want{ref.counts.hits - before.hits, ref.counts.misses - before.misses,
                                ref.counts.evictions - before.evictions};
        ASSERT_EQ(got, want) << "ways " << ways << " capacity " << capacity << " access " << i;
        ASSERT_EQ(log.lines, missed) << "access " << i;
      }
      EXPECT_EQ(c.totals(), ref.counts);
      std::size_t resident = 0;
      for (const auto& set : ref.lru) {
        resident += set.size();
        for (std::uint64_t l : set)
          EXPECT_TRUE(c.contains(l * 64)) << l;
      }
      EXPECT_EQ(c.resident_lines(), resident);
    }
  }
}

// 2 sets of 2 ways (line L in set L mod 2) against 4 fully associative lines, trace
// 0 2 4 0 1 3 5 1. Set 0: 0 2 miss, 4 evicts 0, 0 evicts 2; set 1 likewise: 8 misses, 4
// evictions, no hit (conflict misses). Fully associative: 0 and 1 hit, 6 misses, 2 evictions.
TEST(LocalityCache, SetAssociativeCountsConflictMisses) {
  cache_model set_assoc(4 * 64, 64, 2), full(4 * 64, 64);
  EXPECT_EQ(set_assoc.ways(), 2U);
  for (unsigned l : {0U, 2U, 4U, 0U, 1U, 3U, 5U, 1U}) {
    set_assoc.access_block(line(l));
    full.access_block(line(l));
  }
  EXPECT_EQ(set_assoc.totals(), (cache_counts{0, 8, 4}));
  EXPECT_EQ(full.totals(), (cache_counts{2, 6, 2}));
}

// A sweep is a few extents whatever its length, and nothing is allocated for capacity that was
// never filled: a 6 GiB cache (issue 23: l3=6G) holds nothing until touched.
TEST(LocalityCache, MemoryGrowsWithWhatIsTouchedNotWithCapacity) {
  constexpr std::size_t gib = std::size_t{1} << 30;
  cache_model full(6 * gib, 64), sets(6 * gib, 64, 16);
  EXPECT_EQ(full.memory_bytes(), 0U);
  EXPECT_LT(sets.memory_bytes(), 200U << 10);  // the chunk index only: 6144 empty chunks
  full.access(reinterpret_cast<const void*>(k_base), 64 << 20);  // a 64 MiB sweep
  EXPECT_EQ(full.resident_lines(), (64U << 20) / 64);
  EXPECT_LT(full.memory_bytes(), 4096U);
  sets.access(reinterpret_cast<const void*>(k_base), 1 << 20);  // 16384 lines, 16 chunks
  EXPECT_LT(sets.memory_bytes(), (200U << 10) + 16 * 1024 * (16 * 8 + 4));
  full.flush();
  EXPECT_EQ(full.memory_bytes(), 0U);
}

}  // namespace
