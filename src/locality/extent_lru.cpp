// locality/extent_lru.cpp — the fully associative LRU over extents (cache_engines.hpp).
//
// Why it is exact. The per-line LRU applied to lines a..b in order: each resident line moves to
// the front, each absent line is inserted at the front after evicting the least recent line if
// the cache is full. Split a..b into pieces, each wholly inside one resident extent or wholly
// absent. A resident piece x..y of extent E: afterwards x..y are the most recent, y first; E's
// lines above y keep their place and stay more recent than E's lines below x, so E becomes
// (upper, lower) at its old place and x..y a new extent at the front. An absent piece of g
// lines with g <= capacity: every line it inserts is more recent than every line already
// there, so the m_size + g - capacity evictions are the least recent lines that were there,
// taken from the tail in order; afterwards the piece is the front extent. With g > capacity the
// piece evicts everything, then its own first g - capacity lines, and the cache holds its last
// `capacity` lines. The next piece is found again after each step, since an eviction may have
// removed lines further on in the same access (they then miss, as they would line by line).
#include <algorithm>
#include <limits>

#include "cache_engines.hpp"

namespace locus::locality::detail {

extent_lru::extent_lru(std::uint64_t capacity) : m_capacity(capacity) {}

std::uint32_t extent_lru::find(std::uint64_t line, std::uint64_t& next_first) const {
  auto it = m_by_first.upper_bound(line);
  next_first = it == m_by_first.end() ? std::numeric_limits<std::uint64_t>::max() : it->first;
  if (it == m_by_first.begin()) return k_nil;
  --it;
  return m_ext[it->second].last >= line ? it->second : k_nil;
}

std::uint32_t extent_lru::make(std::uint64_t first, std::uint64_t last) {
  std::uint32_t e;
  if (m_free != k_nil) {
    e = m_free;
    m_free = m_ext[e].next;
  } else {
    e = static_cast<std::uint32_t>(m_ext.size());
    m_ext.emplace_back();
  }
  m_ext[e] = extent{first, last, k_nil, k_nil};
  m_by_first.emplace(first, e);
  return e;
}

void extent_lru::unlink(std::uint32_t e) noexcept {
  extent& x = m_ext[e];
  (x.prev != k_nil ? m_ext[x.prev].next : m_head) = x.next;
  (x.next != k_nil ? m_ext[x.next].prev : m_tail) = x.prev;
  x.prev = x.next = k_nil;
}

void extent_lru::link_before(std::uint32_t e, std::uint32_t at) noexcept {
  extent& x = m_ext[e];
  x.next = at;
  x.prev = at != k_nil ? m_ext[at].prev : m_tail;
  (x.prev != k_nil ? m_ext[x.prev].next : m_head) = e;
  (at != k_nil ? m_ext[at].prev : m_tail) = e;
}

void extent_lru::drop(std::uint32_t e) noexcept {
  unlink(e);
  m_by_first.erase(m_ext[e].first);
  m_ext[e].next = m_free;
  m_free = e;
}

void extent_lru::push_front_run(std::uint64_t first, std::uint64_t last) {
  // The front extent ending just below `first` continues with first..last: its recency still
  // rises with the address, so it grows instead of a new extent being made.
  if (m_head != k_nil && m_ext[m_head].last + 1 == first) {
    m_ext[m_head].last = last;
    return;
  }
  const std::uint32_t e = make(first, last);
  link_before(e, m_head);
}

void extent_lru::touch(std::uint32_t e, std::uint64_t first, std::uint64_t last) {
  const extent old = m_ext[e];
  if (e == m_head && last == old.last) return;  // already the most recent lines, in this order
  std::uint32_t at = old.next;
  drop(e);
  if (first > old.first) {  // the lines below: least recent part, stays in place
    const std::uint32_t lower = make(old.first, first - 1);
    link_before(lower, at);
    at = lower;
  }
  if (last < old.last) {  // the lines above: more recent than the lower part
    const std::uint32_t upper = make(last + 1, old.last);
    link_before(upper, at);
  }
  push_front_run(first, last);
}

void extent_lru::evict(std::uint64_t lines, cache_counts& c) noexcept {
  while (lines > 0) {  // lines <= m_size, so the tail exists
    extent& t = m_ext[m_tail];
    const std::uint64_t len = t.last - t.first + 1;
    if (len <= lines) {
      drop(m_tail);
      m_size -= len;
      c.evictions += len;
      lines -= len;
      continue;
    }
    // The least recent lines of an extent are its lowest.
    const std::uint32_t e = m_tail;
    m_by_first.erase(t.first);
    t.first += lines;
    m_by_first.emplace(t.first, e);
    m_size -= lines;
    c.evictions += lines;
    lines = 0;
  }
}

void extent_lru::insert(std::uint64_t first, std::uint64_t last, cache_counts& c) {
  const std::uint64_t g = last - first + 1;
  if (g >= m_capacity) {
    c.evictions += m_size + (g - m_capacity);
    flush();
    push_front_run(last - m_capacity + 1, last);
    m_size = m_capacity;
    return;
  }
  if (m_size + g > m_capacity) evict(m_size + g - m_capacity, c);
  push_front_run(first, last);
  m_size += g;
}

void extent_lru::access(std::uint64_t first, std::uint64_t n, cache_counts& c,
                        cache_model::miss_sink sink, void* context) {
  const std::uint64_t end = first + n;
  std::uint64_t miss_first = 0, miss_lines = 0;  // the run of misses not yet given to sink
  for (std::uint64_t at = first; at < end;) {
    std::uint64_t next_first;
    const std::uint32_t e = find(at, next_first);
    if (e != k_nil) {
      const std::uint64_t last = std::min(m_ext[e].last, end - 1);
      c.hits += last - at + 1;
      touch(e, at, last);
      at = last + 1;
      continue;
    }
    const std::uint64_t last = std::min(end, next_first) - 1;
    const std::uint64_t g = last - at + 1;
    c.misses += g;
    if (sink != nullptr) {
      if (miss_lines != 0 && miss_first + miss_lines != at) {
        sink(context, miss_first, miss_lines);
        miss_lines = 0;
      }
      if (miss_lines == 0) miss_first = at;
      miss_lines += g;
    }
    insert(at, last, c);
    at = last + 1;
  }
  if (sink != nullptr && miss_lines != 0) sink(context, miss_first, miss_lines);
}

bool extent_lru::contains(std::uint64_t line) const noexcept {
  auto it = m_by_first.upper_bound(line);
  if (it == m_by_first.begin()) return false;
  --it;
  return m_ext[it->second].last >= line;
}

std::size_t extent_lru::memory_bytes() const noexcept {
  // A map node: the key, the value and about four words of tree links and colour.
  constexpr std::size_t k_map_node = 64;
  return m_ext.capacity() * sizeof(extent) + m_by_first.size() * k_map_node;
}

void extent_lru::flush() noexcept {
  m_by_first.clear();
  m_pool.release();
  std::vector<extent>().swap(m_ext);
  m_free = m_head = m_tail = k_nil;
  m_size = 0;
}

}  // namespace locus::locality::detail
