// The built-in scheduler strategies (locus/ext/scheduler.hpp) and the worker view they use.
#include "locus/ext/scheduler.hpp"

#include "locus/detail/scheduler.hpp"
#include "locus/ext/pool.hpp"
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
  bool heavy = false;
  const bool took = m_rt->workers[victim]->tasks().steal(out.bits, heavy);
  if (heavy) counters::bump(m_w->stats().heavy_fences);
  if (!took) return false;
  counters::bump(m_w->stats().steals_succeeded);
  out.from = victim;
  return true;
}

bool worker_ref::take_mail(unsigned p, work_item& out) {
  // `from` stays as posted: k_from_mailbox for roots, remote spawns and frames sent home; the
  // spawning worker for a spawn rule's placement (counted as stolen from it, as a donation).
  if (!m_rt->places[p]->mail.take(out)) return false;
  counters::bump(m_w->stats().mailbox_takes);
  return true;
}

bool worker_ref::take_from(shared_pool& pool, work_item& out) {
  return pool.take(out);
}

void worker_ref::use_custom_spawn_rule(bool custom) noexcept {
  m_w->use_custom_rule(custom, spawn_policy::work_first);
}

unsigned worker_ref::active_workers() const noexcept {
  return core().active_workers();
}

void worker_ref::wake_sleepers() noexcept {
  core().wake_all();
}
bool worker_ref::wake_worker(unsigned w) noexcept {
  return core().wake_worker(w);
}
unsigned worker_ref::idle_domain() const noexcept {
  return m_rt->domain_of[m_w->index()];
}

std::string_view to_string(workload w) noexcept {
  switch (w) {
    case workload::memory_bound:
      return "memory-bound";
    case workload::cpu_bound:
      return "cpu-bound";
    case workload::undecided:
      break;
  }
  return "";
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

namespace {

/// Where spawn_custom puts the stealable part `item` of a spawn: the placement `s` chose
/// (ext::spawn_site: a pool, a place's pool, a donation), else the own deque. A full pool or
/// a refused donation falls back to the own deque.
void place_item(worker& w, runtime_state& rt, const ext::worker_ref& ref, const ext::spawn_site& s,
                std::uintptr_t item) {
  const ext::work_item wi{item, w.index()};
  if (s.to_pool != nullptr) {
    if (s.to_pool->push(wi)) return;
  } else if (s.to_place != ext::spawn_site::k_keep && s.to_place < rt.places.size()) {
    if (rt.places[s.to_place]->mail.push(wi)) return;
  } else if (s.donate_to != ext::spawn_site::k_keep && s.donate_to != w.index() &&
             s.donate_to < rt.workers.size()) {
    if (rt.spawn->donate(ref, s.donate_to, wi)) return;
  }
  w.tasks().push(item);
}

}  // namespace

std::coroutine_handle<> spawn_custom(worker& w, frame& parent, frame& child,
                                     bool is_async) noexcept {
  runtime_state& rt = w.rt();
  const ext::worker_ref ref(w, rt);
  ext::spawn_site s;
  s.level = parent.m_level;
  // adopt() has numbered the child already: its index is the one before m_next_spawn.
  s.spawn_index = parent.m_next_spawn - 1;
  s.child = ext::task_ref(&child);
  s.parent = ext::task_ref(&parent);
  s.parent_slot = schedule_slot(parent.m_schedule);
  s.child_slot = schedule_slot(child.m_schedule);  // inherited: the parent's
  rt.spawn->place(ref, s);
  // Slots first: the placement below publishes a frame, which may then run elsewhere at once.
  parent.m_schedule = make_schedule(schedule_phase(parent.m_schedule), s.parent_slot);
  child.m_schedule = make_schedule(schedule_phase(child.m_schedule), s.child_slot);
  // The two branches are spawn_start's (detail/scheduler.hpp), with the push replaced by the
  // placement. An item placed elsewhere is taken by another worker through execute(), which
  // counts a continuation in m_expected and the child as stolen from this worker, exactly as
  // for a steal: so both branches count as spawn_start's do.
  if (s.work_first) {
    const std::uintptr_t item = start_work_first(w, parent, child, is_async);
    place_item(w, rt, ref, s, item);
    return transfer(child.handle());
  }
  const std::uintptr_t item = start_help_first(w, parent, child, is_async);
  place_item(w, rt, ref, s, item);
  return transfer(parent.handle());
}

}  // namespace locus::detail
