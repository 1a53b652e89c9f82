// A distributed graph at one rank is the local graph plus the fence: no value of it can be asked
// for, so nothing is exported (docs/design/0014-mpi.md, "One rank"). At more ranks an owned
// key's value is exported, whether or not some rank asks for it. Run by every mpi.tests.np*
// (the owner's side) and by mpi.tests.np1 (the one-rank side).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "mpi_support.hpp"

namespace df = locus::dataflow;
namespace mpi = locus::mpi;
using locus_mpi_test::ctx;
using locus_mpi_test::rt;

namespace {

// Every key belongs to this rank; nobody reads another rank's. The export tasks are the local
// graph's only tasks before the program adds its own, so pending() counts them.
TEST(MpiOneRank, OwnedKeysAreExportedOnlyWhenAnotherRankExists) {
  constexpr std::uint64_t n = 64;
  const int me = ctx().rank();
  const auto started0 = ctx().stats().started;
  mpi::dist_graph dg(rt(), [me](std::uint64_t) { return me; });
  std::vector<df::event<long>> ev;
  for (std::uint64_t k = 0; k < n; ++k)
    ev.push_back(dg.event<long>(k));
  if (ctx().size() == 1)
    EXPECT_EQ(dg.local().pending(), 0) << "an export task per owned key at one rank";
  else
    EXPECT_EQ(dg.local().pending(), static_cast<std::int64_t>(n));  // one export task per key
  for (std::uint64_t k = 0; k < n; ++k) {
    auto t = dg.task(0, [e = ev[k], k]() mutable { e.satisfy(static_cast<long>(k) * 3); });
    (void)t;
  }
  dg.wait();
  for (std::uint64_t k = 0; k < n; ++k)
    EXPECT_EQ(ev[k].get(), static_cast<long>(k) * 3);
  // What the graph submitted to the communication worker: the fence alone at one rank (the
  // request receive, posted once per context, may be started by it); an export op per key else.
  const auto started = ctx().stats().started - started0;
  if (ctx().size() == 1)
    EXPECT_LE(started, 2u) << "ops submitted for a graph at one rank";
  else
    EXPECT_GE(started, n);
}

// Datablocks at one rank: a task reads the block the owner's task wrote, by handle (no copy:
// the reader sees the writer's bytes at the same address).
TEST(MpiOneRank, AnOwnedDatablockReachesItsReaderWithoutACopy) {
  const int me = ctx().rank();
  mpi::dist_graph dg(rt(), [me](std::uint64_t) { return me; });
  auto block = df::datablock::create(4096);
  const void* const where = block.bytes().data();
  auto ev = dg.event<df::datablock>(7, 4096);
  auto writer = dg.task(0, [ev, block]() mutable {
    block.as<double>()[0] = 2.5;
    ev.satisfy(block);
  });
  (void)writer;
  const void* seen = nullptr;
  double value = 0;
  auto reader = dg.task(1, [&seen, &value](df::edt_args& in) {
    seen = in.read<double>(0).data();
    value = in.read<double>(0)[0];
  });
  df::add_dependence(dg.event<df::datablock>(7, 4096), reader, 0);
  dg.wait();
  EXPECT_EQ(seen, where);
  EXPECT_EQ(value, 2.5);
}

}  // namespace
