// locus/locality/memory.hpp — allocating and registering memory with a placement, so that the
// runtime (and the locality accountant) knows which socket or NUMA node holds each page.
//
// On a real machine with several NUMA nodes and hwloc, memory is bound by the OS
// (hwloc_set_area_membind: HWLOC_MEMBIND_BIND to the CPUs of the target node or socket, or
// HWLOC_MEMBIND_INTERLEAVE over all of them) and the homes are recorded too. Where binding is
// unsupported or fails, one warning per process goes to stderr and the memory falls back to
// first touch (no homes recorded: the accountant sets them at the first write). On a virtual
// topology or a single-node machine nothing is bound: the homes are only recorded, which is
// what the accountant reads (socket s: home::on_package(s); NUMA node n: home::on_numa(n);
// interleave: page k on NUMA node k mod N).
//
// Caveat, real interleave: the kernel rotates from a node derived from the address, so the
// recorded per-page homes may be a rotation of the real ones; the shares they give are right.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "locus/locality/home_map.hpp"
#include "locus/topology.hpp"

namespace locus {

/// Where the pages of an allocation should live.
struct placement {
  enum class kind : std::uint8_t { first_touch, interleave, on_socket, on_numa };
  kind how = kind::first_touch;
  unsigned index = 0;  ///< the socket (package) or NUMA node of on_socket / on_numa

  [[nodiscard]] static constexpr placement first_touch() noexcept { return {}; }
  [[nodiscard]] static constexpr placement interleave() noexcept { return {kind::interleave, 0}; }
  [[nodiscard]] static constexpr placement on_socket(unsigned s) noexcept {
    return {kind::on_socket, s};
  }
  [[nodiscard]] static constexpr placement on_numa(unsigned n) noexcept {
    return {kind::on_numa, n};
  }
  friend constexpr bool operator==(placement, placement) noexcept = default;
};

/// "first_touch", "interleave", "on_socket(2)", "on_numa(0)".
[[nodiscard]] std::string to_string(placement p);
/// The name table of the kinds (locus/detail/enum_names.hpp): "first_touch", "interleave",
/// "on_socket", "on_numa".
[[nodiscard]] std::span<const detail::enum_name<placement::kind>> names_of(
    placement::kind) noexcept;

/// Throws std::out_of_range if `p` names a socket or NUMA node that `topo` does not have, e.g.
/// "allocate: on_socket(5) names no socket; expected on_socket(0) to on_socket(3) (this
/// topology has 4 sockets)". `who` starts the message.
void check_placement(placement p, const topology& topo, const char* who);

/// `bytes` (> 0) of zero-filled, page-aligned memory, not yet touched, placed per `p`; the
/// homes go into `homes` if it is not null. Free with deallocate(). Throws std::out_of_range
/// for a bad placement (check_placement), std::invalid_argument for bytes == 0, std::bad_alloc
/// if the OS refuses the memory. A binding failure is a warning, never an error.
[[nodiscard]] void* allocate(std::size_t bytes, placement p, const topology& topo, home_map* homes);

/// Frees memory from allocate(); `bytes` as allocated. Clears its homes in `homes` if given.
void deallocate(void* ptr, std::size_t bytes, home_map* homes = nullptr) noexcept;

/// Places existing memory [ptr, ptr + bytes): binds (moving pages already touched) where the OS
/// can, and records the homes of the pages it covers. A first_touch placement clears the homes
/// so that the next write sets them. Same errors as allocate().
void register_memory(const void* ptr, std::size_t bytes, placement p, const topology& topo,
                     home_map& homes);

namespace locality::detail {
/// The OS binding step of allocate() and register_memory(), whatever the topology (for tests):
/// binds the OS pages overlapping [p, p + bytes) to the CPUs `pl` names in `topo`. Returns
/// true if bound (or nothing to bind: first_touch); false with the reason in `why` otherwise.
bool bind_pages(const void* p, std::size_t bytes, placement pl, const topology& topo, bool migrate,
                std::string& why);
/// Prints the binding warning, the first time in this process only:
///   "locus: memory binding is not supported here (WHY); falling back to first touch".
/// Returns true if this call printed it.
bool warn_binding_unsupported(const std::string& why);
}  // namespace locality::detail

}  // namespace locus
