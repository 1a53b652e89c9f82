// Algorithm 1 (locus::laws::packing_search), alone and driving the laws scheduler with a
// synthetic cost (wall time on a shared 2-core machine is noise), and Eq. 1's owner.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "laws_support.hpp"
#include "locus/iterate.hpp"
#include "locus/laws.hpp"
#include "locus/locus.hpp"

namespace {

using locus::laws::packing_search;

/// Runs the search on cost(offset) until done; returns the offsets it ran, in order.
template <class Cost>
std::vector<int> drive(packing_search& s, Cost cost) {
  std::vector<int> ran;
  for (int k = 0; k < 64 && !s.done(); ++k) {
    ran.push_back(s.current());
    s.record(cost(s.current()));
  }
  return ran;
}

TEST(PackingSearch, AMinimumBelowIsFoundGoingDown) {
  packing_search s(-3, 6);
  const auto ran = drive(s, [](int x) { return (x - 2.0) * (x - 2.0); });
  EXPECT_TRUE(s.done());
  EXPECT_EQ(s.best(), 2);
  EXPECT_EQ(s.current(), 2);
  EXPECT_EQ(ran, (std::vector<int>{0, 1, 2, 3}));
}

TEST(PackingSearch, AMinimumAboveIsFoundGoingUp) {
  packing_search s(-3, 6);
  const auto ran = drive(s, [](int x) { return (x + 2.0) * (x + 2.0); });
  EXPECT_EQ(s.best(), -2);
  EXPECT_EQ(ran, (std::vector<int>{0, 1, -1, -2, -3}));
}

TEST(PackingSearch, AFlatCostKeepsTheInitialPacking) {
  packing_search s(-3, 6);
  const auto ran = drive(s, [](int) { return 5.0; });
  EXPECT_EQ(s.best(), 0);
  EXPECT_EQ(ran, (std::vector<int>{0, 1, -1}));
}

TEST(PackingSearch, NeverLeavesItsBounds) {
  packing_search down(-1, 2);
  (void)drive(down, [](int x) { return -x; });  // better and better below
  EXPECT_EQ(down.best(), 2);
  packing_search up(-2, 0);
  const auto ran = drive(up, [](int x) { return x; });  // better and better above
  EXPECT_EQ(up.best(), -2);
  EXPECT_EQ(ran, (std::vector<int>{0, -1, -2}));
  packing_search none(0, 0);
  (void)drive(none, [](int) { return 1.0; });
  EXPECT_EQ(none.best(), 0);
}

TEST(LawsOwner, MajorityOwnerAndStraddling) {
  std::vector<char> buf(1200);
  const auto root = locus::data_range::of(buf.data(), buf.size(), locus::access::read);
  const auto at = [&](std::size_t lo, std::size_t n) {
    return locus::data_range::of(buf.data() + lo, n, locus::access::read);
  };
  EXPECT_EQ(locus::laws::owner_of(root, at(0, 100), 3).part, 0u);
  EXPECT_TRUE(locus::laws::owner_of(root, at(0, 100), 3).whole);
  EXPECT_EQ(locus::laws::owner_of(root, at(350, 100), 3).part, 0u);  // 50 and 50: the lower
  EXPECT_FALSE(locus::laws::owner_of(root, at(350, 100), 3).whole);
  EXPECT_FALSE(locus::laws::owner_of(root, at(350, 100), 3).mostly_whole);
  // A block of part 0 with a halo row past its end (a quarter of its bytes at most outside):
  // mostly whole, not whole; a third outside is neither.
  EXPECT_FALSE(locus::laws::owner_of(root, at(300, 120), 3).whole);
  EXPECT_TRUE(locus::laws::owner_of(root, at(300, 120), 3).mostly_whole);   // 100 in, 20 out
  EXPECT_FALSE(locus::laws::owner_of(root, at(300, 150), 3).mostly_whole);  // 100 in, 50 out
  EXPECT_EQ(locus::laws::owner_of(root, at(300, 200), 3).part, 0u);         // 100 and 100: lower
  EXPECT_EQ(locus::laws::owner_of(root, at(1100, 100), 3).part, 2u);
  EXPECT_THROW((void)locus::laws::owner_of(root, at(1100, 100), 0), std::invalid_argument);
  std::vector<char> other(10);
  EXPECT_THROW((void)locus::laws::owner_of(
                   root, locus::data_range::of(other.data(), 10, locus::access::read), 2),
               std::invalid_argument);
}

/// The offset the laws scheduler settles on for a synthetic cost of the packing offset.
int settle(double (*curve)(int), std::vector<locus::iteration_stats>* out = nullptr) {
  locus::laws_options o;
  o.cache_bytes = 16 << 10;  // CF roots start at 16 KiB subtrees: 5 levels below the root
  o.cost_function = [curve](const locus::ext::iteration_record& r) {
    return curve(r.packing_offset);
  };
  locus::runtime rt(laws_test::laws_config("sockets=4,cores=1", 4, locus::make_laws_scheduler(o)));
  laws_test::sweep sw(1 << 16, 32);  // depth ~11 over 512 KiB, leaves of 256 B
  const auto recs = locus::iterate(rt, 14, [&](std::size_t) { return sw.root(); });
  for (double v : sw.a)
    EXPECT_EQ(v, 14.0);
  if (out != nullptr) *out = recs;
  EXPECT_EQ(recs.back().stage, "tuned");
  return recs.back().packing_offset;
}

TEST(LawsAlgorithm1, ConvergesOnAMinimumBelow) {
  std::vector<locus::iteration_stats> recs;
  EXPECT_EQ(settle([](int x) { return std::abs(x - 2) + 0.0; }, &recs), 2);
  // The CF depth moved with the offset, from the initial packing's.
  EXPECT_EQ(recs[1].packing_offset, 0);
  EXPECT_EQ(recs.back().cf_level, recs[1].cf_level + 2);
  EXPECT_GT(recs.back().cf_roots, 0u);
}

TEST(LawsAlgorithm1, ConvergesOnAMinimumAbove) {
  // The socket level bounds the climb: 4 sockets are 2 levels below the root, CF roots 5.
  EXPECT_EQ(settle([](int x) { return std::abs(x + 2) + 0.0; }), -2);
  EXPECT_EQ(settle([](int x) { return std::abs(x + 9) + 0.0; }), -3);  // clamped at the socket
}

TEST(LawsAlgorithm1, KeepsTheInitialPackingOnAFlatCost) {
  EXPECT_EQ(settle([](int) { return 1.0; }), 0);
}

}  // namespace
