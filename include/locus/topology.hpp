// locus/topology.hpp — the machine model: a tree of packages, NUMA nodes, L3 groups, cores
// and hardware threads, discovered with hwloc or laid out from a virtual spec.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "locus/config.hpp"

namespace locus {

/// One core of the model: the unit a worker is placed on. Ids are dense, 0-based, and
/// nested: cores of one l3 group share a numa node, nodes of one package share the package.
struct core_info {
  unsigned core = 0;     ///< dense core id
  unsigned l3 = 0;       ///< dense L3-group id (cores sharing a last-level cache)
  unsigned numa = 0;     ///< dense NUMA-node id
  unsigned package = 0;  ///< dense package (socket) id
  unsigned os_cpu = 0;   ///< OS processor index to pin to (first hardware thread of the core)
  unsigned threads = 1;  ///< hardware threads of this core
};

/// How far apart two cores are: the level of their lowest common ancestor.
enum class distance : std::uint8_t {
  same_core = 0,
  same_l3 = 1,
  same_numa = 2,
  same_package = 3,
  remote = 4
};

class topology {
 public:
  /// The real machine, from hwloc. Never throws: falls back to a flat model of
  /// std::thread::hardware_concurrency() cores if hwloc fails (and says so in describe()).
  /// The hardware tree is read from the OS once per process and kept (reading it costs
  /// milliseconds); the process's CPU binding is read at every call, and the model holds
  /// only the cores it allows.
  [[nodiscard]] static topology discover();

  /// A virtual machine from a spec such as "sockets=4,cores=4,l3=6MiB". Keys (all optional):
  ///   sockets=N (default 1), numa=N per socket (1), l3groups=N per NUMA node (1),
  ///   cores=N per L3 group (default 2), smt=N threads per core (1),
  ///   l3=SIZE per L3 group (8MiB), l2=SIZE per core (1MiB), l1=SIZE per core (32KiB),
  ///   l3ways=N: the L3 is N-way set associative in the locality model (default: fully
  ///   associative; the L2, the private level, is modelled fully associative).
  /// SIZE: an integer with an optional unit B, KiB, MiB, GiB (also K, M, G and KB, MB, GB; any
  /// case; all binary multiples, as cache sizes are quoted). Cores are mapped onto the
  /// processors that exist round-robin (oversubscribed if need be). Throws config_error naming
  /// `what`, the bad value and the accepted form.
  [[nodiscard]] static topology from_spec(std::string_view spec,
                                          std::string_view what = "topology");

  /// from_spec(spec) if spec is non-empty, else discover().
  [[nodiscard]] static topology make(std::string_view spec, std::string_view what = "topology");

  [[nodiscard]] bool is_virtual() const noexcept { return m_virtual; }
  [[nodiscard]] const std::vector<core_info>& cores() const noexcept { return m_cores; }
  [[nodiscard]] std::size_t num_cores() const noexcept { return m_cores.size(); }
  [[nodiscard]] unsigned num_packages() const noexcept { return m_packages; }
  [[nodiscard]] unsigned num_numa_nodes() const noexcept { return m_numa; }
  [[nodiscard]] unsigned num_l3_groups() const noexcept { return m_l3; }
  [[nodiscard]] unsigned num_hardware_threads() const noexcept { return m_hw_threads; }
  [[nodiscard]] std::size_t l3_bytes() const noexcept { return m_l3_bytes; }   ///< per L3 group
  [[nodiscard]] std::size_t l2_bytes() const noexcept { return m_l2_bytes; }   ///< per core
  [[nodiscard]] std::size_t l1d_bytes() const noexcept { return m_l1_bytes; }  ///< per core
  /// Ways of the L3 in the locality model; 0: fully associative (the default, and always for a
  /// discovered machine).
  [[nodiscard]] unsigned l3_ways() const noexcept { return m_l3_ways; }

  /// Distance between cores a and b (indices into cores()); remote if either is out of range.
  [[nodiscard]] distance between(std::size_t a, std::size_t b) const noexcept;

  /// One line, e.g. "virtual: 4 packages, 4 NUMA nodes, 4 L3 groups (6 MiB), 16 cores on 2 CPUs".
  [[nodiscard]] std::string describe() const;

 private:
  std::vector<core_info> m_cores;
  unsigned m_packages = 0, m_numa = 0, m_l3 = 0, m_hw_threads = 0;
  std::size_t m_l3_bytes = 0, m_l2_bytes = 0, m_l1_bytes = 0;
  unsigned m_l3_ways = 0;
  bool m_virtual = false;
  std::string m_note;  ///< e.g. why discovery fell back

  struct builder;  ///< fills the fields from hwloc, a spec or the flat fallback (topology.cpp)
};

/// Partition of workers into places, per config::places (socket | numa | l3 | none | N).
/// `worker_core[i]` is the index into topo.cores() of worker i. Returns, for each worker, its
/// place index; places are dense, 0-based, each non-empty. Throws config_error naming `what`
/// for a bad spec (or N greater than the number of workers), std::out_of_range for a worker
/// whose core index is not in topo.cores().
[[nodiscard]] std::vector<unsigned> assign_places(const topology& topo,
                                                  const std::vector<std::size_t>& worker_core,
                                                  std::string_view spec,
                                                  std::string_view what = "places");

/// Where the workers sit: per worker, its core and the OS processor its thread is pinned to.
struct worker_binding {
  std::vector<std::size_t> core;  ///< per worker, an index into topo.cores()
  std::vector<unsigned> os_cpu;   ///< per worker, the processor to pin to
};

/// Lays `workers` workers onto the cores of `topo` as `how` says (config::bind, bind_policy):
///  * close: worker i on core i mod C (C = topo.num_cores()): a socket fills before the next.
///  * spread: the cores are ranked by how far apart they are: the first core of each socket's
///    first NUMA node's first L3 group, socket by socket; then those of each socket's second
///    NUMA node, then of its other L3 groups; then the second core of every L3 group, and so
///    on. W workers (W <= C) take the W first cores of that ranking, numbered in core order
///    (a socket's workers, and a place's, keep adjacent indices). On `sockets=4,cores=4`, 4
///    workers sit on cores 0, 4, 8, 12: one per socket.
/// Past C workers, each full round of C workers takes every core once, in core order, and the
/// last partial round follows `how`. os_cpu is the core's processor on a real machine; on a
/// virtual one, whose cores are mapped onto fewer processors, worker i takes the i-th of the
/// topology's distinct processors round-robin, so workers share a processor only when there
/// are more workers than processors, whichever cores they model.
[[nodiscard]] worker_binding bind_workers(const topology& topo, std::size_t workers,
                                          bind_policy how);

/// Where each worker sits, one line per worker (each ending in '\n'), e.g.
///   "worker 2: socket 1, NUMA node 1, L3 group 1, core 4, cpu 0, place 1"
/// `place_of` may be empty (no place column) or hold one place per worker.
[[nodiscard]] std::string describe_workers(const topology& topo, const worker_binding& binding,
                                           const std::vector<unsigned>& place_of);

/// Pins the calling thread to OS processor `os_cpu`; returns false (and changes nothing) if the
/// OS refuses.
bool pin_this_thread(unsigned os_cpu) noexcept;

}  // namespace locus
