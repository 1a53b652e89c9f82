// The clock arithmetic of locus-mpi-bench --lat (bench/mpi/clock_sync.hpp), checked on made-up
// clocks: the path that moves a rank on another host onto rank 0's clock cannot be run on one
// host, so it is checked here with a known offset.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "clock_sync.hpp"

namespace lmb = locus_mpi_bench;

namespace {

/// Rounds of a ping-pong with rank r's clock `offset` ns ahead of rank 0's: each round leaves at
/// rank 0's time `t`, takes `out` ns to reach rank r and `back` ns to return.
lmb::clock_sample round_trip(std::int64_t t, std::int64_t out, std::int64_t back,
                             std::int64_t offset) {
  return {t, t + out + offset, t + out + back};
}

}  // namespace

TEST(MpiClockSync, TheShortestTripGivesTheEstimateAndItsBound) {
  const std::int64_t offset = 5'000'000'000;  // rank r's clock started 5 s before rank 0's
  std::vector<lmb::clock_sample> rounds = {
      round_trip(1'000, 900, 100, offset),  // slow and lopsided: estimate off by 400
      round_trip(5'000, 60, 40, offset),    // the shortest trip: off by 10, bound 50
      round_trip(9'000, 300, 2'000, offset),
  };
  const lmb::clock_offset o = lmb::estimate_offset(rounds);
  EXPECT_EQ(o.error_ns, 50);
  EXPECT_EQ(o.offset_ns, offset + 10);
  EXPECT_LE(o.offset_ns - offset, o.error_ns);  // the truth lies within the bound
  EXPECT_LE(offset - o.offset_ns, o.error_ns);
}

TEST(MpiClockSync, OneClockIsWithinItsBoundAndTwoAreNot) {
  // One clock: whatever the delays, t0 <= tr <= t1.
  for (std::int64_t out : {0, 7, 50, 93, 100}) {
    const lmb::clock_sample s{1'000, 1'000 + out, 1'100};
    EXPECT_TRUE(lmb::within_bound(lmb::estimate_offset({&s, 1}))) << out;
  }
  // Two clocks 1 ms apart, called one clock (ranks that claim one host but do not share it).
  const lmb::clock_sample s = round_trip(1'000, 50, 50, 1'000'000);
  EXPECT_FALSE(lmb::within_bound(lmb::estimate_offset({&s, 1})));
}

TEST(MpiClockSync, OnlyAnotherHostsTimesAreShiftedAndUnrecordedTimesStayZero) {
  lmb::clock_offset here{123, 40, true}, there{5'000, 40, false};
  EXPECT_EQ(lmb::shift_of(here), 0);
  EXPECT_EQ(lmb::shift_of(there), 5'000);
  // Two records of 4 words; words 1..3 are times, 0 in word 2 of the second is "not recorded".
  std::vector<std::int64_t> words = {7, 10'000, 11'000, 12'000, 8, 20'000, 0, 22'000};
  lmb::shift_times(words, 4, 1, 3, lmb::shift_of(there));
  EXPECT_EQ(words, (std::vector<std::int64_t>{7, 5'000, 6'000, 7'000, 8, 15'000, 0, 17'000}));
  lmb::shift_times(words, 4, 1, 3, lmb::shift_of(here));
  EXPECT_EQ(words, (std::vector<std::int64_t>{7, 5'000, 6'000, 7'000, 8, 15'000, 0, 17'000}));
}
