// locus/locality/cache_model.hpp — a model of one cache over fixed-size lines: fully associative
// true LRU (the default) or set associative with LRU in each set. The locality accountant keeps
// one per L3 group and, optionally, one private level per worker.
//
// What it models: the capacity of one cache and the reuse distance of the accesses fed to it,
// in the order they are fed. Fully associative: a line hits if it was accessed again before
// `capacity / line` other distinct lines were; else it misses, and evicts the least recently
// used line once the cache is full. Set associative (`ways` > 0): line number L lives in set
// L mod S (S = capacity / (line * ways); the low bits of the line number when S is a power of
// two) and each set is an LRU of `ways` lines, so conflict misses are counted too.
//
// What it does not model: pseudo-LRU and scan-resistant insertion (a scan larger than the
// cache misses on every line here), hashed slice selection, prefetch (streams miss here that
// hardware would hide), write-backs and coherence (a write is an access like a read), and
// timing: accesses are ordered as they are fed, not by cycles.
//
// Cost and memory. The fully associative engine keeps the LRU list as *extents*: runs of
// consecutive lines whose recency follows their address (an access of lines a..b in address
// order leaves b most recent, then b-1, ... a), indexed by their first line in an ordered map.
// It is exact (the same hits, misses, evictions and contents as a list of single lines: an
// access is split into pieces that are wholly resident in one extent or wholly absent, each
// applied as the per-line LRU would), and a sequential sweep costs O(log extents) per piece,
// not per line: a 1 MiB sweep is a few map operations at any line size. Random single-line
// accesses cost a map lookup each (about 0.1-0.2 us). Memory grows with what was touched, not
// with the capacity: at most about 96 bytes per extent, and extents <= resident lines <=
// min(capacity, lines touched); nothing is allocated up front, so `l3=6G` costs nothing until
// it is filled. The set associative engine allocates its sets in chunks of 1024 as they are
// first touched (8 bytes per way per set: again bounded by min(capacity, touched)) and costs
// O(ways) per line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace locus {

/// Counts of a cache model, or of a part of one.
struct cache_counts {
  std::uint64_t hits = 0;
  std::uint64_t misses = 0;
  std::uint64_t evictions = 0;

  cache_counts& operator+=(const cache_counts& o) noexcept {
    hits += o.hits;
    misses += o.misses;
    evictions += o.evictions;
    return *this;
  }
  friend bool operator==(const cache_counts&, const cache_counts&) = default;
};

namespace locality::detail {
class cache_engine;  // src/locality/cache_engines.hpp
}

/// Not thread-safe: one owner, or a lock around it.
class cache_model {
 public:
  static constexpr std::size_t default_line_bytes = 64;

  /// Called for each run of consecutive lines an access missed, in access order.
  using miss_sink = void (*)(void* context, std::uint64_t first_line, std::uint64_t lines);

  /// A cache of floor(capacity_bytes / line_bytes) lines of `line_bytes` (a power of two);
  /// `ways` = 0: fully associative, else set associative with that many ways (the capacity is
  /// rounded down to whole sets). A capacity below one line (or one set) gives a cache that
  /// misses on every access. Throws config_error (std::invalid_argument) naming
  /// "line_bytes" for a line size that is not a power of two.
  explicit cache_model(std::size_t capacity_bytes, std::size_t line_bytes = default_line_bytes,
                       unsigned ways = 0);
  cache_model(cache_model&&) noexcept;
  cache_model& operator=(cache_model&&) noexcept;
  ~cache_model();

  /// Accesses every line overlapping [p, p + bytes), in address order. Returns this call's
  /// counts and adds them to totals(). bytes == 0 accesses nothing. May allocate (the model
  /// grows as lines are touched): throws std::bad_alloc if memory runs out.
  cache_counts access(const void* p, std::size_t bytes);

  /// Accesses line numbers [first, first + lines) in order (a line number is an address
  /// shifted right by log2(line_bytes)); calls `sink` for every run of missed lines.
  cache_counts access_lines(std::uint64_t first, std::uint64_t lines, miss_sink sink = nullptr,
                            void* context = nullptr);

  /// Accesses the line holding byte address `address`; true on a hit.
  bool access_block(std::uintptr_t address);

  [[nodiscard]] const cache_counts& totals() const noexcept { return m_totals; }
  [[nodiscard]] std::size_t capacity_lines() const noexcept { return m_capacity; }
  [[nodiscard]] std::size_t line_bytes() const noexcept { return std::size_t{1} << m_shift; }
  [[nodiscard]] unsigned line_shift() const noexcept { return m_shift; }
  [[nodiscard]] unsigned ways() const noexcept { return m_ways; }  ///< 0: fully associative
  [[nodiscard]] std::size_t resident_lines() const noexcept;
  /// Bytes the model holds now (grows with the lines touched; see above).
  [[nodiscard]] std::size_t memory_bytes() const noexcept;
  /// Is the line holding `address` in the cache? (No LRU update: for tests.)
  [[nodiscard]] bool contains(std::uintptr_t address) const noexcept;

  /// Empties the cache (totals are kept) and frees what it held.
  void flush() noexcept;
  /// Zeroes totals() (contents are kept).
  void reset_totals() noexcept { m_totals = {}; }

 private:
  std::size_t m_capacity = 0;  ///< lines
  unsigned m_shift = 6;        ///< log2(line_bytes)
  unsigned m_ways = 0;
  std::unique_ptr<locality::detail::cache_engine> m_engine;  ///< null when m_capacity == 0
  cache_counts m_totals;
};

}  // namespace locus
