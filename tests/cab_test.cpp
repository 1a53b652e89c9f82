// CAB's boundary level (Eq. 4 in integers, locus/cab.hpp) against hand-computed cases, and
// its options: LOCUS_CAB / config::cab / cab_options, their errors, and the scheduler's name.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdlib>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "locus/cab.hpp"
#include "locus/locus.hpp"

namespace {

using locus::cab::boundary_level;

constexpr std::size_t k_mib = std::size_t{1} << 20;

// The paper's worked example (section V): heat on 4 sockets of 6 MiB, 48 MiB of data, B = 2:
// max(ceil(log2 4 + 1), ceil(log2 8 + 1)) = max(3, 4) = 4.
TEST(CabBoundary, ThePapersHeatExampleGivesFour) {
  EXPECT_EQ(boundary_level(4, 2, 48 * k_mib, 6 * k_mib), 4u);
}

// Exact powers: a floating-point log_2(8) may come out as 3.0000000000000004 and its ceiling
// as 4; the integer search must give exactly the power.
TEST(CabBoundary, ExactPowersAreNotRoundedUp) {
  // The socket term alone (little data): 1 + ceil(log_B M).
  EXPECT_EQ(boundary_level(2, 2, 1, 6 * k_mib), 2u);
  EXPECT_EQ(boundary_level(4, 2, 1, 6 * k_mib), 3u);
  EXPECT_EQ(boundary_level(8, 2, 1, 6 * k_mib), 4u);
  EXPECT_EQ(boundary_level(9, 3, 1, 6 * k_mib), 3u);
  EXPECT_EQ(boundary_level(4, 4, 1, 6 * k_mib), 2u);
  EXPECT_EQ(boundary_level(64, 4, 1, 6 * k_mib), 4u);
  // The data term: S_d = B^k S_c exactly gives 1 + k.
  EXPECT_EQ(boundary_level(2, 2, 8 * 6 * k_mib, 6 * k_mib), 4u);
  EXPECT_EQ(boundary_level(2, 3, 27 * 1000, 1000), 4u);
  EXPECT_EQ(boundary_level(2, 10, 1000 * 1000, 1000), 4u);
}

TEST(CabBoundary, OneMoreThanAPowerTakesTheNextLevel) {
  EXPECT_EQ(boundary_level(3, 2, 1, 6 * k_mib), 3u);  // log2 3 = 1.58
  EXPECT_EQ(boundary_level(5, 2, 1, 6 * k_mib), 4u);
  EXPECT_EQ(boundary_level(10, 3, 1, 6 * k_mib), 4u);
  EXPECT_EQ(boundary_level(2, 2, 8 * 6 * k_mib + 1, 6 * k_mib), 5u);
}

// S_d just above S_c: the data term needs one split (1 + 1 = 2); with B = 4 and 2 sockets the
// socket term is 2 as well, and with S_d just above 4 S_c the data term (3) wins.
TEST(CabBoundary, DataJustAboveTheCache) {
  const std::size_t sc = 6 * k_mib;
  EXPECT_EQ(boundary_level(2, 4, sc, sc), 2u);      // fits: the socket term
  EXPECT_EQ(boundary_level(2, 4, sc + 1, sc), 2u);  // one split of 4 fits
  EXPECT_EQ(boundary_level(2, 4, 4 * sc, sc), 2u);
  EXPECT_EQ(boundary_level(2, 4, 4 * sc + 1, sc), 3u);
  EXPECT_EQ(boundary_level(2, 2, 2 * sc, sc), 2u);
  EXPECT_EQ(boundary_level(2, 2, 2 * sc + 1, sc), 3u);
  // Much less data than cache: the logarithm is negative; the socket term decides.
  EXPECT_EQ(boundary_level(4, 2, 1024, sc), 3u);
}

// ------------------------------------------------------------------ S_d from declared ranges

/// `n` bytes at `base + offset` in `mode` (the ranges are only measured, never touched).
locus::data_range at(const std::vector<std::byte>& base, std::size_t offset, std::size_t n,
                     locus::access mode) {
  return {base.data() + offset, n, mode};
}

// S_d is what the root reads: a stencil step reads one grid and writes the other, so two
// arrays of equal size count once (heat: S_d = 8 S_c, not 16 S_c: BL 4, not 5, on 4 sockets).
TEST(CabDataSize, TwoEqualArraysReadOneWriteTheOtherCountOnce) {
  const std::vector<std::byte> mem(64);
  const locus::data_range heat[] = {at(mem, 0, 24, locus::access::read),
                                    at(mem, 32, 20, locus::access::write)};
  EXPECT_EQ(locus::cab::data_size(heat), 24u);
  EXPECT_EQ(boundary_level(4, 2, 8 * 6 * k_mib, 6 * k_mib), 4u);   // one grid: the paper's 4
  EXPECT_EQ(boundary_level(4, 2, 16 * 6 * k_mib, 6 * k_mib), 5u);  // both would give 5
}

// Arrays of different sizes: the read ones add up whatever their size; a written one does not
// count even when it is the largest (a rule "the largest array" would give 40 here).
TEST(CabDataSize, ArraysOfDifferentSizesCountWhatIsRead) {
  const std::vector<std::byte> mem(128);
  const locus::data_range r[] = {at(mem, 0, 10, locus::access::read),
                                 at(mem, 16, 30, locus::access::read_write),
                                 at(mem, 64, 40, locus::access::write)};
  EXPECT_EQ(locus::cab::data_size(r), 40u);
  // A merge reading two halves of different sizes into a third array: the halves.
  const locus::data_range merge[] = {at(mem, 0, 12, locus::access::read),
                                     at(mem, 12, 4, locus::access::read),
                                     at(mem, 64, 16, locus::access::write)};
  EXPECT_EQ(locus::cab::data_size(merge), 16u);
}

// Two arrays both read (sor's grid read-write with its halo rows, cilksort's array and its
// scratch) count both; a root that reads nothing (a first touch) counts everything it writes.
TEST(CabDataSize, ReadArraysAllCountAndAWriteOnlyRootCountsItsWrites) {
  const std::vector<std::byte> mem(128);
  const locus::data_range both[] = {at(mem, 0, 32, locus::access::read_write),
                                    at(mem, 64, 32, locus::access::read_write)};
  EXPECT_EQ(locus::cab::data_size(both), 64u);
  const locus::data_range first_touch[] = {at(mem, 0, 32, locus::access::write),
                                           at(mem, 64, 24, locus::access::write)};
  EXPECT_EQ(locus::cab::data_size(first_touch), 56u);
  EXPECT_EQ(locus::cab::data_size({}), 0u);
}

TEST(CabBoundary, OneSocketOrNoDataIsZero) {
  EXPECT_EQ(boundary_level(1, 2, 48 * k_mib, 6 * k_mib), 0u);
  EXPECT_EQ(boundary_level(0, 2, 48 * k_mib, 6 * k_mib), 0u);
  EXPECT_EQ(boundary_level(4, 2, 0, 6 * k_mib), 0u);  // cpu-bound: classify_workload's rule
}

TEST(CabBoundary, HugeDataDoesNotOverflow) {
  constexpr std::size_t max = std::numeric_limits<std::size_t>::max();
  // ceil(log2(2^64 - 1)) = 64 on a 64-bit size_t.
  EXPECT_EQ(boundary_level(2, 2, max, 1), 1u + std::numeric_limits<std::size_t>::digits);
  EXPECT_EQ(boundary_level(2, 1u << 31, max, 1), 4u);  // 2^31, 2^62, then saturated
}

TEST(CabBoundary, BadBranchingOrCacheNamesTheField) {
  try {
    (void)boundary_level(4, 1, 100, 10);
    FAIL() << "B = 1 accepted";
  } catch (const locus::config_error& e) {
    EXPECT_NE(std::string(e.what()).find("cab.branching=\"1\""), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)boundary_level(4, 0, 100, 10), locus::config_error);
  try {
    (void)boundary_level(4, 2, 100, 0);
    FAIL() << "S_c = 0 accepted";
  } catch (const locus::config_error& e) {
    EXPECT_NE(std::string(e.what()).find("cab.cache_bytes"), std::string::npos) << e.what();
  }
}

// ------------------------------------------------------------------ LOCUS_CAB and config::cab

TEST(CabOptions, ParsesEveryKeyInAnyCaseAndOrder) {
  const locus::cab_params p = locus::parse_cab(" SD=1048576 , bl=4,b=3 ,Sc=65536", "LOCUS_CAB");
  EXPECT_EQ(p.boundary_level, 4);
  EXPECT_EQ(p.branching, 3u);
  EXPECT_EQ(p.data_bytes, 1048576u);
  EXPECT_EQ(p.cache_bytes, 65536u);
  EXPECT_FALSE(p.manual);
  const locus::cab_params m = locus::parse_cab("manual", "LOCUS_CAB");
  EXPECT_TRUE(m.manual);
  EXPECT_EQ(m.boundary_level, locus::cab_params::k_auto);
  EXPECT_EQ(locus::parse_cab("bl=0", "LOCUS_CAB").boundary_level, 0);
  EXPECT_EQ(locus::parse_cab("bl=63", "LOCUS_CAB").boundary_level, 63);
  EXPECT_EQ(locus::parse_cab("", "LOCUS_CAB").boundary_level, locus::cab_params::k_auto);
}

TEST(CabOptions, BadValuesAreErrorsNamingTheOptionAndTheReason) {
  const struct {
    const char* value;
    const char* reason;
  } cases[] = {
      {"bl=-1", "bl must be an integer from 0 to 63"},
      {"bl=64", "bl must be an integer from 0 to 63"},
      {"bl=99999999999999999999", "bl must be an integer from 0 to 63"},
      {"bl=x", "bl must be an integer from 0 to 63"},
      {"b=1", "b must be an integer from 2"},
      {"b=0", "b must be an integer from 2"},
      {"sd=0", "sd must be a positive byte count"},
      {"sc=", "sc must be a positive byte count"},
      {"bl=3,bl=4", "\"bl\" given twice"},
      {"manual,manual", "\"manual\" given twice"},
      {"depth=3", "unknown key \"depth\""},
      {"junk", "missing '=' in \"junk\""},
      {"bl=3,", "empty item"},
  };
  for (const auto& c : cases) {
    try {
      (void)locus::parse_cab(c.value, "LOCUS_CAB");
      ADD_FAILURE() << c.value << " accepted";
    } catch (const locus::config_error& e) {
      const std::string msg = e.what();
      EXPECT_EQ(msg.rfind("LOCUS_CAB=\"", 0), 0u) << msg;
      EXPECT_NE(msg.find(c.reason), std::string::npos) << c.value << ": " << msg;
      EXPECT_NE(msg.find("expected comma-separated key=N pairs"), std::string::npos) << msg;
    }
  }
}

TEST(CabOptions, FieldsSetInCodeAreCheckedWhenTheRuntimeStarts) {
  locus::config cfg;
  cfg.scheduler = locus::scheduler_kind::cab;
  cfg.topology = "sockets=2,cores=1";
  cfg.workers = 2;
  cfg.cab.boundary_level = -2;
  try {
    locus::runtime rt(cfg);
    FAIL() << "boundary_level = -2 accepted";
  } catch (const locus::config_error& e) {
    EXPECT_NE(std::string(e.what()).find("cab.boundary_level=\"-2\""), std::string::npos)
        << e.what();
  }
  cfg.cab.boundary_level = 64;
  EXPECT_THROW(locus::runtime{cfg}, locus::config_error);
  cfg.cab.boundary_level = locus::cab_params::k_auto;
  cfg.cab.branching = 1;
  try {
    locus::runtime rt(cfg);
    FAIL() << "branching = 1 accepted";
  } catch (const locus::config_error& e) {
    EXPECT_NE(std::string(e.what()).find("cab.branching=\"1\""), std::string::npos) << e.what();
  }
  // make_cab_scheduler checks its options the same way.
  locus::cab_options o;
  o.branching = 1;
  EXPECT_THROW((void)locus::make_cab_scheduler(o), locus::config_error);
}

/// Sets LOCUS_* variables for a scope and restores the caller's values after it.
class env_scope {
 public:
  void set(const char* name, const char* value) {
    const char* old = std::getenv(name);
    m_saved.emplace_back(name, old != nullptr ? std::optional<std::string>(old) : std::nullopt);
    setenv(name, value, 1);
  }
  env_scope() = default;
  env_scope(const env_scope&) = delete;
  env_scope& operator=(const env_scope&) = delete;
  ~env_scope() {
    for (auto it = m_saved.rbegin(); it != m_saved.rend(); ++it) {
      if (it->second) {
        setenv(it->first.c_str(), it->second->c_str(), 1);
      } else {
        unsetenv(it->first.c_str());
      }
    }
  }

 private:
  std::vector<std::pair<std::string, std::optional<std::string>>> m_saved;
};

TEST(CabOptions, TheSchedulerIsNamedAndReadFromTheEnvironment) {
  EXPECT_EQ(locus::parse_scheduler("CAB", "LOCUS_SCHEDULER"), locus::scheduler_kind::cab);
  EXPECT_EQ(locus::to_string(locus::scheduler_kind::cab), "cab");
  {
    env_scope env;
    env.set("LOCUS_SCHEDULER", "cab");
    env.set("LOCUS_CAB", "bl=5,b=4");
    const locus::config cfg = locus::config::from_env();
    EXPECT_EQ(cfg.scheduler, locus::scheduler_kind::cab);
    EXPECT_EQ(cfg.cab.boundary_level, 5);
    EXPECT_EQ(cfg.cab.branching, 4u);
  }
  env_scope env;
  env.set("LOCUS_CAB", "bl=5,b=1");
  EXPECT_THROW((void)locus::config::from_env(), locus::config_error);
}

TEST(CabOptions, ASchedulerObjectServesOneRuntime) {
  locus::config cfg;
  cfg.topology = "sockets=2,cores=1";
  cfg.workers = 2;
  cfg.custom_scheduler = locus::make_cab_scheduler();
  locus::runtime first(cfg);
  EXPECT_EQ(first.scheduler_name(), "cab");
  EXPECT_THROW(locus::runtime{cfg}, locus::config_error);
}

}  // namespace
