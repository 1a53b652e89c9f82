// The built-in scheduler strategies (locus/ext/scheduler.hpp) and the worker view they use.
#include "locus/ext/scheduler.hpp"

#include "runtime_state.hpp"

namespace locus::ext {

using detail::counters;

unsigned worker_ref::index() const noexcept {
  return m_w->index();
}
unsigned worker_ref::place() const noexcept {
  return m_w->place();
}
unsigned worker_ref::num_workers() const noexcept {
  return static_cast<unsigned>(m_rt->workers.size());
}
unsigned worker_ref::num_places() const noexcept {
  return static_cast<unsigned>(m_rt->places.size());
}
const topology& worker_ref::topo() const noexcept {
  return m_rt->topo;
}
std::size_t worker_ref::core_of(unsigned w) const noexcept {
  return m_rt->core_of[w];
}
const std::vector<unsigned>& worker_ref::place_workers(unsigned p) const noexcept {
  return m_rt->places[p]->workers;
}
const std::vector<std::vector<unsigned>>& worker_ref::victim_tiers() const noexcept {
  return m_rt->victim_tiers[m_w->index()];
}
const std::vector<unsigned>& worker_ref::remote_places() const noexcept {
  return m_rt->remote_places[m_w->index()];
}
std::uint32_t worker_ref::random_below(std::uint32_t n) noexcept {
  return m_w->random().below(n);
}

bool worker_ref::steal_from(unsigned victim, work_item& out) noexcept {
  counters::bump(m_w->stats().steals_attempted);
  if (!m_rt->workers[victim]->tasks().steal(out.bits)) return false;
  counters::bump(m_w->stats().steals_succeeded);
  out.from = victim;
  return true;
}

bool worker_ref::take_mail(unsigned p, work_item& out) {
  if (!m_rt->places[p]->mail.pop(out.bits)) return false;
  counters::bump(m_w->stats().mailbox_takes);
  out.from = work_item::k_from_mailbox;
  return true;
}

namespace {

/// As many random picks (with replacement) among `tier` as it has members.
bool steal_in(worker_ref& w, const std::vector<unsigned>& tier, work_item& out) {
  const auto n = static_cast<std::uint32_t>(tier.size());
  for (std::uint32_t k = 0; k < n; ++k) {
    if (w.steal_from(tier[w.random_below(n)], out)) return true;
  }
  return false;
}

/// SLAW's order (section IV): peers of the own place, nearest tier first; the own mailbox;
/// then, when cross-place stealing is on, other places' workers and mailboxes, nearest first.
class slaw_order final : public acquisition {
 public:
  bool acquire(worker_ref w, work_item& out) override {
    for (const auto& tier : w.victim_tiers())
      if (steal_in(w, tier, out)) return true;
    if (w.take_mail(w.place(), out)) return true;
    for (unsigned p : w.remote_places()) {
      if (steal_in(w, w.place_workers(p), out)) return true;
      if (w.take_mail(p, out)) return true;
    }
    return false;
  }
  [[nodiscard]] std::string_view name() const noexcept override { return "slaw"; }
};

/// Cilk's: victims uniformly at random among all other workers (as many picks as there are
/// other workers), then the mailbox, where runtime::run posts the root.
class random_order final : public acquisition {
 public:
  bool acquire(worker_ref w, work_item& out) override {
    const unsigned n = w.num_workers();
    if (n > 1) {
      for (unsigned k = 0; k + 1 < n; ++k) {
        // A uniform pick among the n - 1 others: skip over the own index.
        unsigned v = w.random_below(n - 1);
        if (v >= w.index()) ++v;
        if (w.steal_from(v, out)) return true;
      }
    }
    return w.take_mail(w.place(), out);
  }
  [[nodiscard]] std::string_view name() const noexcept override { return "cilk"; }
};

}  // namespace

std::shared_ptr<acquisition> slaw_acquisition() {
  return std::make_shared<slaw_order>();
}
std::shared_ptr<acquisition> random_acquisition() {
  return std::make_shared<random_order>();
}

}  // namespace locus::ext

namespace locus::detail {

bool worker::choose_custom(const frame& parent) noexcept {
  // adopt() has numbered the child already: its index is the one before m_next_spawn.
  return m_rt.spawn->work_first(ext::worker_ref(*this, m_rt), parent.m_level,
                                parent.m_next_spawn - 1);
}

}  // namespace locus::detail
