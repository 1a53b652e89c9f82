// The idle domain's parking, claims and pool wake-ups (idle_domain.hpp states the protocol).
#include "idle_domain.hpp"

#include <algorithm>

#include "locus/config.hpp"

namespace locus::detail {

idle_domain::idle_domain(std::vector<unsigned> members)
    : m_members(std::move(members)),
      m_slots(std::make_unique<slot_state[]>(m_members.size())),
      m_state(m_members.size() * k_thief) {}

unsigned idle_domain::slot_of(unsigned w) const noexcept {
  const auto it = std::find(m_members.begin(), m_members.end(), w);
  return it == m_members.end() ? k_any : static_cast<unsigned>(it - m_members.begin());
}

bool idle_domain::park(unsigned slot) noexcept {
  m_slots[slot].parked.store(1, std::memory_order_seq_cst);
  // Dekker with thief_to_active: it updates the word, then scans the flags; we set our flag,
  // then read the word. If it left no thief while some member runs and did not see us, we
  // see that here and become the thief it wanted.
  const std::uint64_t s = m_state.load(std::memory_order_seq_cst);
  if (thieves(s) == 0 && active(s) > 0) return !unpark_self(slot);
  return true;
}

bool idle_domain::unpark_self(unsigned slot) noexcept {
  std::uint32_t one = 1;
  if (!m_slots[slot].parked.compare_exchange_strong(one, 0, std::memory_order_seq_cst))
    return false;  // claimed by a waker, who counts us back and releases our semaphore
  count_back();
  return true;
}

bool idle_domain::wake_member(unsigned slot) noexcept {
  std::uint32_t one = 1;
  if (!m_slots[slot].parked.compare_exchange_strong(one, 0, std::memory_order_seq_cst))
    return false;
  count_back();
  m_slots[slot].sem.release();
  return true;
}

bool idle_domain::wake_one() noexcept {
  const auto n = static_cast<unsigned>(m_members.size());
  // Start the scan at a rotating slot so that wake-ups spread over the members.
  const unsigned start = m_next.fetch_add(1, std::memory_order_relaxed) % n;
  for (unsigned k = 0; k < n; ++k) {
    const unsigned i = (start + k) % n;
    if (m_slots[i].parked.load(std::memory_order_seq_cst) != 0 && wake_member(i)) return true;
  }
  return false;
}

void idle_domain::wake_all() noexcept {
  for (unsigned i = 0; i < m_members.size(); ++i)
    (void)wake_member(i);
}

void idle_domain::wake_all_for_stop() noexcept {
  // Every member gets a permit whether it blocks or not: a member that is not asleep finds
  // the stop flag before it would block again (the worker loop reads it first).
  for (unsigned i = 0; i < m_members.size(); ++i)
    m_slots[i].sem.release();
}

void idle_domain::watch(ext::shared_pool& p) noexcept {
  p.m_domain = this;
  ext::shared_pool* head = m_watched.load(std::memory_order_relaxed);
  do {
    p.m_next_watched = head;
  } while (!m_watched.compare_exchange_weak(head, &p, std::memory_order_release,
                                            std::memory_order_relaxed));
}

void idle_domain::set_taker(ext::shared_pool& p, unsigned slot) noexcept {
  const unsigned old = p.m_taker.exchange(slot, std::memory_order_seq_cst);
  if ((old == k_any) != (slot == k_any))
    m_gated.fetch_add(slot == k_any ? ~0u : 1u, std::memory_order_seq_cst);
  // The new taker may be parked while the pool already holds work: let it look again.
  if (slot != k_any && !p.empty_seq_cst()) (void)wake_member(slot);
}

void idle_domain::pushed(const ext::shared_pool& p) noexcept {
  const unsigned taker = p.m_taker.load(std::memory_order_seq_cst);
  if (taker == k_any) {
    (void)wake_one();
    return;
  }
  // Gated: the taker takes only while no member is active; if one is, the last to turn thief
  // wakes the taker (active_to_thief).
  if (active_now() == 0) (void)wake_member(taker);
}

void idle_domain::wake_gated_takers() noexcept {
  for (const ext::shared_pool* p = m_watched.load(std::memory_order_acquire); p != nullptr;
       p = p->m_next_watched) {
    const unsigned taker = p->m_taker.load(std::memory_order_seq_cst);
    if (taker != k_any && !p->empty_seq_cst()) (void)wake_member(taker);
  }
}

bool idle_domain::work_for(unsigned slot) noexcept {
  for (const ext::shared_pool* p = m_watched.load(std::memory_order_acquire); p != nullptr;
       p = p->m_next_watched) {
    if (p->empty_seq_cst()) continue;
    const unsigned taker = p->m_taker.load(std::memory_order_seq_cst);
    if (taker == k_any) {
      // Anyone may take it: wake one parked member, perhaps the caller (whose sleep() then
      // returns at once). None parked means the caller was claimed already: same outcome.
      (void)wake_one();
      continue;
    }
    if (taker == slot && active_now() == 0) return true;
  }
  return false;
}

std::vector<unsigned> default_domains(const std::vector<unsigned>& place_of, bool one_for_all) {
  if (one_for_all) return std::vector<unsigned>(place_of.size(), 0);
  return place_of;
}

std::vector<unsigned> checked_domains(std::vector<unsigned> domain_of,
                                      const std::vector<unsigned>& place_of,
                                      const std::string& scheduler) {
  const std::string who = "scheduler \"" + scheduler + "\": idle_domains";
  if (domain_of.size() != place_of.size())
    throw config_error(who + " gave " + std::to_string(domain_of.size()) + " domains for " +
                       std::to_string(place_of.size()) + " workers; expected one per worker");
  const unsigned k = *std::max_element(domain_of.begin(), domain_of.end()) + 1;
  std::vector<bool> used(k, false);
  std::vector<unsigned> domain_of_place(place_of.size(), k);
  for (std::size_t w = 0; w < domain_of.size(); ++w) {
    used[domain_of[w]] = true;
    unsigned& d = domain_of_place[place_of[w]];
    if (d != k && d != domain_of[w])
      throw config_error(who + " splits place " + std::to_string(place_of[w]) + " over domains " +
                         std::to_string(d) + " and " + std::to_string(domain_of[w]) +
                         "; expected each place inside one domain (its pool wakes one domain)");
    d = domain_of[w];
  }
  if (std::find(used.begin(), used.end(), false) != used.end())
    throw config_error(who + " numbers " + std::to_string(k) +
                       " domains but leaves some empty; expected dense ids 0..k-1");
  return domain_of;
}

std::vector<std::unique_ptr<idle_domain>> make_domains(const std::vector<unsigned>& domain_of,
                                                       std::vector<unsigned>& slot) {
  const unsigned k = *std::max_element(domain_of.begin(), domain_of.end()) + 1;
  std::vector<std::vector<unsigned>> members(k);
  slot.assign(domain_of.size(), 0);
  for (unsigned w = 0; w < domain_of.size(); ++w) {
    slot[w] = static_cast<unsigned>(members[domain_of[w]].size());
    members[domain_of[w]].push_back(w);
  }
  std::vector<std::unique_ptr<idle_domain>> out;
  out.reserve(members.size());
  for (auto& m : members)
    out.push_back(std::make_unique<idle_domain>(std::move(m)));
  return out;
}

}  // namespace locus::detail
