// The built-in scheduler strategies (locus/ext/scheduler.hpp) and the worker view they use.
#include "locus/ext/scheduler.hpp"

#include "runtime_state.hpp"

namespace locus::ext {

static_assert(spawn_site::k_builtin == detail::k_slot_builtin,
              "the core's inline spawn path and the extension interface reserve the same slot");

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

void worker_ref::use_custom_spawn_rule(bool custom) noexcept {
  m_w->use_custom_rule(custom, spawn_policy::work_first);
}

unsigned worker_ref::active_workers() const noexcept {
  std::uint64_t n = 0;
  for (const auto& d : m_rt->idle_domains)
    n += d->active_now();
  return static_cast<unsigned>(n);
}

void worker_ref::wake_sleepers() noexcept {
  for (const auto& d : m_rt->idle_domains) {
    // Each wake_one turns one sleeper into a thief; stop when none is left.
    while (d->sleeping() != 0)
      d->wake_one();
  }
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

std::coroutine_handle<> spawn_custom(worker& w, frame& parent, frame& child,
                                     bool is_async) noexcept {
  runtime_state& rt = w.rt();
  const ext::worker_ref ref(w, rt);
  ext::spawn_site s;
  s.level = parent.m_level;
  // adopt() has numbered the child already: its index is the one before m_next_spawn.
  s.spawn_index = parent.m_next_spawn - 1;
  s.parent_slot = schedule_slot(parent.m_schedule);
  s.child_slot = schedule_slot(child.m_schedule);  // inherited: the parent's
  rt.spawn->place(ref, s);
  // Slots first: the donation below publishes a frame, which may then run elsewhere at once.
  parent.m_schedule = make_schedule(schedule_phase(parent.m_schedule), s.parent_slot);
  child.m_schedule = make_schedule(schedule_phase(child.m_schedule), s.child_slot);
  const bool donate = s.donate_to != ext::spawn_site::k_keep && s.donate_to != w.index() &&
                      s.donate_to < rt.workers.size();
  if (s.work_first) {
    // As spawn_start's work-first branch. A donated continuation is one taken at once: the
    // receiving worker runs it through execute(), which counts it in m_expected as for a
    // steal; the child's completion then finds its deque without it and joins the parent.
    child.m_work_first = true;
    child.m_parent_expected = parent.m_expected;
    counters::bump(w.stats().spawns_work_first);
    const std::uintptr_t item = continuation_item(&parent, is_async);
    if (!donate || !rt.spawn->donate(ref, s.donate_to, ext::work_item{item, w.index()}))
      w.tasks().push(item);
    return transfer(child.handle());
  }
  // As spawn_start's help-first branch. Counted as pushed either way: the receiver of a
  // donated child counts it as stolen from this worker (execute), which keeps fresh_tasks()
  // balanced.
  child.m_work_first = false;
  if (!is_async) ++parent.m_expected;
  w.note_fresh_pushed();
  counters::bump(w.stats().spawns_help_first);
  const std::uintptr_t item = fresh_item(&child);
  if (!donate || !rt.spawn->donate(ref, s.donate_to, ext::work_item{item, w.index()}))
    w.tasks().push(item);
  return transfer(parent.handle());
}

}  // namespace locus::detail
