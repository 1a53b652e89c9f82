// locality_accountant_test.cpp — the accountant against known answers on a virtual 4-socket
// machine: one worker, a static partition, a partition shifted by a socket, explicit placement,
// unplaced reads, the L3 model, reset, the reports, bad input, and real threads.
#include <locus/locality/accountant.hpp>
#include <locus/locality/data_range.hpp>
#include <locus/locality/memory.hpp>
#include <locus/topology.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <cstddef>
#include <stdexcept>
#include <thread>
#include <vector>

#include "locality_support.hpp"

namespace {

using locality_test::message_of;
using locus::access;
using locus::accountant;
using locus::data_range;
using locus::home_map;
using locus::locality_bytes;
using locus::part;
using locus::placement;
using locus::topology;

constexpr std::size_t k_page = home_map::page_bytes;

/// `bytes` of page-aligned memory, freed at scope end.
struct buffer {
  buffer(std::size_t n, const topology& t, home_map* h, placement p = placement::first_touch())
      : bytes(n), homes(h), data(static_cast<std::byte*>(locus::allocate(n, p, t, h))) {}
  ~buffer() { locus::deallocate(data, bytes, homes); }
  buffer(const buffer&) = delete;
  buffer& operator=(const buffer&) = delete;
  [[nodiscard]] data_range range(access mode) const { return {data, bytes, mode}; }
  std::size_t bytes;
  home_map* homes;
  std::byte* data;
};

std::vector<std::size_t> iota(std::size_t n) {
  std::vector<std::size_t> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = i;
  return v;
}

/// The 16-core machine of the issue: worker i on core i, cores 4s..4s+3 on socket s.
struct LocalityFourSockets : ::testing::Test {
  topology topo = topology::from_spec("sockets=4,cores=4");
  void SetUp() override {
    ASSERT_EQ(topo.num_cores(), 16U);
    ASSERT_EQ(topo.num_l3_groups(), 4U);
    for (unsigned c = 0; c < 16; ++c) {
      ASSERT_EQ(topo.cores()[c].package, c / 4);
      ASSERT_EQ(topo.cores()[c].l3, c / 4);
    }
  }
};

TEST(LocalityAccountant, OneWorkerIsEverythingLocal) {
  const topology topo = topology::from_spec("sockets=2,cores=2");
  accountant acc(topo, {0});
  buffer b(64 * k_page, topo, &acc.homes());
  acc.record(0, b.range(access::write));
  acc.record(0, b.range(access::read));
  acc.record(0, b.data + 100, 5000, access::read_write);
  const auto s = acc.snapshot();
  EXPECT_EQ(s.total.same_core, 2 * b.bytes + 5000);
  EXPECT_EQ(s.total.placed(), s.total.same_core);
  EXPECT_EQ(s.total.unplaced, 0U);
  EXPECT_DOUBLE_EQ(s.local_share().value_or(-1.0), 1.0);
  EXPECT_EQ(s.straggler_socket(), -1);
  EXPECT_EQ(s.per_worker[0], s.total);
  EXPECT_EQ(s.per_socket[0], s.total);
  EXPECT_EQ(s.per_socket[1], locality_bytes{});
}

// A static partition first-touched by the same partition: every access is on the own core.
TEST_F(LocalityFourSockets, StaticPartitionFirstTouchedBySamePartitionIsAllLocal) {
  accountant acc(topo, iota(16));
  buffer b(16 * 16 * k_page, topo, &acc.homes());
  const data_range all = b.range(access::write);
  for (unsigned w = 0; w < 16; ++w)
    acc.record(w, part(all, w, 16));
  acc.reset();
  for (int sweep = 0; sweep < 3; ++sweep) {
    for (unsigned w = 0; w < 16; ++w) {
      data_range r = part(all, w, 16);
      r.mode = access::read;
      acc.record(w, r);
    }
  }
  const auto s = acc.snapshot();
  EXPECT_EQ(s.total.same_core, 3 * b.bytes);
  EXPECT_EQ(s.total.remote, 0U);
  EXPECT_DOUBLE_EQ(s.local_share().value_or(-1.0), 1.0);
  for (unsigned w = 0; w < 16; ++w)
    EXPECT_EQ(s.per_worker[w].same_core, 3 * b.bytes / 16) << w;
  for (unsigned sk = 0; sk < 4; ++sk)
    EXPECT_DOUBLE_EQ(s.per_socket[sk].local_share().value_or(-1.0), 1.0);
  EXPECT_EQ(s.straggler_socket(), -1);
}

// A neighbour on the same L3 (worker i reads part i ^ 1) is local at the l3 level.
TEST_F(LocalityFourSockets, NeighbourPartsAreSameL3) {
  accountant acc(topo, iota(16));
  buffer b(16 * k_page, topo, &acc.homes());
  for (unsigned w = 0; w < 16; ++w)
    acc.record(w, part(b.range(access::write), w, 16));
  acc.reset();
  for (unsigned w = 0; w < 16; ++w)
    acc.record(w, part(b.range(access::read), w ^ 1, 16));
  const auto s = acc.snapshot();
  EXPECT_EQ(s.total.same_l3, b.bytes);
  EXPECT_DOUBLE_EQ(s.local_share().value_or(-1.0), 1.0);
}

// Worker i reads the part of worker i + 4 (the next socket): nothing is local. Socket 2's
// workers read theirs twice, so socket 2 is the straggler.
TEST_F(LocalityFourSockets, PartitionShiftedBySocketIsAllRemote) {
  accountant acc(topo, iota(16));
  buffer b(16 * 4 * k_page, topo, &acc.homes());
  const std::size_t part_bytes = b.bytes / 16;
  for (unsigned w = 0; w < 16; ++w)
    acc.record(w, part(b.range(access::write), w, 16));
  acc.reset();
  for (unsigned w = 0; w < 16; ++w) {
    const data_range r = part(b.range(access::read), (w + 4) % 16, 16);
    acc.record(w, r);
    if (w / 4 == 2) acc.record(w, r);
  }
  const auto s = acc.snapshot();
  EXPECT_EQ(s.total.remote, 20 * part_bytes);
  EXPECT_EQ(s.total.local(), 0U);
  EXPECT_DOUBLE_EQ(s.local_share().value_or(-1.0), 0.0);
  EXPECT_EQ(s.per_socket[0].remote, 4 * part_bytes);
  EXPECT_EQ(s.per_socket[2].remote, 8 * part_bytes);
  EXPECT_EQ(s.straggler_socket(), 2);
}

// Interleaved over the 4 NUMA nodes: page k on node k mod 4, so a reader is local on 1 page of 4.
TEST_F(LocalityFourSockets, InterleavedMemoryIsOneQuarterLocal) {
  accountant acc(topo, iota(16));
  buffer b(64 * k_page, topo, &acc.homes(), placement::interleave());
  for (unsigned k = 0; k < 8; ++k)
    EXPECT_EQ(acc.homes().home_of(b.data + k * k_page), locus::home::on_numa(k % 4));
  acc.record(5, b.range(access::read));
  acc.record(5, b.range(access::write));  // placed pages keep their home
  const auto s = acc.snapshot();
  EXPECT_EQ(s.total.same_socket, 2 * b.bytes / 4);
  EXPECT_EQ(s.total.remote, 2 * 3 * b.bytes / 4);
  EXPECT_DOUBLE_EQ(s.local_share().value_or(-1.0), 0.25);
}

// On socket 1: its workers are local (same socket), the others remote.
TEST_F(LocalityFourSockets, OnSocketIsLocalToThatSocketOnly) {
  accountant acc(topo, iota(16));
  buffer b(8 * k_page, topo, &acc.homes(), placement::on_socket(1));
  for (unsigned w = 0; w < 16; ++w)
    acc.record(w, b.range(access::read));
  const auto s = acc.snapshot();
  EXPECT_EQ(s.total.same_socket, 4 * b.bytes);
  EXPECT_EQ(s.total.remote, 12 * b.bytes);
  EXPECT_DOUBLE_EQ(s.local_share().value_or(-1.0), 0.25);
  EXPECT_DOUBLE_EQ(s.per_socket[1].local_share().value_or(-1.0), 1.0);
  EXPECT_DOUBLE_EQ(s.per_socket[0].local_share().value_or(-1.0), 0.0);
  EXPECT_EQ(s.straggler_socket(), 0);  // sockets 0, 2, 3 tie; the lowest wins
}

TEST_F(LocalityFourSockets, OnNumaHomesAreNumaNodes) {
  accountant acc(topo, iota(16));
  buffer b(2 * k_page, topo, &acc.homes(), placement::on_numa(3));
  acc.record(12, b.range(access::read));
  acc.record(11, b.range(access::read));
  const auto s = acc.snapshot();
  EXPECT_EQ(s.per_worker[12].same_socket, b.bytes);
  EXPECT_EQ(s.per_worker[11].remote, b.bytes);
}

// Two NUMA nodes per socket: the worker's own node is same_numa, the other node of its package
// (or a core of it) same_socket; another package's node is remote.
TEST(LocalityAccountant, NodesOfTheOwnPackageAreSameSocket) {
  const topology topo = topology::from_spec("sockets=2,numa=2,cores=2");
  ASSERT_EQ(topo.cores()[2].numa, 1U);
  ASSERT_EQ(topo.cores()[2].package, 0U);
  ASSERT_EQ(topo.cores()[4].package, 1U);
  accountant acc(topo, iota(8));
  buffer b(2 * k_page, topo, &acc.homes(), placement::on_numa(1));
  acc.record(0, b.range(access::read));  // node 0, package 0
  acc.record(3, b.range(access::read));  // node 1
  acc.record(4, b.range(access::read));  // package 1
  buffer t(k_page, topo, &acc.homes());
  acc.record(3, t.range(access::write));  // first touch: core 3 (node 1)
  acc.record(0, t.range(access::read));
  const auto s = acc.snapshot();
  EXPECT_EQ(s.per_worker[0].same_socket, b.bytes + t.bytes);
  EXPECT_EQ(s.per_worker[3].same_numa, b.bytes);  // node 1 is worker 3's own
  EXPECT_EQ(s.per_worker[3].same_socket, 0U);
  EXPECT_EQ(s.per_worker[3].same_core, t.bytes);
  EXPECT_EQ(s.per_worker[4].remote, b.bytes);
}

// Reads of pages nobody wrote are unplaced and set no home; the first write does.
TEST_F(LocalityFourSockets, ReadsOfUnplacedPagesAreUnplaced) {
  accountant acc(topo, iota(16));
  buffer b(4 * k_page, topo, &acc.homes());
  acc.record(3, b.range(access::read));
  auto s = acc.snapshot();
  EXPECT_EQ(s.total.unplaced, b.bytes);
  EXPECT_EQ(s.total.placed(), 0U);
  EXPECT_FALSE(s.local_share().has_value());  // nothing placed: no data, not "all local"
  EXPECT_TRUE(acc.homes().home_of(b.data).is_none());
  // Worker 3 writes pages 1 and 2; worker 8 (another socket) reads half of page 0, all of
  // page 1 and half of page 2.
  acc.record(3, b.data + k_page, 2 * k_page, access::write);
  acc.record(8, b.data + k_page / 2, 2 * k_page, access::read);
  s = acc.snapshot();
  EXPECT_EQ(s.per_worker[8].unplaced, k_page / 2);
  EXPECT_EQ(s.per_worker[8].remote, 3 * k_page / 2);
  EXPECT_EQ(s.per_worker[3].same_core, 2 * k_page);
}

TEST_F(LocalityFourSockets, ExplicitTouchesOfPartialPagesCountTheirBytes) {
  accountant acc(topo, iota(16));
  buffer b(2 * k_page, topo, &acc.homes());
  acc.record(0, b.data + 10, 20, access::write);  // page 0 now on core 0
  acc.record(1, b.data + 100, 7, access::read);
  acc.record(4, b.data, 1, access::read_write);
  acc.record(0, b.data, 0, access::read);  // nothing
  const auto s = acc.snapshot();
  EXPECT_EQ(s.per_worker[0].same_core, 20U);
  EXPECT_EQ(s.per_worker[1].same_l3, 7U);
  EXPECT_EQ(s.per_worker[4].remote, 1U);
  EXPECT_EQ(s.total.total(), 28U);
}

// 1 MiB read twice by one worker fits an 8 MiB L3: 16384 misses, then 16384 hits, all on the
// worker's socket. A 64 KiB L3 streams: every access misses.
TEST_F(LocalityFourSockets, L3ModelCountsMissesPerSocket) {
  accountant acc(topo, iota(16), {.private_level = false});  // the L3 alone
  buffer b(1 << 20, topo, &acc.homes());
  acc.record(9, b.range(access::write));
  acc.record(9, b.range(access::read));
  auto s = acc.snapshot();
  ASSERT_TRUE(s.cache_modelled);
  EXPECT_EQ(s.line_bytes, 64U);
  EXPECT_EQ(s.l3_per_socket[2].lines.misses, 16384U);
  EXPECT_EQ(s.l3_per_socket[2].lines.hits, 16384U);
  EXPECT_EQ(s.l3_per_socket[2].misses.same_core, 16384U);  // the worker's own pages
  EXPECT_EQ(s.l3_per_group[2], s.l3_per_socket[2]);
  EXPECT_EQ(s.l3_per_worker[9], s.l3_per_socket[2]);
  EXPECT_EQ(s.l3_per_socket[0].lines.misses + s.l3_per_socket[0].lines.hits, 0U);

  accountant small(
      topo, iota(16),
      {.cache_model = true, .line_bytes = 64, .l3_bytes = 64 << 10, .private_level = false});
  small.record(0, b.range(access::read));
  small.record(1, b.range(access::read));  // same L3 group: the second pass misses too
  s = small.snapshot();
  EXPECT_EQ(s.l3_per_socket[0].lines.misses, 2 * 16384U);
  EXPECT_EQ(s.l3_per_socket[0].lines.hits, 0U);
  EXPECT_EQ(s.l3_per_socket[0].lines.evictions, 2 * 16384U - 1024U);
  EXPECT_EQ(s.l3_per_worker[0].lines.misses, 16384U);  // each worker's own misses
  EXPECT_EQ(s.l3_per_worker[1].lines.misses, 16384U);
}

TEST_F(LocalityFourSockets, CacheModelCanBeOff) {
  accountant acc(topo, iota(16), {.cache_model = false});
  buffer b(k_page, topo, &acc.homes());
  acc.record(0, b.range(access::write));
  const auto s = acc.snapshot();
  EXPECT_FALSE(s.cache_modelled);
  EXPECT_EQ(s.l3_per_socket[0].lines.misses, 0U);
  EXPECT_EQ(s.private_total, locus::level_counts{});
  EXPECT_NE(s.summary().find("cache model off (homes only)"), std::string::npos);
}

TEST_F(LocalityFourSockets, ResetRestartsCountsFromZero) {
  accountant acc(topo, iota(16));
  buffer b(4 * k_page, topo, &acc.homes());
  acc.record(2, b.range(access::write));
  acc.reset();
  auto s = acc.snapshot();
  EXPECT_EQ(s.total.total(), 0U);
  EXPECT_EQ(s.l3_per_socket[0], locus::level_counts{});
  EXPECT_EQ(s.private_per_worker[2], locus::level_counts{});
  acc.record(2, b.data, 10, access::read);
  s = acc.snapshot();
  EXPECT_EQ(s.total.same_core, 10U);
  EXPECT_EQ(s.private_per_worker[2].lines.hits, 1U);  // contents survive the reset
}

TEST_F(LocalityFourSockets, ReportsNameEveryField) {
  accountant acc(topo, iota(16));
  buffer b(16 * k_page, topo, &acc.homes());
  for (unsigned w = 0; w < 16; ++w)
    acc.record(w, part(b.range(access::write), w, 16));
  acc.record(0, b.data + 4 * k_page, k_page, access::read);  // socket 1's page: remote
  const auto s = acc.snapshot();
  const std::string j = s.to_json();
  for (const char* key :
       {"\"local_share\":",
        "\"bytes\":{\"same_core\":65536,\"same_l3\":0,\"same_numa\":0,\"same_socket\":0,"
        "\"remote\":4096,\"unplaced\":0}",
        "\"l3_misses\":[", "\"l3_hits\":[", "\"straggler_socket\":0", "\"per_socket\":[{",
        "\"per_l3\":[", "\"per_worker\":[", "\"cache_model\":true", "\"line_bytes\":64"}) {
    EXPECT_NE(j.find(key), std::string::npos) << key << " in " << j;
  }
  EXPECT_EQ(j.front(), '{');
  EXPECT_EQ(j.back(), '}');
  EXPECT_EQ(j.find(",,"), std::string::npos);
  EXPECT_EQ(j.find(",}"), std::string::npos);
  EXPECT_EQ(j.find(",]"), std::string::npos);
  const std::string line = s.summary();
  EXPECT_EQ(line.find('\n'), std::string::npos);
  EXPECT_NE(line.find("locality: 94.1% local"), std::string::npos) << line;
  EXPECT_NE(line.find("straggler socket 0"), std::string::npos) << line;
}

TEST_F(LocalityFourSockets, BadInputNamesTheValue) {
  auto m = message_of<std::out_of_range>([&] { accountant acc(topo, {0, 16}); });
  EXPECT_NE(m.find("accountant worker_core[1]=16 names no core; expected 0 to 15"),
            std::string::npos)
      << m;
  m = message_of<std::invalid_argument>([&] { accountant acc(topo, {}); });
  EXPECT_NE(m.find("accountant worker_core=\"{}\" is not valid"), std::string::npos) << m;
  m = message_of<std::invalid_argument>(
      [&] { accountant acc(topo, {0}, {.cache_model = false, .line_bytes = 100}); });
  EXPECT_NE(m.find("line_bytes=\"100\""), std::string::npos) << m;
  accountant acc(topo, {0, 1});
  int x = 0;
  m = message_of<std::out_of_range>([&] { acc.record(2, &x, 4, access::read); });
  EXPECT_NE(m.find("accountant::record worker=2 names no worker; expected 0 to 1"),
            std::string::npos)
      << m;
}

// Real threads, one per socket, each on its own worker index: first touch of the own quarter,
// then reads of all four quarters, while another thread takes snapshots. Exact totals after the
// join; under TSan, no race.
TEST_F(LocalityFourSockets, ConcurrentRecordsFromRealThreads) {
  const std::vector<std::size_t> cores{0, 4, 8, 12};
  accountant acc(topo, cores);
  buffer b(4 * 32 * k_page, topo, &acc.homes());
  constexpr int sweeps = 20;
  std::atomic<int> done{0};
  std::vector<std::thread> pool;
  for (unsigned w = 0; w < 4; ++w) {
    pool.emplace_back([&, w] {
      acc.record(w, part(b.range(access::write), w, 4));
      for (int i = 0; i < sweeps; ++i) {
        for (unsigned q = 0; q < 4; ++q)
          acc.record(w, part(b.range(access::read), (w + q) % 4, 4));
      }
      done.fetch_add(1);
    });
  }
  std::thread reader([&] {
    while (done.load() < 4) {
      const auto s = acc.snapshot();
      EXPECT_LE(s.total.total(), (1 + 4 * sweeps) * b.bytes);
    }
  });
  for (auto& t : pool)
    t.join();
  reader.join();
  const auto s = acc.snapshot();
  const std::size_t quarter = b.bytes / 4;
  // Reads of a quarter not yet written by its owner are unplaced; every byte is counted once.
  EXPECT_EQ(s.total.total(), 4 * quarter * (1 + 4 * sweeps));
  for (unsigned w = 0; w < 4; ++w) {
    EXPECT_EQ(s.per_worker[w].same_core, quarter * (1 + sweeps)) << w;
    EXPECT_EQ(s.per_worker[w].same_l3 + s.per_worker[w].same_socket, 0U) << w;
  }
  EXPECT_LE(s.total.remote, 4 * 3 * sweeps * quarter);
  // Every line goes through a private model once; the L3s see only what those missed.
  const std::uint64_t lines = b.bytes / 64;
  EXPECT_EQ(s.private_total.lines.hits + s.private_total.lines.misses,
            4 * (1 + 4 * sweeps) * lines / 4);
  EXPECT_EQ(s.l3_total.lines.hits + s.l3_total.lines.misses, s.private_total.lines.misses);
}

}  // namespace
