// bench/mpi/clock_sync.hpp — the clock arithmetic of locus-mpi-bench --lat (latency.cpp), free of
// MPI so that tests can check it: Cristian's estimate of another rank's clock offset from timed
// round trips, the check that a rank on rank 0's own host agrees with its clock, and the shift
// of a rank's recorded times onto rank 0's clock.
#pragma once

#include <climits>
#include <cstddef>
#include <cstdint>
#include <span>

namespace locus_mpi_bench {

/// One round trip timed by rank 0: it read t0, sent it, rank r answered with its time tr, and
/// rank 0 read t1 on receipt (nanoseconds, each on its own rank's steady clock).
struct clock_sample {
  std::int64_t t0 = 0, tr = 0, t1 = 0;
};

/// Rank r's clock minus rank 0's, and the bound of that estimate.
struct clock_offset {
  std::int64_t offset_ns = 0;
  std::int64_t error_ns = 0;
  bool same_host = true;  ///< on rank 0's host: one clock, the offset is only checked
};

/// Cristian's method: on one clock t0 <= tr <= t1, so rank r's clock is ahead of rank 0's by
/// tr - (t0 + t1) / 2, within +-(t1 - t0) / 2. The round with the shortest trip gives the
/// estimate and the tightest bound (its delays were the smallest).
[[nodiscard]] inline clock_offset estimate_offset(std::span<const clock_sample> rounds) {
  clock_offset o;
  std::int64_t best_trip = LLONG_MAX;
  for (const clock_sample& s : rounds) {
    const std::int64_t trip = s.t1 - s.t0;
    if (trip < best_trip) {
      best_trip = trip;
      o.offset_ns = s.tr - s.t0 - trip / 2;
      o.error_ns = (trip + 1) / 2;
    }
  }
  return o;
}

/// On one clock the estimate must lie within its bound; outside it, the method (or the clock)
/// is broken and the latency figures are not to be trusted.
[[nodiscard]] inline bool within_bound(const clock_offset& o) {
  return o.offset_ns <= o.error_ns && -o.offset_ns <= o.error_ns;
}

/// The shift that moves rank r's times onto rank 0's clock (subtract it): the estimate for a
/// rank on another host, 0 on rank 0's host (its clock is rank 0's; applying the estimate
/// would only add its error).
[[nodiscard]] inline std::int64_t shift_of(const clock_offset& o) {
  return o.same_host ? 0 : o.offset_ns;
}

/// Subtracts `shift` from the time words [first, last] of every record of `stride` words in
/// `words`; a 0 is a time not recorded and stays 0.
inline void shift_times(std::span<std::int64_t> words, std::size_t stride, std::size_t first,
                        std::size_t last, std::int64_t shift) {
  if (shift == 0) return;
  for (std::size_t i = 0; i + stride <= words.size(); i += stride)
    for (std::size_t w = first; w <= last; ++w)
      if (words[i + w] != 0) words[i + w] -= shift;
}

}  // namespace locus_mpi_bench
