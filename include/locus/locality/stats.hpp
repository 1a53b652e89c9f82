// locus/locality/stats.hpp — what the locality accountant reports: declared bytes by distance
// to their home, and the modelled misses of the private level and of the L3 by the same
// distance, per worker, per socket and in total.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "locus/locality/cache_model.hpp"

namespace locus {

/// A quantity (bytes accessed, or lines missed) split by the distance between the worker that
/// made the access and the home of the data.
struct distance_counts {
  std::uint64_t same_core = 0;    ///< home is the worker's own core
  std::uint64_t same_l3 = 0;      ///< another core of the worker's L3 group
  std::uint64_t same_numa = 0;    ///< the worker's NUMA node, farther than its L3 (only when
                                  ///< a package has several nodes; else counted as same_socket)
  std::uint64_t same_socket = 0;  ///< the worker's package, farther than the above
  std::uint64_t remote = 0;       ///< another package (or a NUMA node of none of the above)
  std::uint64_t unplaced = 0;     ///< read before any write or placement gave the page a home

  [[nodiscard]] std::uint64_t local() const noexcept {
    return same_core + same_l3 + same_numa + same_socket;
  }
  /// With a home: local() + remote.
  [[nodiscard]] std::uint64_t placed() const noexcept { return local() + remote; }
  [[nodiscard]] std::uint64_t total() const noexcept { return placed() + unplaced; }
  /// local() / placed(); no value when nothing placed was counted (no data: a worker that
  /// touched nothing, or a run that read only unplaced memory, is not "perfectly local").
  [[nodiscard]] std::optional<double> local_share() const noexcept;

  distance_counts& operator+=(const distance_counts& o) noexcept;
  friend bool operator==(const distance_counts&, const distance_counts&) = default;
};

/// Bytes accessed by distance (the declared accesses, each counted once).
using locality_bytes = distance_counts;

/// One modelled cache level as seen by one worker (or summed): its hits, misses and evictions,
/// and its misses (in lines) split by the distance of the missed line's home.
struct level_counts {
  cache_counts lines;
  distance_counts misses;

  level_counts& operator+=(const level_counts& o) noexcept {
    lines += o.lines;
    misses += o.misses;
    return *this;
  }
  friend bool operator==(const level_counts&, const level_counts&) = default;
};

/// A snapshot of an accountant since its last reset.
struct locality_stats {
  std::vector<locality_bytes> per_worker;  ///< by worker index
  std::vector<locality_bytes> per_socket;  ///< by the package of the worker that accessed
  locality_bytes total;

  bool cache_modelled = false;    ///< false: homes only (no cache model; the counts below are 0)
  std::size_t line_bytes = 0;     ///< line of the cache models
  unsigned l3_ways = 0;           ///< 0: the L3 model is fully associative
  std::size_t private_bytes = 0;  ///< capacity of the private level; 0: not modelled
  /// The private level (a model per worker, sized by the topology's l2; the LAWS paper's
  /// M_alpha): by worker, by socket, in total.
  std::vector<level_counts> private_per_worker, private_per_socket;
  level_counts private_total;
  /// The L3 (a model per L3 group, fed the private level's misses): by the worker whose access
  /// missed, by L3 group, by socket, in total. A group's and a socket's counts are the sums of
  /// their workers'.
  std::vector<level_counts> l3_per_worker, l3_per_group, l3_per_socket;
  level_counts l3_total;

  /// total.local_share(): no value when nothing placed was accessed.
  [[nodiscard]] std::optional<double> local_share() const noexcept { return total.local_share(); }
  /// The package whose workers accessed the most remote bytes (the lowest on a tie); -1 if
  /// no bytes were remote.
  [[nodiscard]] int straggler_socket() const noexcept;
  /// One line, e.g. "locality: 25.0% local of 4.0 MiB (core 0.0%, l3 0.0%, socket 25.0%,
  /// remote 75.0%), 0 B unplaced, straggler socket 0; private model: ... misses; L3 model:
  /// 65536 misses (49152 remote), 0 hits of 64 B lines". "no data" instead of the shares when
  /// nothing placed was accessed; the numa share appears only when it is not zero.
  [[nodiscard]] std::string summary() const;
  /// A JSON object: local_share (null: no data), bytes {same_core, same_l3, same_numa,
  /// same_socket, remote, unplaced}, straggler_socket, cache_model, line_bytes, l3_ways,
  /// private_bytes, l3_hits / l3_misses / l3_evictions (arrays by socket), l3 and private
  /// {hits, misses, evictions, misses_by_distance {...}}, per_socket [{socket, local_share,
  /// bytes, l3_hits, l3_misses, l3, private}], per_l3 [{group, hits, misses, evictions}] and
  /// per_worker [{worker, local_share, bytes, l3, private}]. Written by hand: the core library
  /// depends on no JSON library, and this is output only.
  [[nodiscard]] std::string to_json() const;
};

}  // namespace locus
