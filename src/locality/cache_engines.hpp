// locality/cache_engines.hpp — the two engines behind cache_model (see cache_model.hpp for
// what they model and what they cost): an extent LRU (fully associative) and lazily
// allocated LRU sets (set associative). Internal to src/locality.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <memory_resource>
#include <vector>

#include <locus/locality/cache_model.hpp>

namespace locus::locality::detail {

class cache_engine {
 public:
  virtual ~cache_engine() = default;
  /// Lines [first, first + n) in order; adds to `c`; calls sink for each run of misses.
  virtual void access(std::uint64_t first, std::uint64_t n, cache_counts& c,
                      cache_model::miss_sink sink, void* context) = 0;
  [[nodiscard]] virtual bool contains(std::uint64_t line) const noexcept = 0;
  [[nodiscard]] virtual std::size_t resident() const noexcept = 0;
  [[nodiscard]] virtual std::size_t memory_bytes() const noexcept = 0;
  virtual void flush() noexcept = 0;
};

/// Fully associative true LRU over extents: runs of consecutive lines, each at one place in
/// the recency list, whose recency rises with the address (the highest line of an extent is
/// its most recent). Invariants: extents are disjoint and non-empty; `m_by_first` indexes
/// every live extent by its first line; the sum of their lengths is m_size <= m_capacity.
class extent_lru final : public cache_engine {
 public:
  explicit extent_lru(std::uint64_t capacity);
  void access(std::uint64_t first, std::uint64_t n, cache_counts& c, cache_model::miss_sink sink,
              void* context) override;
  [[nodiscard]] bool contains(std::uint64_t line) const noexcept override;
  [[nodiscard]] std::size_t resident() const noexcept override { return m_size; }
  [[nodiscard]] std::size_t memory_bytes() const noexcept override;
  void flush() noexcept override;

 private:
  static constexpr std::uint32_t k_nil = 0xffffffffU;
  struct extent {
    std::uint64_t first = 0, last = 0;         ///< inclusive line numbers
    std::uint32_t prev = k_nil, next = k_nil;  ///< towards the most / least recent
  };
  /// The extent holding `line`, or k_nil; `next_first` gets the first line of the next extent
  /// above `line` (UINT64_MAX if none).
  std::uint32_t find(std::uint64_t line, std::uint64_t& next_first) const;
  std::uint32_t make(std::uint64_t first, std::uint64_t last);   ///< indexed, not linked
  void drop(std::uint32_t e) noexcept;                           ///< unlinks, unindexes and frees
  void link_before(std::uint32_t e, std::uint32_t at) noexcept;  ///< at == k_nil: at the tail
  void unlink(std::uint32_t e) noexcept;
  /// Lines [first, last], all resident in extent e, become the most recent.
  void touch(std::uint32_t e, std::uint64_t first, std::uint64_t last);
  /// Absent lines [first, last] become the most recent (evicting first if need be).
  void insert(std::uint64_t first, std::uint64_t last, cache_counts& c);
  void push_front_run(std::uint64_t first, std::uint64_t last);
  void evict(std::uint64_t lines, cache_counts& c) noexcept;

  std::uint64_t m_capacity;
  std::uint64_t m_size = 0;
  std::vector<extent> m_ext;  ///< storage; free slots chained through `next`
  std::uint32_t m_free = k_nil;
  std::uint32_t m_head = k_nil, m_tail = k_nil;  ///< most / least recent
  std::pmr::unsynchronized_pool_resource m_pool;
  std::pmr::map<std::uint64_t, std::uint32_t> m_by_first{&m_pool};
};

/// Set associative LRU: set s holds up to `ways` line numbers, most recent first. Sets are
/// allocated in chunks of k_chunk_sets the first time a line maps into the chunk.
class set_lru final : public cache_engine {
 public:
  set_lru(std::uint64_t sets, unsigned ways);
  void access(std::uint64_t first, std::uint64_t n, cache_counts& c, cache_model::miss_sink sink,
              void* context) override;
  [[nodiscard]] bool contains(std::uint64_t line) const noexcept override;
  [[nodiscard]] std::size_t resident() const noexcept override { return m_size; }
  [[nodiscard]] std::size_t memory_bytes() const noexcept override;
  void flush() noexcept override;

 private:
  static constexpr std::uint64_t k_chunk_sets = 1024;
  struct chunk {
    std::unique_ptr<std::uint64_t[]> lines;  ///< k_chunk_sets * ways, set-major
    std::unique_ptr<std::uint32_t[]> count;  ///< lines held by each set
  };
  bool access_line(std::uint64_t line, cache_counts& c);
  std::uint64_t m_sets;
  unsigned m_ways;
  std::size_t m_size = 0;
  std::size_t m_chunks_made = 0;
  std::vector<chunk> m_chunks;  ///< by set / k_chunk_sets; empty until touched
};

}  // namespace locus::locality::detail
