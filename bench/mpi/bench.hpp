// locus-mpi-bench: shared pieces of the kernels (ping-pong, heat 2-D, cholesky) and the driver.
#pragma once

#include <locus/locus.hpp>
#include <locus/mpi.hpp>

#include <nlohmann/json.hpp>

#include <chrono>
#include <string>
#include <vector>

namespace locus_mpi_bench {

struct params {
  int reps = 5;
  std::size_t iters = 0;                ///< 0: the kernel's default
  std::string sizes;                    ///< kernel-specific, empty: default
  std::string chol_sizes = "4096x256";  ///< cholesky: NxB[,NxB...]
  std::vector<std::string> runtimes;    ///< cholesky: which runtimes (empty: all built)
  std::vector<std::size_t> pp_bytes;    ///< pingpong: message sizes (empty: 8 and 1 MiB)
  /// cholesky, locus: trace every remote tile (context::trace_values) and add the latency
  /// summary ("latency") to the result.
  bool lat = false;
  /// cholesky: the process grid "PxQ" (P * Q must be the number of ranks); empty: the most
  /// square grid with P >= Q (chol::grid_for).
  std::string grid;
  /// cholesky, locus: give the tile tasks priorities (the panel first: a flow scheduler's
  /// ready queues take them in that order; the default scheduler ignores them).
  bool priorities = true;
  /// locus's scheduler, as --scheduler named it (main installs it): "slaw" or "flow".
  std::string scheduler = "slaw";
  /// cholesky, locus: write each rank's tile tasks (chol::tile_trace) to "<tile_trace>.<rank>".
  std::string tile_trace;
};

/// Seconds of `f()`, every rank timed between two barriers (so the slowest rank counts).
double timed(locus::mpi::context& ctx, const std::function<void()>& f);

/// Median, min, max of `v` (non-empty).
struct spread {
  double median, min, max;
};
spread spread_of(std::vector<double> v);

/// Results are JSON objects like locus-bench's: kernel, size, runtime, ranks, workers, reps,
/// median_s, min_s, max_s, verified, plus kernel fields.
using result = nlohmann::json;

std::vector<result> pingpong(locus::mpi::context& ctx, locus::runtime& rt, const params& p);
std::vector<result> heat(locus::mpi::context& ctx, locus::runtime& rt, const params& p);
std::vector<result> cholesky(locus::mpi::context& ctx, locus::runtime& rt, const params& p);

/// Every rank's value traces joined on rank 0 (collective; the others get an empty result):
/// per remote value, the owner's export (value final) to its send posted, the send posted to
/// the reader's receipt, the receipt to the waiting task ready, the whole, in microseconds
/// (p10/p50/p90/max/mean), and which thread made each step (latency.cpp).
result latency_summary(locus::mpi::context& ctx, const std::vector<locus::mpi::value_trace>& mine);

}  // namespace locus_mpi_bench
