// tests/bench_uts_slots_test.cpp — the uts kernel's child slots are sized to the tree
// (bench/kernels/uts/locus_visit.hpp, issue 20's uts RSS): a binomial tree's m inline slots,
// and every capacity giving the serial recursion's tally.
#ifdef LOCUS_TEST_KERNELS

#include <gtest/gtest.h>
#include <locus/locus.hpp>

#include <vector>

#include "kernels/uts/locus_visit.hpp"

namespace {

uts_kernel::tally serial_uts(const uts_kernel::tree_spec& t, const uts_kernel::node& n) {
  const int count = uts_kernel::num_children(t, n);
  uts_kernel::tally sum{1, count == 0 ? 1 : 0, n.height};
  for (int i = 0; i < count; ++i)
    sum.add(serial_uts(t, uts_kernel::child(n, i)));
  return sum;
}

/// A small binomial tree (about a thousand nodes) with m children per non-leaf.
uts_kernel::tree_spec small_binomial(int m) {
  return {"test",
          uts_kernel::tree_type::binomial,
          uts_kernel::geo_shape::linear,
          0,
          40,
          7,
          0.9 / m,
          m,
          0,
          0,
          0};
}

}  // namespace

// A binomial tree gives every node but the root 0 or m children: m inline slots (up to 8) hold
// them all, so no slot of a frame on the path is unused and no node but the root allocates.
// Other trees keep 8.
TEST(UtsSlots, InlineSlotsFollowTheBranchingFactor) {
  EXPECT_EQ(uts_kernel::inline_slots_for(uts_kernel::parse("T3L")), 5);
  EXPECT_EQ(uts_kernel::inline_slots_for(uts_kernel::parse("T3")), 8);
  EXPECT_EQ(uts_kernel::inline_slots_for(uts_kernel::parse("T1S")), 8);
  EXPECT_EQ(uts_kernel::inline_slots_for(small_binomial(3)), 3);
  EXPECT_EQ(uts_kernel::inline_slots_for(small_binomial(12)), 8);
}

// Every inline capacity gives the serial recursion's tally: slots all inline (m <= 8), on the
// heap past them (m = 12: every non-leaf allocates), and a geometric tree with variable counts.
TEST(UtsSlots, EveryCapacityGivesTheSerialTally) {
  std::vector<uts_kernel::tree_spec> trees;
  for (const int m : {1, 3, 5, 8, 12})
    trees.push_back(small_binomial(m));
  trees.push_back(uts_kernel::parse("T1S"));
  for (const unsigned workers : {1u, 2u}) {
    locus::runtime rt{locus::config{.workers = workers}};
    for (const auto& t : trees) {
      const uts_kernel::tally want = serial_uts(t, uts_kernel::root(t));
      uts_kernel::tally got;
      rt.run(uts_kernel::visit_locus(&t, uts_kernel::root(t), &got));
      EXPECT_EQ(got.nodes, want.nodes) << t.m << " on " << workers;
      EXPECT_EQ(got.leaves, want.leaves) << t.m << " on " << workers;
      EXPECT_EQ(got.depth, want.depth) << t.m << " on " << workers;
      EXPECT_GT(want.nodes, 40) << "a tree of the root's children alone tests little";
    }
  }
}

#endif  // LOCUS_TEST_KERNELS
