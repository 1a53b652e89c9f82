// Graph values on the wire (2026-11-26e): one message per value when the reader knows its size
// (its receive posted with the request), a header then the bytes when it does not; both paths'
// values arrive intact, and context::trace_values records each value on both sides.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include "mpi_support.hpp"

namespace df = locus::dataflow;
namespace mpi = locus::mpi;
using locus_mpi_test::ctx;
using locus_mpi_test::rt;

namespace {

struct triple {
  std::uint64_t a, b, c;
};

/// Key k's datablock: k * 1000 bytes (key 0: empty), byte i = (k + i) mod 251.
df::datablock block_of(std::uint64_t k) {
  auto b = df::datablock::create(k * 1000);
  auto* p = reinterpret_cast<unsigned char*>(b.bytes().data());
  for (std::size_t i = 0; i < b.size(); ++i)
    p[i] = static_cast<unsigned char>((k + i) % 251);
  return b;
}

bool is_block_of(const df::datablock& b, std::uint64_t k) {
  if (b.size() != k * 1000) return false;
  const auto* p = reinterpret_cast<const unsigned char*>(b.bytes().data());
  for (std::size_t i = 0; i < b.size(); ++i)
    if (p[i] != static_cast<unsigned char>((k + i) % 251)) return false;
  return true;
}

// Keys 0..n-1 are datablocks (rank 0's), asked for with their size (even keys: one message) or
// without (odd keys and the empty key 0: header, then the bytes); keys n..2n-1 are triples (the
// last rank's), always one message. Sizes cross Open MPI's eager limit (4 KiB) and its
// rendezvous (key 40: 40 kB, key 60: 60 kB).
TEST(MpiValues, ValuesOfKnownAndUnknownSizeArriveIntact) {
  const int size = ctx().size();
  constexpr std::uint64_t n = 64;
  mpi::dist_graph dg(rt(), [size](std::uint64_t k) { return k < n ? 0 : size - 1; });
  std::vector<df::event<df::datablock>> blocks;
  std::vector<df::event<triple>> triples;
  for (std::uint64_t k = 0; k < n; ++k) {
    if (dg.mine(k)) {
      dg.event<df::datablock>(k).satisfy(block_of(k));
      blocks.push_back(dg.event<df::datablock>(k));
    } else {
      blocks.push_back(dg.event<df::datablock>(k, k % 2 == 0 ? k * 1000 : 0));
    }
    auto t = dg.event<triple>(n + k);
    if (dg.mine(n + k)) t.satisfy(triple{k, k * k, ~k});
    triples.push_back(t);
  }
  dg.wait();
  for (std::uint64_t k = 0; k < n; ++k) {
    ASSERT_TRUE(blocks[k].satisfied()) << k;
    EXPECT_TRUE(is_block_of(blocks[k].get(), k)) << "key " << k;
    const triple t = triples[k].get();
    EXPECT_EQ(t.a, k);
    EXPECT_EQ(t.b, k * k);
    EXPECT_EQ(t.c, ~k);
  }
}

// A value whose size the reader declares (a T, a datablock asked for with its size) is one
// message; one it does not (a datablock asked for with size 0) comes as a header then the bytes.
TEST(MpiValues, AValueOfDeclaredSizeIsOneMessage) {
  constexpr std::uint64_t n = 20;
  const auto before = ctx().stats();
  {
    mpi::dist_graph dg(rt(), [](std::uint64_t) { return 0; });
    for (std::uint64_t k = 0; k < n; ++k) {
      // Keys below n/2: the size declared; the rest: any size; key n: a double.
      auto e = dg.event<df::datablock>(k, k < n / 2 ? 512 : 0);
      if (dg.mine(k)) e.satisfy(df::datablock::create(512));
    }
    auto d = dg.event<double>(n);
    if (dg.mine(n)) d.satisfy(1.5);
    dg.wait();
    EXPECT_EQ(d.get(), 1.5);
  }
  const auto after = ctx().stats();
  const bool reader = ctx().rank() != 0;
  EXPECT_EQ(after.values_one_message - before.values_one_message, reader ? n / 2 + 1 : 0);
  EXPECT_EQ(after.values_with_header - before.values_with_header, reader ? n / 2 : 0);
}

// Tracing: off, nothing is recorded; on, every value is recorded by its reader (asked, bytes
// received, event satisfied, in that order) and by its owner (handed over, send posted, send
// complete), and the owner's hand-over precedes the reader's receipt (one host, one clock).
TEST(MpiValues, TracingRecordsEveryValueOnBothSides) {
  const int size = ctx().size();
  const int me = ctx().rank();
  constexpr std::uint64_t n = 12;
  constexpr std::size_t bytes = 64 * 1024;  // rendezvous: the send completes after the receipt
  auto one_graph = [&] {
    mpi::dist_graph dg(rt(), [](std::uint64_t) { return 0; });
    for (std::uint64_t k = 0; k < n; ++k) {
      auto e = dg.event<df::datablock>(k, bytes);
      if (dg.mine(k)) e.satisfy(df::datablock::create(bytes));
    }
    dg.wait();
  };
  (void)ctx().take_value_traces();
  one_graph();
  EXPECT_TRUE(ctx().take_value_traces().empty()) << "tracing is off by default";

  ctx().trace_values(true);
  one_graph();
  // The owner's sends complete when it sees the receivers' acknowledgements: wait for them.
  const std::size_t expect = me == 0 ? n * static_cast<std::size_t>(size - 1) : n;
  std::vector<mpi::value_trace> got;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (got.size() < expect && std::chrono::steady_clock::now() < until) {
    auto more = ctx().take_value_traces();
    got.insert(got.end(), more.begin(), more.end());
    if (got.size() < expect) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ctx().trace_values(false);
  ASSERT_EQ(got.size(), expect);
  std::vector<int> per_key(n, 0);
  for (const auto& t : got) {
    EXPECT_EQ(t.is_export, me == 0);
    EXPECT_EQ(t.epoch, got.front().epoch);
    ASSERT_LT(t.key, n);
    ++per_key[t.key];
    if (me == 0)
      EXPECT_NE(t.peer, 0);
    else
      EXPECT_EQ(t.peer, 0);
    EXPECT_GT(t.t_first, 0);
    EXPECT_LE(t.t_first, t.t_mid);
    EXPECT_LE(t.t_mid, t.t_last);
  }
  for (std::uint64_t k = 0; k < n; ++k)
    EXPECT_EQ(per_key[k], me == 0 ? size - 1 : 1) << "key " << k;
  one_graph();
  EXPECT_TRUE(ctx().take_value_traces().empty()) << "tracing off again";
}

}  // namespace
