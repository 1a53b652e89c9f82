// cache_model.cpp — the LRU over blocks (see cache_model.hpp for what it models and costs).
#include <locus/locality/cache_model.hpp>

#include <algorithm>
#include <bit>
#include <string>

#include <locus/config.hpp>

namespace locus {
namespace {

/// Blocks of one 4096-block chunk (256 KiB of 64-byte lines) go to consecutive slots, so a
/// sweep walks the table in order instead of missing the host's cache on every probe; chunks
/// are scattered (Fibonacci hashing of the chunk number), so large power-of-two strides do not
/// pile up in one cluster.
std::size_t hash_of(std::uint64_t tag) noexcept {
  return static_cast<std::size_t>((tag * 0x9E3779B97F4A7C15ULL) >> 17);
}

}  // namespace

cache_model::cache_model(std::size_t capacity_bytes, std::size_t line_bytes) {
  if (line_bytes == 0 || !std::has_single_bit(line_bytes)) {
    throw make_config_error("cache_model line_bytes", std::to_string(line_bytes),
                            "a power of two, e.g. 64");
  }
  m_shift = static_cast<unsigned>(std::countr_zero(line_bytes));
  m_capacity = capacity_bytes >> m_shift;
  if (m_capacity > (std::size_t{1} << 31)) {
    throw make_config_error("cache_model capacity_bytes", std::to_string(capacity_bytes),
                            "at most 2^31 blocks of line_bytes",
                            "too many blocks; use a larger line_bytes");
  }
  m_node.resize(m_capacity);
  const std::size_t table = std::bit_ceil(std::max<std::size_t>(2 * m_capacity, 2));
  m_table.assign(table, k_nil);
  m_mask = table - 1;
}

std::size_t cache_model::probe(std::uint64_t tag) const noexcept {
  std::size_t s = hash_of(tag) & m_mask;
  // Terminates: the table is at most half full, so an empty slot exists.
  while (m_table[s] != k_nil && m_node[m_table[s]].tag != tag)
    s = (s + 1) & m_mask;
  return s;
}

void cache_model::erase_from_table(std::size_t slot) noexcept {
  // Backward-shift deletion keeps every key reachable from its home slot without tombstones:
  // move a later key of the cluster into the hole when the hole lies on its probe path.
  std::size_t hole = slot;
  std::size_t s = (slot + 1) & m_mask;
  while (m_table[s] != k_nil) {
    const std::size_t home = hash_of(m_node[m_table[s]].tag) & m_mask;
    // Distance from home to s and from home to the hole, cyclically.
    if (((s - home) & m_mask) >= ((s - hole) & m_mask)) {
      m_table[hole] = m_table[s];
      hole = s;
    }
    s = (s + 1) & m_mask;
  }
  m_table[hole] = k_nil;
}

void cache_model::unlink(std::uint32_t n) noexcept {
  if (m_node[n].prev != k_nil)
    m_node[m_node[n].prev].next = m_node[n].next;
  else
    m_head = m_node[n].next;
  if (m_node[n].next != k_nil)
    m_node[m_node[n].next].prev = m_node[n].prev;
  else
    m_tail = m_node[n].prev;
  m_node[n].prev = m_node[n].next = k_nil;
}

void cache_model::push_front(std::uint32_t n) noexcept {
  m_node[n].prev = k_nil;
  m_node[n].next = m_head;
  if (m_head != k_nil) m_node[m_head].prev = n;
  m_head = n;
  if (m_tail == k_nil) m_tail = n;
}

bool cache_model::access_block(std::uintptr_t address) noexcept {
  const std::uint64_t tag = static_cast<std::uint64_t>(address) >> m_shift;
  if (m_capacity == 0) {
    ++m_totals.misses;
    return false;
  }
  std::size_t slot = probe(tag);
  if (m_table[slot] != k_nil) {
    const std::uint32_t n = m_table[slot];
    ++m_totals.hits;
    if (n != m_head) {
      unlink(n);
      push_front(n);
    }
    return true;
  }
  ++m_totals.misses;
  std::uint32_t n;
  if (m_size < m_capacity) {
    n = static_cast<std::uint32_t>(m_size++);
  } else {
    n = m_tail;
    ++m_totals.evictions;
    erase_from_table(probe(m_node[n].tag));
    unlink(n);
    slot = probe(tag);  // the deletion may have moved the empty slot the miss found
  }
  m_node[n].tag = tag;
  m_table[slot] = n;
  push_front(n);
  return false;
}

cache_counts cache_model::access(const void* p, std::size_t bytes) noexcept {
  if (bytes == 0) return {};
  const cache_counts before = m_totals;
  const auto first = reinterpret_cast<std::uintptr_t>(p) >> m_shift;
  const auto last = (reinterpret_cast<std::uintptr_t>(p) + (bytes - 1)) >> m_shift;
  for (std::uintptr_t block = first; block <= last; ++block)
    access_block(block << m_shift);
  return {m_totals.hits - before.hits, m_totals.misses - before.misses,
          m_totals.evictions - before.evictions};
}

bool cache_model::contains(std::uintptr_t address) const noexcept {
  if (m_capacity == 0) return false;
  return m_table[probe(static_cast<std::uint64_t>(address) >> m_shift)] != k_nil;
}

void cache_model::flush() noexcept {
  std::fill(m_table.begin(), m_table.end(), k_nil);
  std::fill(m_node.begin(), m_node.end(), node{});
  m_head = m_tail = k_nil;
  m_size = 0;
}

}  // namespace locus
