// cache_model.cpp — the model's front: geometry, totals, and the set associative engine (the
// extent LRU is in extent_lru.cpp). See cache_model.hpp for what it models and costs.
#include <locus/locality/cache_model.hpp>

#include <algorithm>
#include <bit>
#include <string>

#include <locus/config.hpp>

#include "cache_engines.hpp"

namespace locus {
namespace locality::detail {

set_lru::set_lru(std::uint64_t sets, unsigned ways)
    : m_sets(sets), m_ways(ways), m_chunks((sets + k_chunk_sets - 1) / k_chunk_sets) {}

bool set_lru::access_line(std::uint64_t line, cache_counts& c) {
  const std::uint64_t set = line % m_sets;
  chunk& ch = m_chunks[set / k_chunk_sets];
  if (!ch.lines) {  // first touch of this chunk of sets
    ch.lines = std::make_unique<std::uint64_t[]>(k_chunk_sets * m_ways);
    ch.count = std::make_unique<std::uint32_t[]>(k_chunk_sets);
    ++m_chunks_made;
  }
  std::uint64_t* way = ch.lines.get() + (set % k_chunk_sets) * m_ways;  // most recent first
  std::uint32_t& held = ch.count[set % k_chunk_sets];
  for (std::uint32_t i = 0; i < held; ++i) {
    if (way[i] != line) continue;
    std::copy_backward(way, way + i, way + i + 1);
    way[0] = line;
    ++c.hits;
    return true;
  }
  ++c.misses;
  if (held == m_ways) {
    ++c.evictions;  // the least recent way drops off the end
  } else {
    ++held;
    ++m_size;
  }
  std::copy_backward(way, way + held - 1, way + held);
  way[0] = line;
  return false;
}

void set_lru::access(std::uint64_t first, std::uint64_t n, cache_counts& c,
                     cache_model::miss_sink sink, void* context) {
  std::uint64_t miss_first = 0, miss_lines = 0;
  for (std::uint64_t line = first; line < first + n; ++line) {
    if (access_line(line, c) || sink == nullptr) continue;
    if (miss_lines != 0 && miss_first + miss_lines != line) {
      sink(context, miss_first, miss_lines);
      miss_lines = 0;
    }
    if (miss_lines == 0) miss_first = line;
    ++miss_lines;
  }
  if (sink != nullptr && miss_lines != 0) sink(context, miss_first, miss_lines);
}

bool set_lru::contains(std::uint64_t line) const noexcept {
  const std::uint64_t set = line % m_sets;
  const chunk& ch = m_chunks[set / k_chunk_sets];
  if (!ch.lines) return false;
  const std::uint64_t* way = ch.lines.get() + (set % k_chunk_sets) * m_ways;
  return std::find(way, way + ch.count[set % k_chunk_sets], line) !=
         way + ch.count[set % k_chunk_sets];
}

std::size_t set_lru::memory_bytes() const noexcept {
  return m_chunks.capacity() * sizeof(chunk) +
         m_chunks_made * k_chunk_sets * (m_ways * sizeof(std::uint64_t) + sizeof(std::uint32_t));
}

void set_lru::flush() noexcept {
  for (chunk& ch : m_chunks)
    ch = chunk{};
  m_chunks_made = 0;
  m_size = 0;
}

}  // namespace locality::detail

cache_model::cache_model(std::size_t capacity_bytes, std::size_t line_bytes, unsigned ways)
    : m_ways(ways) {
  if (line_bytes == 0 || !std::has_single_bit(line_bytes)) {
    throw make_config_error("line_bytes", std::to_string(line_bytes),
                            "a power of two, e.g. 64 (the line of the cache model)");
  }
  m_shift = static_cast<unsigned>(std::countr_zero(line_bytes));
  const std::uint64_t lines = capacity_bytes >> m_shift;
  if (ways == 0) {
    m_capacity = lines;
    if (m_capacity != 0) m_engine = std::make_unique<locality::detail::extent_lru>(m_capacity);
  } else {
    const std::uint64_t sets = lines / ways;
    m_capacity = sets * ways;
    if (sets != 0) m_engine = std::make_unique<locality::detail::set_lru>(sets, ways);
  }
}

cache_model::cache_model(cache_model&&) noexcept = default;
cache_model& cache_model::operator=(cache_model&&) noexcept = default;
cache_model::~cache_model() = default;

cache_counts cache_model::access_lines(std::uint64_t first, std::uint64_t lines, miss_sink sink,
                                       void* context) {
  cache_counts c;
  if (lines == 0) return c;
  if (m_engine == nullptr) {  // no capacity: every line misses
    c.misses = lines;
    if (sink != nullptr) sink(context, first, lines);
  } else {
    m_engine->access(first, lines, c, sink, context);
  }
  m_totals += c;
  return c;
}

cache_counts cache_model::access(const void* p, std::size_t bytes) {
  if (bytes == 0) return {};
  const auto first = reinterpret_cast<std::uintptr_t>(p) >> m_shift;
  const auto last = (reinterpret_cast<std::uintptr_t>(p) + (bytes - 1)) >> m_shift;
  return access_lines(first, last - first + 1);
}

bool cache_model::access_block(std::uintptr_t address) {
  return access_lines(address >> m_shift, 1).hits == 1;
}

std::size_t cache_model::resident_lines() const noexcept {
  return m_engine != nullptr ? m_engine->resident() : 0;
}

std::size_t cache_model::memory_bytes() const noexcept {
  return m_engine != nullptr ? m_engine->memory_bytes() : 0;
}

bool cache_model::contains(std::uintptr_t address) const noexcept {
  return m_engine != nullptr && m_engine->contains(address >> m_shift);
}

void cache_model::flush() noexcept {
  if (m_engine != nullptr) m_engine->flush();
}

}  // namespace locus
