// Task graphs across ranks: values and datablocks travel between owners; random DAGs spread
// over the ranks give the serial answer.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "mpi_support.hpp"

namespace df = locus::dataflow;
namespace mpi = locus::mpi;
using locus_mpi_test::ctx;
using locus_mpi_test::rt;

namespace {

constexpr std::uint64_t k_mod = 1000000007;

TEST(MpiGraph, AChainThatCrossesRanksAtEveryStepGivesTheSerialSum) {
  const int size = ctx().size();
  constexpr std::uint64_t n = 64;
  mpi::dist_graph dg(rt(), [size](std::uint64_t k) { return static_cast<int>(k % size); });
  if (dg.mine(0)) dg.event<long>(0).satisfy(0L);
  for (std::uint64_t k = 1; k < n; ++k) {
    if (!dg.mine(k)) continue;
    auto out = dg.event<long>(k);
    auto t = dg.task(1, [out, k](df::edt_args& in) mutable {
      out.satisfy(in.get<long>(0) + static_cast<long>(k));
    });
    df::add_dependence(dg.event<long>(k - 1), t, 0);
  }
  dg.wait();
  if (dg.mine(n - 1)) EXPECT_EQ(dg.event<long>(n - 1).get(), static_cast<long>(n * (n - 1) / 2));
}

// Datablocks travel by value: each step doubles every element of its predecessor's block.
TEST(MpiGraph, DatablocksTravelByValueBetweenRanks) {
  const int size = ctx().size();
  constexpr std::uint64_t n = 12;
  constexpr std::size_t len = 4096;  // 32 KiB: past Open MPI's eager limit on shared memory
  mpi::dist_graph dg(rt(), [size](std::uint64_t k) { return static_cast<int>((k + 1) % size); });
  if (dg.mine(0)) {
    auto b = df::datablock::create(len * sizeof(double));
    for (std::size_t i = 0; i < len; ++i)
      b.as<double>()[i] = double(i);
    dg.event<df::datablock>(0).satisfy(b);
  }
  for (std::uint64_t k = 1; k < n; ++k) {
    if (!dg.mine(k)) continue;
    auto out = dg.event<df::datablock>(k);
    auto t = dg.task(1, [out](df::edt_args& in) mutable {
      auto src = in.read<double>(0);
      auto b = df::datablock::create(src.size_bytes());
      for (std::size_t i = 0; i < src.size(); ++i)
        b.as<double>()[i] = 2 * src[i];
      out.satisfy(b);
    });
    df::add_dependence(dg.event<df::datablock>(k - 1, len * sizeof(double)), t, 0);
  }
  dg.wait();
  if (dg.mine(n - 1)) {
    const auto v = dg.event<df::datablock>(n - 1).get().as<double>();
    ASSERT_EQ(v.size(), len);
    for (std::size_t i = 0; i < len; i += 511)
      EXPECT_EQ(v[i], double(i) * (1 << (n - 1)));
  }
}

/// A random DAG: node i depends on up to 3 earlier nodes; value(i) = i*7 + sum of the values
/// of its predecessors (mod p). Every rank draws the same DAG and the same owners from `seed`.
struct dag {
  std::vector<std::vector<std::uint64_t>> preds;
  std::vector<int> owner;
};
dag random_dag(std::uint32_t seed, std::uint64_t n, int ranks) {
  std::mt19937 gen(seed);
  dag d;
  d.preds.resize(n);
  d.owner.resize(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    d.owner[i] = static_cast<int>(gen() % static_cast<unsigned>(ranks));
    const unsigned np = i == 0 ? 0 : gen() % 4;
    for (unsigned p = 0; p < np; ++p)
      d.preds[i].push_back(gen() % i);
  }
  return d;
}
std::vector<std::uint64_t> serial(const dag& d) {
  std::vector<std::uint64_t> v(d.preds.size());
  for (std::uint64_t i = 0; i < v.size(); ++i) {
    std::uint64_t s = i * 7;
    for (auto p : d.preds[i])
      s = (s + v[p]) % k_mod;
    v[i] = s;
  }
  return v;
}

TEST(MpiGraph, RandomDistributedDagsMatchASerialRun) {
  const int size = ctx().size();
  for (std::uint32_t seed : {1u, 2u, 3u, 4u, 5u}) {
    const std::uint64_t n = 300;
    const dag d = random_dag(seed, n, size);
    const auto want = serial(d);
    mpi::dist_graph dg(rt(), [&d](std::uint64_t k) { return d.owner[k]; });
    for (std::uint64_t i = 0; i < n; ++i) {
      if (!dg.mine(i)) continue;
      const auto np = static_cast<std::uint32_t>(d.preds[i].size());
      auto out = dg.event<std::uint64_t>(i);
      auto t = dg.task(np, [out, i, np](df::edt_args& in) mutable {
        std::uint64_t s = i * 7;
        for (std::uint32_t p = 0; p < np; ++p)
          s = (s + in.get<std::uint64_t>(p)) % k_mod;
        out.satisfy(s);
      });
      for (std::uint32_t p = 0; p < np; ++p)
        df::add_dependence(dg.event<std::uint64_t>(d.preds[i][p]), t, p);
    }
    dg.wait();
    int wrong = 0;
    for (std::uint64_t i = 0; i < n; ++i)
      if (dg.mine(i) && dg.event<std::uint64_t>(i).get() != want[i]) ++wrong;
    EXPECT_EQ(wrong, 0) << "seed " << seed << " on rank " << ctx().rank();
  }
}

TEST(MpiGraph, AnOwnerMapGivingAnUnknownRankIsAnError) {
  const int size = ctx().size();
  mpi::dist_graph dg(rt(), [size](std::uint64_t) { return size; });
  try {
    (void)dg.event<int>(3);
    FAIL() << "no error";
  } catch (const mpi::error& e) {
    EXPECT_NE(std::string(e.what()).find("the owner map gives rank " + std::to_string(size) +
                                         " for key 3"),
              std::string::npos)
        << e.what();
  }
  dg.wait();  // nothing to do: the fence alone
}

TEST(MpiGraph, AKeyOutsideTheTagRangeOrWithTwoTypesIsAnError) {
  mpi::dist_graph dg(rt(), [](std::uint64_t) { return 0; });
  try {
    (void)dg.event<int>(static_cast<std::uint64_t>(ctx().tag_limit()));
    FAIL() << "no error";
  } catch (const mpi::error& e) {
    EXPECT_NE(std::string(e.what()).find("is outside the module's range"), std::string::npos);
  }
  if (dg.mine(1)) {
    dg.event<int>(1).satisfy(1);
    EXPECT_THROW((void)dg.event<double>(1), mpi::error);
  }
  dg.wait();
}

}  // namespace

namespace {

/// Rank 0 owns key 7 (value 70 + `round`); every other rank adds 1 to it in a task.
long graph_round(mpi::dist_graph& dg, long round) {
  if (dg.mine(7)) dg.event<long>(7).satisfy(70 + round);
  locus::dataflow::event<long> got;
  if (!dg.mine(7)) {
    auto t = dg.task(1, [got](df::edt_args& in) mutable { got.satisfy(in.get<long>(0) + 1); });
    df::add_dependence(dg.event<long>(7), t, 0);
  }
  dg.wait();
  return dg.mine(7) ? 71 + round : got.get();
}

// Ranks may build one graph from different code (a branch per rank) when they name it: the
// creation-order check compares names then, not call sites.
TEST(MpiGraph, GraphsNamedAlikeMatchAcrossDifferentCallSites) {
  const auto owner = [](std::uint64_t) { return 0; };
  for (long round = 0; round < 3; ++round) {
    long v = 0;
    if (ctx().rank() % 2 == 0) {
      mpi::dist_graph dg(rt(), owner, "round");
      v = graph_round(dg, round);
    } else {
      mpi::dist_graph dg(rt(), owner, "round");
      v = graph_round(dg, round);
    }
    EXPECT_EQ(v, 71 + round) << "rank " << ctx().rank();
  }
}

// The same loop creating unnamed graphs at one call site is the same sequence on every rank.
TEST(MpiGraph, GraphsMadeInALoopAtOneSiteMatch) {
  const auto owner = [](std::uint64_t) { return 0; };
  for (long round = 0; round < 3; ++round) {
    mpi::dist_graph dg(rt(), owner);
    EXPECT_EQ(graph_round(dg, round), 71 + round) << "rank " << ctx().rank();
  }
}

}  // namespace
