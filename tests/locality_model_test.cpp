// locality_model_test.cpp — the cache levels behind the accountant, with hand-derived answers:
// the private level in front of the L3, misses by the home's distance (traffic, not accesses),
// the NUMA-node class, a set associative L3 from the topology spec, homes given by the caller,
// the model's memory bound, and two threads sharing one modelled L3.
#include <locus/locality/accountant.hpp>
#include <locus/locality/memory.hpp>
#include <locus/topology.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <thread>
#include <vector>

namespace {

using locus::access;
using locus::accountant;
using locus::cache_counts;
using locus::home;
using locus::home_map;
using locus::placement;
using locus::topology;

constexpr std::size_t k_page = home_map::page_bytes;

struct buffer {
  buffer(std::size_t n, const topology& t, home_map* h, placement p = placement::first_touch())
      : bytes(n), homes(h), data(static_cast<std::byte*>(locus::allocate(n, p, t, h))) {}
  ~buffer() { locus::deallocate(data, bytes, homes); }
  buffer(const buffer&) = delete;
  buffer& operator=(const buffer&) = delete;
  std::size_t bytes;
  home_map* homes;
  std::byte* data;
};

// A 64 KiB private level (1024 lines) in front of a 1 MiB L3. Worker 0 writes 128 KiB (2048
// lines): 2048 private misses, the last 1024 lines stay (1024 evictions), and the L3 misses all
// 2048. Reading the first 32 KiB again: 512 private misses (512 more evictions), which the L3
// still holds: 512 L3 hits.
TEST(LocalityModel, PrivateLevelFiltersWhatReachesTheL3) {
  const topology topo = topology::from_spec("sockets=1,cores=2,l2=64KiB,l3=1MiB");
  accountant acc(topo, {0, 1});
  buffer b(128 << 10, topo, &acc.homes());
  acc.record(0, b.data, b.bytes, access::write);
  acc.record(0, b.data, 32 << 10, access::read);
  const auto s = acc.snapshot();
  EXPECT_EQ(s.private_bytes, 64U << 10);
  EXPECT_EQ(s.private_per_worker[0].lines, (cache_counts{0, 2560, 1536}));
  EXPECT_EQ(s.l3_per_worker[0].lines, (cache_counts{512, 2048, 0}));
  EXPECT_EQ(s.private_per_worker[0].misses.same_core, 2560U);
  EXPECT_EQ(s.l3_total.misses.same_core, 2048U);
  EXPECT_EQ(s.private_per_worker[1], locus::level_counts{});
  EXPECT_EQ(s.private_total, s.private_per_socket[0]);
}

// Remote bytes count accesses; remote misses count traffic. Worker 0 (socket 0) reads 32 KiB
// placed on socket 1 twice: 64 KiB remote, but 512 remote misses (the second pass hits its
// private level). Worker 1 (socket 1) reads it once: same socket, its own misses.
TEST(LocalityModel, MissesAreSplitByTheHomesDistance) {
  const topology topo = topology::from_spec("sockets=2,cores=2,l2=64KiB");
  accountant acc(topo, {0, 2});
  buffer b(32 << 10, topo, &acc.homes(), placement::on_socket(1));
  acc.record(0, b.data, b.bytes, access::read);
  acc.record(0, b.data, b.bytes, access::read);
  acc.record(1, b.data, b.bytes, access::read);
  const auto s = acc.snapshot();
  EXPECT_EQ(s.per_worker[0].remote, 64U << 10);
  EXPECT_EQ(s.private_per_worker[0].misses.remote, 512U);
  EXPECT_EQ(s.private_per_worker[0].lines.hits, 512U);
  EXPECT_EQ(s.l3_per_socket[0].misses.remote, 512U);
  EXPECT_EQ(s.l3_per_socket[0].misses.total(), 512U);
  EXPECT_EQ(s.per_worker[1].same_socket, 32U << 10);
  EXPECT_EQ(s.l3_per_socket[1].misses.same_socket, 512U);
  EXPECT_EQ(s.l3_per_group[1], s.l3_per_socket[1]);
  EXPECT_NE(s.summary().find("L3 model: 1024 misses (512 remote)"), std::string::npos)
      << s.summary();
  const std::string j = s.to_json();
  EXPECT_NE(j.find("\"misses_by_distance\":{\"same_core\":0,\"same_l3\":0,\"same_numa\":0,"
                   "\"same_socket\":512,\"remote\":512,\"unplaced\":0}"),
            std::string::npos)
      << j;
}

/// One page of `b` per home, read by worker 0 (core 0): the class of each.
locus::locality_bytes classes_seen_from_core0(const char* spec, const std::vector<home>& homes) {
  const topology topo = topology::from_spec(spec);
  accountant acc(topo, {0}, {.cache_model = false});
  buffer b(homes.size() * k_page, topo, nullptr);
  for (std::size_t i = 0; i < homes.size(); ++i)
    acc.homes().place(b.data + i * k_page, k_page, homes[i]);
  acc.record(0, b.data, b.bytes, access::read);
  return acc.snapshot().total;
}

// sockets=2,numa=2,l3groups=2,cores=2: core = 8 socket + 4 node + 2 group + index. From core 0:
// core 1 same L3, core 2 and node 0 same NUMA node, core 4, node 1 and package 0 same socket,
// core 8 and node 2 remote. With one node per socket the node class folds into same_socket.
TEST(LocalityModel, NumaNodesAreAClassOfTheirOwnWhenASocketHasSeveral) {
  const std::vector<home> homes{home::on_core(1), home::on_core(2), home::on_numa(0),
                                home::on_core(4), home::on_numa(1), home::on_package(0),
                                home::on_core(8), home::on_numa(2)};
  const auto numa = classes_seen_from_core0("sockets=2,numa=2,l3groups=2,cores=2", homes);
  EXPECT_EQ(numa.same_l3, 1 * k_page);
  EXPECT_EQ(numa.same_numa, 2 * k_page);
  EXPECT_EQ(numa.same_socket, 3 * k_page);
  EXPECT_EQ(numa.remote, 2 * k_page);
  // sockets=4,l3groups=2,cores=2: core = 4 socket + 2 group + index; node n is socket n.
  const std::vector<home> flat_homes{home::on_core(1), home::on_core(2), home::on_numa(0),
                                     home::on_core(4), home::on_numa(1)};
  const auto flat = classes_seen_from_core0("sockets=4,l3groups=2,cores=2", flat_homes);
  EXPECT_EQ(flat.same_l3, 1 * k_page);
  EXPECT_EQ(flat.same_numa, 0U);
  EXPECT_EQ(flat.same_socket, 2 * k_page);
  EXPECT_EQ(flat.remote, 2 * k_page);
}

// l3ways=2 with a 256-byte L3 of 64-byte lines: 2 sets of 2 ways. The trace of lines 0 2 4 0 1
// 3 5 1 misses 8 times with 4 evictions (cache_model's hand trace), against 2 hits fully
// associative.
TEST(LocalityModel, TheSpecsL3waysMakesTheL3SetAssociative) {
  for (const char* spec : {"sockets=1,cores=1,l3=256,l3ways=2", "sockets=1,cores=1,l3=256"}) {
    const topology topo = topology::from_spec(spec);
    accountant acc(topo, {0}, {.private_level = false});
    buffer b(k_page, topo, nullptr);
    for (unsigned l : {0U, 2U, 4U, 0U, 1U, 3U, 5U, 1U})
      acc.record(0, b.data + 64 * l, 1, access::read);
    const auto s = acc.snapshot();
    if (topo.l3_ways() == 2) {
      EXPECT_EQ(s.l3_ways, 2U);
      EXPECT_EQ(s.l3_total.lines, (cache_counts{0, 8, 4}));
      EXPECT_NE(s.summary().find("2-way"), std::string::npos) << s.summary();
    } else {
      EXPECT_EQ(s.l3_total.lines, (cache_counts{2, 6, 2}));
    }
    EXPECT_EQ(s.l3_total.misses.unplaced, s.l3_total.lines.misses);  // read, never written
  }
}

// A datablock's accesses are classed by the home it keeps, not by the page map.
TEST(LocalityModel, RecordHomedUsesTheGivenHome) {
  const topology topo = topology::from_spec("sockets=4,cores=4");
  accountant acc(topo, {0, 4});
  buffer b(k_page, topo, nullptr);
  acc.record_homed(0, b.data, 100, home::on_core(4));
  acc.record_homed(1, b.data + 100, 50, home::on_core(4));
  acc.record_homed(1, b.data, 10, home{});
  const auto s = acc.snapshot();
  EXPECT_EQ(s.per_worker[0].remote, 100U);
  EXPECT_EQ(s.per_worker[1].same_core, 50U);
  EXPECT_EQ(s.per_worker[1].unplaced, 10U);
  EXPECT_TRUE(acc.homes().home_of(b.data).is_none());  // nothing first-touched
}

// Issue 23: l3=6G on 8 sockets allocated and zeroed gigabytes up front. Now the models start
// empty and grow with the lines touched (a sweep is a few extents).
TEST(LocalityModel, ModelMemoryGrowsWithWhatIsTouchedNotWithTheSpec) {
  const topology topo = topology::from_spec("sockets=8,cores=2,l3=6G,l2=1G");
  std::vector<std::size_t> cores(16);
  for (std::size_t i = 0; i < cores.size(); ++i)
    cores[i] = i;
  accountant acc(topo, cores);
  EXPECT_EQ(acc.model_bytes(), 0U);
  buffer b(4 << 20, topo, &acc.homes());
  acc.record(3, b.data, b.bytes, access::write);
  acc.record(3, b.data, b.bytes, access::read);
  const auto s = acc.snapshot();
  EXPECT_EQ(s.private_per_worker[3].lines, (cache_counts{65536, 65536, 0}));
  EXPECT_LT(acc.model_bytes(), 4096U);
}

// Two threads share one modelled L3 (one group of two cores). Each writes its own 256 KiB and
// reads it ten times: the private levels (1 MiB) are exact per worker, and since the two never
// share a line, the L3 misses are exact whatever order the drains took.
TEST(LocalityModel, WorkersSharingAnL3DrainTheirOwnStreams) {
  const topology topo = topology::from_spec("sockets=1,cores=2");
  accountant acc(topo, {0, 1});
  buffer b(512 << 10, topo, &acc.homes());
  std::vector<std::thread> pool;
  for (unsigned w = 0; w < 2; ++w) {
    pool.emplace_back([&, w] {
      std::byte* mine = b.data + w * (256 << 10);
      acc.record(w, mine, 256 << 10, access::write);
      for (int i = 0; i < 10; ++i)
        for (std::size_t at = 0; at < (256U << 10); at += k_page)  // many small records
          acc.record(w, mine + at, k_page, access::read);
    });
  }
  std::thread reader([&] {
    for (int i = 0; i < 50; ++i)
      (void)acc.snapshot();
  });
  for (auto& t : pool)
    t.join();
  reader.join();
  const auto s = acc.snapshot();
  for (unsigned w = 0; w < 2; ++w) {
    EXPECT_EQ(s.private_per_worker[w].lines, (cache_counts{40960, 4096, 0})) << w;
    EXPECT_EQ(s.l3_per_worker[w].lines, (cache_counts{0, 4096, 0})) << w;
    EXPECT_EQ(s.per_worker[w].same_core, 11U * (256 << 10)) << w;
  }
}

}  // namespace
