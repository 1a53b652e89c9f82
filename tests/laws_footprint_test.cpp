// LAWS's S_alpha from the model's private misses (laws_options::footprint, docs/design/0017
// "Packing"): Eq. 2 over a synthetic tree whose misses are known (pack_by_footprint), the CF
// depth the scheduler picks from a first iteration's misses against its declared bytes, and the
// clear error without accounting.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "laws_support.hpp"
#include "locus/ext/accounting.hpp"
#include "locus/iterate.hpp"
#include "locus/laws.hpp"
#include "locus/locus.hpp"

namespace {

using locus::ext::task_footprint;

/// Positions in a 1 KiB array; `lo` and `hi` in bytes.
struct tree {
  std::array<std::byte, 1024> a{};
  task_footprint at(std::uint32_t level, std::size_t lo, std::size_t hi, std::uint64_t m) {
    return {level, locus::data_range::of(a.data() + lo, hi - lo, locus::access::read), m};
  }
};

TEST(LawsFootprint, EqTwoSumsEachSubtreesOwnMisses) {
  tree t;
  // root [0,1024) -> [0,512) [512,1024) -> four leaves of 256 B missing 100, 300, 200, 50.
  const std::vector<task_footprint> tasks{
      t.at(0, 0, 1024, 0),    t.at(1, 0, 512, 0),     t.at(1, 512, 1024, 0), t.at(2, 0, 256, 100),
      t.at(2, 256, 512, 300), t.at(2, 512, 768, 200), t.at(2, 768, 1024, 50)};
  const auto p = locus::laws::pack_by_footprint(tasks, 300);
  EXPECT_EQ(p.subtree, (std::vector<std::uint64_t>{650, 400, 250, 100, 300, 200, 50}));
  // S <= 300 < S_parent: [0,256) and [256,512) (parent 400) at level 2, [512,1024) (250, root
  // 650) at level 1: the deepest is 2.
  EXPECT_EQ(p.cf_depth, 2);
  EXPECT_EQ(locus::laws::pack_by_footprint(tasks, 450).cf_depth, 1);  // 400 and 250 fit
  const auto all = locus::laws::pack_by_footprint(tasks, 1000);
  EXPECT_EQ(all.cf_depth, -1);
  EXPECT_TRUE(all.all_fit);
  const auto none = locus::laws::pack_by_footprint(tasks, 10);
  EXPECT_EQ(none.cf_depth, -1);
  EXPECT_TRUE(none.none_fit);
}

TEST(LawsFootprint, HaloWidenedPositionsNestAsTheTreeDoes) {
  tree t;
  // Rows of 16 B with one halo row each side (heat's tasks): root rows 1..63, halves 1..32 and
  // 32..63, leaves of 16 rows. A leaf's position lies inside its parent's only.
  const auto rows = [&t](std::uint32_t level, std::size_t lo, std::size_t hi, std::uint64_t m) {
    return t.at(level, (lo - 1) * 16, (hi + 1) * 16, m);
  };
  const std::vector<task_footprint> tasks{
      rows(0, 1, 63, 0),   rows(1, 1, 32, 0),   rows(1, 32, 63, 0), rows(2, 1, 16, 10),
      rows(2, 16, 32, 20), rows(2, 32, 48, 30), rows(2, 48, 63, 40)};
  const auto p = locus::laws::pack_by_footprint(tasks, 35);
  EXPECT_EQ(p.subtree, (std::vector<std::uint64_t>{100, 30, 70, 10, 20, 30, 40}));
  EXPECT_EQ(p.cf_depth, 2);  // 10, 20 and 30 fit under parents of 30 (fits) and 70: [32,48)
  EXPECT_EQ(locus::laws::pack_by_footprint(tasks, 75).cf_depth, 1);
}

/// laws_test::sweep whose root declares its array twice (two ranges over the same bytes): each
/// leaf's declared bytes are twice what it touches, and its second read hits the private level,
/// so its misses are half its declared bytes.
struct doubled : laws_test::sweep {
  using sweep::sweep;
  locus::task<void> root() {
    const locus::data_range r =
        locus::data_range::of(a.data(), a.size(), locus::access::read_write);
    co_await locus::with_data(split(0, a.size()), std::array<locus::data_range, 2>{r, r},
                              {2, sizeof(double)});
  }
};

int initial_cf_level(locus::laws_footprint f) {
  locus::laws_options o;
  o.footprint = f;
  o.tune = false;
  // Between a level's declared 8 KiB and its parent's 16 KiB; misses (8-8.06 KiB: the array
  // need not start on a line) fit one level up.
  o.cache_bytes = 10 << 10;
  locus::config cfg = laws_test::accounted("sockets=2,cores=1,l3=1MiB,l2=64KiB", 2);
  cfg.custom_scheduler = locus::make_laws_scheduler(o);
  locus::runtime rt(cfg);
  doubled sw(8192, 64);  // 64 KiB, leaves of 512 B
  const auto recs = locus::iterate(rt, 2, [&](std::size_t) { return sw.root(); });
  for (double v : sw.a)
    EXPECT_EQ(v, 2.0);
  EXPECT_EQ(recs[1].stage, "tuned");
  return recs[1].cf_level;
}

TEST(LawsFootprint, MissesGiveSubtreesHalfTheirDeclaredBytesAndCfRootsOneLevelUp) {
  const int declared = initial_cf_level(locus::laws_footprint::declared);
  const int misses = initial_cf_level(locus::laws_footprint::misses);
  ASSERT_GT(declared, 1);
  EXPECT_EQ(misses, declared - 1);
}

TEST(LawsFootprint, MissesWithoutAccountingIsAClearError) {
  locus::laws_options o;
  o.footprint = locus::laws_footprint::misses;
  locus::runtime rt(laws_test::laws_config("sockets=2,cores=1", 2, locus::make_laws_scheduler(o)));
  laws_test::sweep sw(4096, 64);
  try {
    (void)locus::iterate(rt, 2, [&](std::size_t) { return sw.root(); });
    FAIL() << "expected config_error";
  } catch (const locus::config_error& e) {
    EXPECT_NE(std::string(e.what()).find("footprint=misses"), std::string::npos) << e.what();
  }
  // The runtime stays usable.
  EXPECT_EQ(rt.run([]() -> locus::task<int> { co_return 7; }()), 7);
  const locus::laws_options p = locus::parse_laws_options("footprint=misses", "LOCUS_LAWS");
  EXPECT_EQ(p.footprint, locus::laws_footprint::misses);
  EXPECT_THROW((void)locus::parse_laws_options("footprint=lines", "LOCUS_LAWS"),
               locus::config_error);
}

}  // namespace
