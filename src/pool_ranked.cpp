// Ranked shared pools and the two-ended calls of every pool (locus/ext/pool.hpp, "Ranked
// pools"). The size word and the wake-up follow push() and take() in door.cpp exactly: the
// idle-domain protocol (docs/design/0003, pool.hpp) does not care how items are ordered.
#include <stdexcept>

#include "locus/ext/pool.hpp"
#include "runtime_state.hpp"

namespace locus::ext {

bool shared_pool::push_ranked(const ranked_item& it) {
  if (m_order != order::ranked)
    throw std::logic_error(
        "locus::ext::shared_pool::push_ranked: this pool is fifo; make it with "
        "shared_pool::order::ranked to push ranked items");
  {
    std::lock_guard lk(m_mutex);
    if (m_ranked.size() >= m_capacity) return false;
    m_ranked.insert(ranked_entry{it, m_next_seq++});
    m_weight += it.weight;
    // seq_cst: pairs with the sleep protocol's seq_cst registration (see pool.hpp).
    m_size.fetch_add(1, std::memory_order_seq_cst);
  }
  if (m_domain != nullptr) m_domain->pushed(*this);  // seq_cst after the seq_cst increment
  return true;
}

shared_pool::ranked_item shared_pool::pop_ranked(std::set<ranked_entry>::iterator at) {
  const ranked_item it = at->it;
  m_ranked.erase(at);
  m_weight -= it.weight;
  m_size.fetch_sub(1, std::memory_order_relaxed);  // as take(): only pushes must be seen
  return it;
}

bool shared_pool::take_end(ranked_item& out, bool front) {
  if (m_size.load(std::memory_order_relaxed) == 0) return false;
  std::lock_guard lk(m_mutex);
  if (m_order == order::fifo) {
    if (m_items.empty()) return false;
    out = ranked_item{front ? m_items.front() : m_items.back()};
    if (front)
      m_items.pop_front();
    else
      m_items.pop_back();
    m_size.fetch_sub(1, std::memory_order_relaxed);
    return true;
  }
  if (m_ranked.empty()) return false;
  out = pop_ranked(front ? m_ranked.begin() : std::prev(m_ranked.end()));
  return true;
}

bool shared_pool::take_front(ranked_item& out) {
  return take_end(out, true);
}

bool shared_pool::take_back(ranked_item& out) {
  return take_end(out, false);
}

std::size_t shared_pool::take_back_half(std::vector<ranked_item>& out) {
  if (m_size.load(std::memory_order_relaxed) == 0) return 0;
  std::lock_guard lk(m_mutex);
  std::size_t n = 0;
  if (m_order == order::fifo) {
    // Every weight is 1: half the items (rounded down), at least one, as the ranked rule.
    const std::size_t take = m_items.size() / 2 != 0 ? m_items.size() / 2 : 1;
    for (; n < take; ++n) {
      out.push_back(ranked_item{m_items.back()});
      m_items.pop_back();
    }
    m_size.fetch_sub(n, std::memory_order_relaxed);
    return n;
  }
  // The ready queues' steal-half (the OCR paper's): stop once the taken weight reaches half
  // the total as it was when the lock was taken; at least one item.
  const std::uint64_t half = m_weight / 2;
  std::uint64_t taken = 0;
  while (!m_ranked.empty() && (n == 0 || taken < half)) {
    out.push_back(pop_ranked(std::prev(m_ranked.end())));
    taken += out.back().weight;
    ++n;
  }
  return n;
}

std::uint64_t shared_pool::weight() {
  std::lock_guard lk(m_mutex);
  return m_order == order::fifo ? m_items.size() : m_weight;
}

}  // namespace locus::ext
