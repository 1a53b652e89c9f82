// LAWS's pure parts: the owner of a range under Eq. 1's split, and Algorithm 1's search.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "locus/laws.hpp"

namespace locus::laws {

owner owner_of(const data_range& root, const data_range& r, unsigned parts) {
  if (parts == 0) throw std::invalid_argument("laws::owner_of: parts=0; expected at least 1");
  if (r.begin < root.begin || r.end() > root.end() || r.bytes == 0)
    throw std::invalid_argument("laws: the range " + to_string(r) +
                                " is not inside the root's range " + to_string(root) +
                                "; expected every task's data inside the data of the "
                                "iteration's root (the first task that declared data)");
  // Offsets into the root; part i is Eq. 1's [i * size / M, (i + 1) * size / M), computed
  // by locus::part so that the last part absorbs the remainder exactly as data splits do.
  const auto lo = static_cast<std::size_t>(r.begin - root.begin);
  const std::size_t hi = lo + r.bytes;
  owner best;
  std::size_t best_bytes = 0;
  for (unsigned i = 0; i < parts; ++i) {
    const data_range p = part(root, i, parts);
    if (p.bytes == 0) continue;
    const auto plo = static_cast<std::size_t>(p.begin - root.begin);
    const std::size_t phi = plo + p.bytes;
    const std::size_t a = std::max(lo, plo), b = std::min(hi, phi);
    const std::size_t in = b > a ? b - a : 0;
    if (in > best_bytes) {  // strict: a tie keeps the lower part
      best_bytes = in;
      best.part = i;
      best.whole = in == r.bytes;
      best.mostly_whole = (r.bytes - in) <= r.bytes / 4;
    }
  }
  return best;
}

packing_search::packing_search(int lowest, int highest)
    : m_lowest(std::min(lowest, 0)), m_highest(std::max(highest, 0)), m_state(state::initial) {}

void packing_search::record(double cost) noexcept {
  const auto finish = [this] {
    m_state = state::done;
    m_current = m_best;
  };
  switch (m_state) {
    case state::initial:
      m_best = 0;
      m_best_cost = cost;
      if (m_highest > 0) {
        m_current = 1;
        m_state = state::down;
      } else if (m_lowest < 0) {
        m_current = -1;
        m_state = state::up;
      } else {
        finish();
      }
      return;
    case state::down:
      if (cost < m_best_cost) {
        m_best = m_current;
        m_best_cost = cost;
        if (m_current < m_highest) {
          ++m_current;
          return;
        }
        finish();
        return;
      }
      // Smaller subtrees did not help from the start: try larger ones (Algorithm 1, line 12).
      if (m_best == 0 && m_lowest < 0) {
        m_current = -1;
        m_state = state::up;
        return;
      }
      finish();
      return;
    case state::up:
      if (cost < m_best_cost) {
        m_best = m_current;
        m_best_cost = cost;
        if (m_current > m_lowest) {
          --m_current;
          return;
        }
      }
      finish();
      return;
    case state::done:
      return;
  }
}

}  // namespace locus::laws
