// locus/locality/stats.hpp — what the locality accountant reports: declared bytes by distance
// to their home, per worker, per socket and in total, and the modelled L3 hits and misses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "locus/locality/cache_model.hpp"

namespace locus {

/// Bytes accessed, by the distance between the worker that ran the task and the data's home.
struct locality_bytes {
  std::uint64_t same_core = 0;    ///< home is the worker's own core
  std::uint64_t same_l3 = 0;      ///< another core of the worker's L3 group
  std::uint64_t same_socket = 0;  ///< the worker's NUMA node or package, farther than its L3
  std::uint64_t remote = 0;       ///< another package (or a NUMA node of none of the above)
  std::uint64_t unplaced = 0;     ///< read before any write or placement gave the page a home

  [[nodiscard]] std::uint64_t local() const noexcept { return same_core + same_l3 + same_socket; }
  /// Bytes with a home: local() + remote.
  [[nodiscard]] std::uint64_t placed() const noexcept { return local() + remote; }
  [[nodiscard]] std::uint64_t total() const noexcept { return placed() + unplaced; }
  /// local() / placed(); 1.0 when nothing placed was accessed (nothing was remote).
  [[nodiscard]] double local_share() const noexcept;

  locality_bytes& operator+=(const locality_bytes& o) noexcept;
  friend bool operator==(const locality_bytes&, const locality_bytes&) = default;
};

/// A snapshot of an accountant since its last reset.
struct locality_stats {
  std::vector<locality_bytes> per_worker;  ///< by worker index
  std::vector<locality_bytes> per_socket;  ///< by the package of the worker that accessed
  locality_bytes total;
  bool cache_modelled = false;              ///< false: the L3 model was off (counts are 0)
  std::size_t line_bytes = 0;               ///< block of the L3 model
  std::vector<cache_counts> l3_per_group;   ///< by L3 group of the topology
  std::vector<cache_counts> l3_per_socket;  ///< the groups of each package summed

  [[nodiscard]] double local_share() const noexcept { return total.local_share(); }
  /// The package whose workers accessed the most remote bytes (the lowest on a tie); -1 if
  /// no bytes were remote.
  [[nodiscard]] int straggler_socket() const noexcept;
  /// One line, e.g. "locality: 25.0% local of 4.0 MiB (core 0.0%, l3 0.0%, socket 25.0%,
  /// remote 75.0%), 0 B unplaced, straggler socket 0; L3 model: 65536 misses, 0 hits of 64 B
  /// lines". Shares are of the placed bytes; "no straggler socket" if nothing was remote.
  [[nodiscard]] std::string summary() const;
  /// A JSON object: local_share, bytes {same_core, same_l3, same_socket, remote, unplaced},
  /// straggler_socket, l3_hits / l3_misses / l3_evictions (per socket), cache_model,
  /// line_bytes, per_socket [{socket, local_share, bytes, l3_hits, l3_misses}], per_l3
  /// [{group, hits, misses, evictions}] and per_worker [{worker, local_share, bytes}].
  /// Written by hand: the core library depends on no JSON library, and this is output only.
  [[nodiscard]] std::string to_json() const;
};

}  // namespace locus
