// CAB's decision: the squads, where the paper's level 1 is, BL (Eq. 4 or given), the iteration
// hooks, the public calls of locus/cab.hpp and the scheduler's construction
// (docs/design/0018-cab.md).
#include <algorithm>
#include <stdexcept>
#include <string>

#include "impl.hpp"
#include "locus/config.hpp"
#include "locus/ext/core.hpp"

namespace locus::cab {

cab_impl::cab_impl(cab_options o) : m_opt(o) {
  validate_cab(o, "cab");
}

std::vector<unsigned> cab_impl::domains(const topology& topo,
                                        const std::vector<std::size_t>& core_of) {
  if (m_made.exchange(true))
    throw config_error(
        "cab: this scheduler object already serves a runtime; expected one "
        "make_cab_scheduler() per runtime");
  m_layout = ext::make_socket_layout(topo, core_of);
  m_cache = m_opt.cache_bytes != 0 ? m_opt.cache_bytes : ext::socket_cache_bytes(topo);
  if (m_cache == 0) m_cache = 1;  // a topology without an L3: every byte overflows it
  std::lock_guard lk(m_mutex);
  (void)initial_locked();
  return m_layout.socket_of;
}

namespace {
bool same(const decision& a, const decision& b) noexcept {
  return a.m == b.m && a.fixed == b.fixed && a.root_depth == b.root_depth &&
         a.leaf_depth == b.leaf_depth && a.bl == b.bl && a.branching == b.branching &&
         a.data_bytes == b.data_bytes && a.workload == b.workload &&
         std::equal(a.root.begin(), a.root.end(), b.root.begin(), b.root.end(),
                    [](const data_range& x, const data_range& y) {
                      return x.begin == y.begin && x.bytes == y.bytes;
                    });
}
}  // namespace

const decision* cab_impl::publish_locked(std::unique_ptr<decision> d) {
  // Decisions are never freed while the runtime lives (an idle worker may be reading the one
  // it loaded at any time, between runs too); an equal one is reused, so they grow with the
  // distinct roots and outcomes, not with the runs.
  const decision* p = nullptr;
  for (const auto& old : m_decisions)
    if (same(*old, *d)) p = old.get();
  if (p == nullptr) {
    p = d.get();
    m_decisions.push_back(std::move(d));
  }
  // Release: a spawn or a look that reads the pointer (acquire) reads the whole decision.
  m_now.store(p, std::memory_order_release);
  return p;
}

const decision* cab_impl::initial_locked() {
  auto d = std::make_unique<decision>();
  if (squads() <= 1 || m_opt.boundary_level == 0) {
    d->m = mode::plain;  // one squad (Algorithm II: BL = 0) or BL = 0 given
    d->bl = 0;
    d->fixed = true;
  } else if (m_opt.manual) {
    d->m = mode::manual;
    d->fixed = true;
  }
  return publish_locked(std::move(d));
}

const decision* cab_impl::decide(const decision* seen, const ext::spawn_site& s,
                                 const ext::declared_data& cd, const ext::declared_data& pd) {
  std::lock_guard lk(m_mutex);
  const decision* now = m_now.load(std::memory_order_relaxed);
  if (now != seen) return now;  // another spawn decided first
  const ext::declared_data& data = pd.bytes != 0 ? pd : cd;
  if (data.bytes == 0 && m_opt.boundary_level == cab_params::k_auto) {
    // A new run without data: back to undecided (the same object while it is current).
    if (seen->m == mode::undecided) return seen;
    return initial_locked();
  }
  auto d = std::make_unique<decision>();
  unsigned branching = 2;
  if (pd.bytes != 0) {
    // The spawning frame declared data: it is the root (the paper's level 1); B is its S_d
    // over its child's (the same measure, data_size), rounded: the halo rows a stencil's
    // child also reads leave heat's and sor's binary splits at 2, cilksort's quarters at 4.
    d->root.assign(pd.ranges.begin(), pd.ranges.end());
    d->root_depth = static_cast<int>(s.level);
    if (cd.bytes != 0) {
      const std::size_t root_sd = data_size(pd.ranges);
      const std::size_t child_sd = data_size(cd.ranges);
      branching =
          static_cast<unsigned>(std::max<std::size_t>(2, (root_sd + child_sd / 2) / child_sd));
    }
  } else if (cd.bytes != 0) {
    d->root.assign(cd.ranges.begin(), cd.ranges.end());  // the child is the root
    d->root_depth = static_cast<int>(s.level) + 1;
  } else {
    d->root_depth = 0;  // BL given and no data: the run's root task is level 1
  }
  d->branching = m_opt.branching != 0 ? m_opt.branching : branching;
  // S_d: what the root reads (data_size; the paper's input data size), or sd=. The cpu-bound
  // rule below reads the same quantity.
  d->data_bytes = m_opt.data_bytes != 0 ? m_opt.data_bytes : data_size(data.ranges);
  if (m_opt.boundary_level != cab_params::k_auto) {
    d->bl = m_opt.boundary_level;
  } else {
    // Cpu-bound by LAWS's rule before any count (data declared: memory-bound); the first
    // iteration of locus::iterate counts the tasks and may turn the later ones plain (end()).
    d->workload = ext::classify_workload(d->data_bytes, 0);
    d->bl = d->workload == ext::workload::cpu_bound
                ? 0
                : static_cast<int>(boundary_level(squads(), d->branching, d->data_bytes, m_cache));
  }
  d->leaf_depth = d->bl == 0 ? -1 : d->root_depth + d->bl - 1;
  d->m = d->bl == 0 ? mode::plain : mode::tiered;
  return publish_locked(std::move(d));
}

// --- iterations ----------------------------------------------------------------------------------

void cab_impl::begin(ext::core_ref /*core*/, std::size_t index) {
  // Between runs. The first iteration decides anew; later ones keep its decision.
  if (index == 0) {
    std::lock_guard lk(m_mutex);
    const decision* d = initial_locked();
    m_counting.store(d->m == mode::undecided, std::memory_order_relaxed);
    m_tasks.store(0, std::memory_order_relaxed);
  }
  m_iterating.store(true, std::memory_order_relaxed);  // published by the run's submission
  m_at_begin = snapshot();
}

void cab_impl::end(ext::core_ref /*core*/, ext::iteration_record& r) {
  m_iterating.store(false, std::memory_order_relaxed);
  const stats now = snapshot();
  std::lock_guard lk(m_mutex);
  const decision* d = m_now.load(std::memory_order_relaxed);
  const bool counted = m_counting.exchange(false, std::memory_order_relaxed);
  r.scheduler = "cab";
  r.stage = to_string(d->m);
  r.cross_socket_takes = now.cross_squad_takes - m_at_begin.cross_squad_takes;
  r.cf_roots = now.leaf_spawns - m_at_begin.leaf_spawns;
  r.cf_level = d->leaf_depth;
  ext::workload wl = d->workload;
  if (counted && m_opt.boundary_level == cab_params::k_auto &&
      (d->m == mode::undecided || d->m == mode::tiered)) {
    // LAWS's rule with the count the first iteration made: no data, or too little per task,
    // is cpu-bound, and the later iterations run plain (BL = 0).
    wl = d->m == mode::undecided
             ? ext::workload::cpu_bound
             : ext::classify_workload(d->data_bytes, m_tasks.load(std::memory_order_relaxed));
    auto next = std::make_unique<decision>(*d);
    next->workload = wl;
    if (wl == ext::workload::cpu_bound) {
      next->m = mode::plain;
      next->bl = 0;
      next->leaf_depth = -1;
    }
    (void)publish_locked(std::move(next));  // read by the next run, after its submission
  }
  r.workload = ext::to_string(wl);
}

stats cab_impl::snapshot() const {
  const decision* d = m_now.load(std::memory_order_acquire);
  stats s;
  s.boundary_level = d->bl;
  s.root_depth = d->root_depth;
  s.leaf_depth = d->leaf_depth;
  s.branching = d->branching;
  s.data_bytes = d->data_bytes;
  s.cache_bytes = m_cache;
  s.squads = squads();
  s.inter_spawns = m_inter.load(std::memory_order_relaxed);
  s.leaf_spawns = m_leaf.load(std::memory_order_relaxed);
  s.pool_takes = m_pool_takes.load(std::memory_order_relaxed);
  s.cross_squad_takes = m_cross.load(std::memory_order_relaxed);
  s.manual_spawns = m_manual.load(std::memory_order_relaxed);
  s.sent_home = m_sent_home.load(std::memory_order_relaxed);
  return s;
}

// --- the public calls ----------------------------------------------------------------------------

namespace {
cab_impl& impl_of(ext::core_ref core, std::string_view who) {
  auto* impl = core ? dynamic_cast<cab_impl*>(core.spawn_strategy()) : nullptr;
  if (impl == nullptr)
    throw std::logic_error(std::string(who) +
                           ": the runtime does not run CAB; expected a runtime made with "
                           "scheduler_kind::cab (LOCUS_SCHEDULER=cab) or make_cab_scheduler()");
  return *impl;
}
}  // namespace

stats stats_of(ext::core_ref core) {
  return impl_of(core, "cab::stats_of").snapshot();
}

unsigned squad_of(ext::core_ref core, unsigned w) {
  return impl_of(core, "cab::squad_of").squad_of(w);
}

unsigned detail::inter_place(unsigned squad) {
  const ext::core_ref core = ext::core_ref::current();
  if (!core)
    throw std::logic_error(
        "cab::spawn_inter: called off a runtime's workers; expected a call from a task of a "
        "runtime whose scheduler is cab");
  cab_impl& impl = impl_of(core, "cab::spawn_inter");
  if (impl.squads() <= 1)
    throw std::logic_error(
        "cab::spawn_inter: this runtime has one squad (one socket with workers), so there is "
        "no other socket to place an inter-socket task on; expected a runtime whose workers "
        "span two or more sockets");
  if (squad >= impl.squads())
    throw std::out_of_range("cab::spawn_inter: squad " + std::to_string(squad) +
                            " does not exist; expected 0 to " + std::to_string(impl.squads() - 1));
  impl.count_manual();
  return core.place_of(impl.head_of(squad));
}

}  // namespace locus::cab

namespace locus {

std::shared_ptr<const ext::scheduler> make_cab_scheduler(cab_options o) {
  return ext::make_socket_scheduler("cab", std::make_shared<cab::cab_impl>(o));
}

}  // namespace locus

namespace locus::ext {
std::shared_ptr<const scheduler> cab_scheduler(const cab_params& p) {
  return make_cab_scheduler(p);
}
}  // namespace locus::ext
