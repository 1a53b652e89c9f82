// locus/locality/home_map.hpp — which core, NUMA node or package holds each 4 KiB page.
//
// A radix table over page numbers, like a page table: three levels of pointer arrays and
// leaves of 4096 atomic 32-bit homes. Only user-space addresses are kept: bits 0..55 (x86-64
// with 5-level paging and aarch64 both stay below 2^56); higher bits (pointer tags) are
// dropped. Page number bits, top to bottom: 10 (the root, inside the object), 11, 11, 12.
//
// Threads: every operation may run concurrently with every other. A lookup takes no lock: it
// follows at most three pointers with acquire loads and reads one slot. A write that finds a
// missing level allocates it zeroed and publishes it with a release CAS; the loser of a race
// frees its copy and uses the winner's. Slots hold plain values with nothing published through
// them, so they are read and written relaxed; first_touch() is a CAS from "no home".
// Levels are freed only by the destructor, so a pointer once seen stays valid.
//
// Cost: a lookup is four dependent loads (cache misses on a cold table). Memory: 16 KiB per
// leaf (a 16 MiB window of address space holding at least one registered page), 16 KiB per
// interior node (one per 32 GiB and one per 64 TiB window), and 8 KiB for the root: about
// 0.1% of the registered memory when it is dense.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>

#include "locus/detail/enum_names.hpp"

namespace locus {

/// Where a page lives, packed into 32 bits: the kind in the top 2 bits, the index below.
/// The zero value is "no home", so a fresh (zeroed) leaf is a leaf of unplaced pages.
class home {
 public:
  enum class kind : std::uint8_t { none = 0, core = 1, numa = 2, package = 3 };

  constexpr home() noexcept = default;
  /// Index must be below 2^30 (checked by the factories; cores and nodes are far fewer).
  [[nodiscard]] static home on_core(unsigned core);
  [[nodiscard]] static home on_numa(unsigned node);
  [[nodiscard]] static home on_package(unsigned package);

  [[nodiscard]] constexpr kind where() const noexcept { return static_cast<kind>(m_bits >> 30); }
  [[nodiscard]] constexpr unsigned index() const noexcept { return m_bits & k_index_mask; }
  [[nodiscard]] constexpr bool is_none() const noexcept { return m_bits == 0; }
  [[nodiscard]] constexpr std::uint32_t bits() const noexcept { return m_bits; }
  [[nodiscard]] static constexpr home from_bits(std::uint32_t bits) noexcept { return home(bits); }
  friend constexpr bool operator==(home, home) noexcept = default;

 private:
  static constexpr std::uint32_t k_index_mask = (1U << 30) - 1;
  constexpr explicit home(std::uint32_t bits) noexcept : m_bits(bits) {}
  [[nodiscard]] static home make(kind k, unsigned index);
  std::uint32_t m_bits = 0;
};

/// The name table of home kinds (locus/detail/enum_names.hpp): "none", "core", "numa",
/// "package".
[[nodiscard]] std::span<const detail::enum_name<home::kind>> names_of(home::kind) noexcept;

class home_map {
 public:
  static constexpr std::size_t page_bytes = 4096;

  home_map() noexcept = default;
  ~home_map();
  home_map(const home_map&) = delete;
  home_map& operator=(const home_map&) = delete;

  /// The home of the page holding `p`; none if it has none. Allocates nothing.
  [[nodiscard]] home home_of(const void* p) const noexcept;

  /// Gives every page of [p, p + bytes) that has no home the home `h` (a CAS per page, so of
  /// racing first touches exactly one wins each page). Returns how many pages it set.
  /// Throws std::invalid_argument if h is none.
  std::size_t first_touch(const void* p, std::size_t bytes, home h);

  /// first_touch() of the one page holding `p`; returns that page's home afterwards: `h` if
  /// this call set it, else the home it already had. The accountant's per-page step.
  home claim(const void* p, home h);

  /// Sets the home of every page of [p, p + bytes) to `h`, whatever it was (explicit placement).
  /// Throws std::invalid_argument if h is none (use clear()).
  void place(const void* p, std::size_t bytes, home h);

  /// Page round robin: the k-th page of the range (the one holding p is the 0-th) gets
  /// homes[k % homes.size()]. Throws std::invalid_argument if homes is empty or holds none.
  void interleave(const void* p, std::size_t bytes, std::span<const home> homes);

  /// Forgets the homes of [p, p + bytes) (memory freed). Allocates nothing.
  void clear(const void* p, std::size_t bytes) noexcept;

  /// Bytes held by the table's levels (the root excluded).
  [[nodiscard]] std::size_t table_bytes() const noexcept {
    return m_table_bytes.load(std::memory_order_relaxed);
  }

 private:
  static constexpr unsigned k_leaf_bits = 12, k_mid_bits = 11, k_root_bits = 10;
  struct leaf {
    std::array<std::atomic<std::uint32_t>, std::size_t{1} << k_leaf_bits> slot{};
  };
  struct lower {  ///< points to leaves
    std::array<std::atomic<leaf*>, std::size_t{1} << k_mid_bits> child{};
  };
  struct upper {  ///< points to lower nodes
    std::array<std::atomic<lower*>, std::size_t{1} << k_mid_bits> child{};
  };

  /// The leaf of page number `page`, or nullptr if it was never created.
  [[nodiscard]] leaf* find_leaf(std::uint64_t page) const noexcept;
  /// The leaf of `page`, created (with any missing level above it) if need be.
  leaf& make_leaf(std::uint64_t page);
  /// Calls f(leaf&, first slot, end slot, index of the first page in the range) for each leaf
  /// window of [p, p + bytes), creating leaves if `create`, skipping missing ones if not.
  template <class F>
  void for_each_window(const void* p, std::size_t bytes, bool create, F&& f);

  std::array<std::atomic<upper*>, std::size_t{1} << k_root_bits> m_root{};
  std::atomic<std::size_t> m_table_bytes{0};
};

}  // namespace locus
