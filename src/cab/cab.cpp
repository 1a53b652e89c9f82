// CAB's strategies: the spawn rule (bi-tier spawning), the acquisition (Algorithm I) and the
// iteration hooks (what a first iteration learns). See locus/cab.hpp for the rules and
// docs/design/0018-cab.md for the decisions. An extension: built from locus/ext/ and public
// headers only (tests/include_boundary.cmake).
#include <algorithm>
#include <atomic>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "locus/cab.hpp"
#include "locus/config.hpp"
#include "locus/ext/core.hpp"
#include "locus/ext/data.hpp"
#include "locus/ext/pool.hpp"
#include "locus/ext/scheduler.hpp"
#include "locus/ext/sockets.hpp"
#include "locus/laws.hpp"

namespace locus::cab {
namespace {

constexpr std::uint32_t k_builtin = ext::spawn_site::k_builtin;

/// How the scheduler runs now. Moves only from undecided to one of the others during a run
/// (at the run's first spawn that decides, under m_mutex); reset between runs (begin()).
enum class mode : std::uint8_t {
  undecided,  ///< no spawn has decided yet: plain stealing (nothing is tiered yet)
  plain,      ///< BL = 0: random stealing over every worker, every spawn inline
  tiered,     ///< BL >= 1: the inter-socket tier above the leaf depth, squads below
  manual      ///< LOCUS_CAB=manual: squads only; the inter-socket tier is cab::spawn_inter's
};

[[nodiscard]] std::string_view to_string(mode m) noexcept {
  switch (m) {
    case mode::plain:
      return "plain";
    case mode::tiered:
      return "tiered";
    case mode::manual:
      return "manual";
    case mode::undecided:
      break;
  }
  return "undecided";
}

class cab_impl final : public ext::spawn_rule,
                       public ext::acquisition,
                       public ext::iteration_hooks {
 public:
  explicit cab_impl(cab_options o) : m_opt(o) { validate_cab(o, "cab"); }

  /// The idle domains: one per squad (called once, by the runtime's constructor, before any
  /// worker starts).
  std::vector<unsigned> domains(const topology& topo, const std::vector<std::size_t>& core_of) {
    if (m_made.exchange(true))
      throw config_error(
          "cab: this scheduler object already serves a runtime; expected one "
          "make_cab_scheduler() per runtime");
    m_layout = ext::make_socket_layout(topo, core_of);
    m_cache = m_opt.cache_bytes != 0 ? m_opt.cache_bytes : ext::socket_cache_bytes(topo);
    if (m_cache == 0) m_cache = 1;  // a topology without an L3: every byte overflows it
    reset();
    return m_layout.socket_of;
  }

  [[nodiscard]] unsigned squads() const noexcept {
    return static_cast<unsigned>(m_layout.sockets.size());
  }
  [[nodiscard]] unsigned squad_of(unsigned w) const { return m_layout.socket_of.at(w); }
  [[nodiscard]] unsigned head_of(unsigned squad) const { return m_layout.sockets[squad]->head; }
  void count_manual() noexcept { m_manual.fetch_add(1, std::memory_order_relaxed); }

  // --- (a, b) the spawn rule: bi-tier spawning -------------------------------------------------

  bool work_first(ext::worker_ref /*w*/, std::uint32_t, std::uint32_t) override { return true; }

  void place(ext::worker_ref w, ext::spawn_site& s) override {
    s.work_first = true;
    mode m = m_mode.load(std::memory_order_acquire);
    if (m == mode::plain || m == mode::manual) {
      // Every spawn is intra-socket: child-first on the own deque, and the frames' later
      // spawns take the inline path (one compare each).
      s.child_slot = k_builtin;
      s.parent_slot = k_builtin;
      return;
    }
    const ext::declared_data cd = ext::declared_data_of(s.child);
    const ext::declared_data pd = ext::declared_data_of(s.parent);
    if (m == mode::undecided) {
      if (cd.bytes == 0 && pd.bytes == 0 && m_opt.boundary_level == cab_params::k_auto) {
        // No data here and BL is Eq. 4's: this subtree decides nothing (LAWS's rule for runs
        // with no data): it leaves the rule; a later spawn with data may still decide.
        s.child_slot = k_builtin;
        return;
      }
      decide(s, cd, pd);
      m = m_mode.load(std::memory_order_acquire);
      if (m != mode::tiered) {
        s.child_slot = k_builtin;
        s.parent_slot = k_builtin;
        return;
      }
    }
    // Tiered. m_leaf_depth and m_root were written before m_mode's release store.
    const int depth = static_cast<int>(s.level) + 1;  // the child's
    if (m_counting.load(std::memory_order_relaxed)) m_tasks.fetch_add(1, std::memory_order_relaxed);
    if (depth > m_leaf_depth) {
      // Intra-socket: child-first on the own deque, stolen only within the squad. While the
      // first iteration counts tasks (classify_workload) every spawn stays in the rule.
      if (!m_counting.load(std::memory_order_relaxed)) {
        s.child_slot = k_builtin;
        if (static_cast<int>(s.level) >= m_leaf_depth) s.parent_slot = k_builtin;
      }
      return;
    }
    // Inter-socket: parent-first into the inter-socket pool of the squad owning the child's
    // data (Eq. 1 over the root, laws::owner_of), the spawning squad's when it has none.
    m_inter.fetch_add(1, std::memory_order_relaxed);
    if (depth == m_leaf_depth) m_leaf.fetch_add(1, std::memory_order_relaxed);
    const unsigned here = m_layout.socket_of[w.index()];
    unsigned child_squad = here;
    unsigned rest_squad = here;
    if (cd.bytes != 0) {
      const data_range& pos = cd.ranges.front();
      child_squad = owner_in_root(pos, here);
      // The parent's continuation covers what it has not handed out yet: its first range
      // past the child's (LAWS, docs/design/0017: called halves).
      if (pd.bytes != 0) {
        const data_range& pr = pd.ranges.front();
        if (pos.begin >= pr.begin && pos.end() < pr.end()) {
          const data_range rest{pos.end(), static_cast<std::size_t>(pr.end() - pos.end()), pr.mode};
          rest_squad = owner_in_root(rest, here);
        }
      }
    }
    if (rest_squad == here || child_squad != here) {
      s.work_first = false;  // parent-first: the child to its squad's pool
      s.to_pool = &m_layout.sockets[child_squad]->pool;
    } else {
      // The child's data is here and the continuation's is elsewhere (a called second half
      // would otherwise run here): run the child now, the continuation goes to its squad.
      s.to_pool = &m_layout.sockets[rest_squad]->pool;
    }
  }

  // --- (c) the acquisition: Algorithm I --------------------------------------------------------

  bool acquire(ext::worker_ref w, ext::work_item& out) override {
    // Bound and gated before any task runs: the root itself is taken through this call, and
    // call_once makes every other caller wait, so no push precedes the gate.
    std::call_once(m_bound, [&] {
      for (const auto& s : m_layout.sockets) {
        ext::bind_pool(w.core(), s->head, s->pool);
        ext::set_pool_taker(w.core(), s->pool, s->head);
      }
    });
    const mode m = m_mode.load(std::memory_order_acquire);
    if (m == mode::plain || m == mode::undecided) return plain(w, out);
    const unsigned here = m_layout.socket_of[w.index()];
    ext::socket_group& sq = *m_layout.sockets[here];
    // Step 3: a squad-mate's deque (intra-socket tasks), at random.
    const auto n = static_cast<std::uint32_t>(sq.workers.size());
    for (std::uint32_t k = 1; k < n; ++k) {
      const unsigned v = sq.workers[w.random_below(n)];
      if (v != w.index() && w.steal_from(v, out)) return true;
    }
    // Roots, cab::spawn_inter's tasks and frames sent home: the squad's place's mailbox.
    if (w.take_mail(w.place(), out)) return true;
    // Steps 4 and 5: the head alone, and only while its squad is not busy: no worker of the
    // squad runs a task (domain_active, a racy hint; a worker suspended at a sync does not
    // run, so a head whose inter-socket task waits for children in the pools is free to take
    // them: no livelock). The gate wakes the head when the squad's last runner stops.
    if (w.index() != sq.head || w.core().domain_active(here) != 0) return false;
    if (w.take_from(sq.pool, out)) {
      m_pool_takes.fetch_add(1, std::memory_order_relaxed);
      return true;
    }
    const auto squads_n = static_cast<std::uint32_t>(m_layout.sockets.size());
    if (squads_n > 1) {
      const std::uint32_t start = w.random_below(squads_n);
      for (std::uint32_t k = 0; k < squads_n; ++k) {
        const std::uint32_t o = (start + k) % squads_n;
        // Leave the owner its next task: take only from a pool holding two or more (LAWS's
        // rule, docs/design/0017: a head merely scheduled first would carry others' data away).
        ext::shared_pool& victim = m_layout.sockets[o]->pool;
        if (o != here && victim.size_hint() >= 2 && w.take_from(victim, out)) {
          m_cross.fetch_add(1, std::memory_order_relaxed);
          return true;
        }
      }
    }
    return false;
  }

  /// A head stays awake while another squad's pool holds work it may steal (a push wakes only
  /// the pool's own head). Others sleep as usual.
  [[nodiscard]] bool may_sleep(ext::worker_ref w) noexcept override {
    if (m_mode.load(std::memory_order_acquire) != mode::tiered) return true;
    const unsigned here = m_layout.socket_of[w.index()];
    if (w.index() != m_layout.sockets[here]->head) return true;
    for (std::size_t o = 0; o < m_layout.sockets.size(); ++o)
      if (o != here && m_layout.sockets[o]->pool.size_hint() >= 2) return false;
    return true;
  }

  [[nodiscard]] std::string_view name() const noexcept override { return "cab"; }

  // --- iterations ------------------------------------------------------------------------------

  void begin(ext::core_ref /*core*/, std::size_t index) override {
    // Between runs. The first iteration decides (again); later ones keep its decision.
    if (index == 0) {
      reset();
      m_counting.store(m_mode.load(std::memory_order_relaxed) == mode::undecided,
                       std::memory_order_relaxed);
      m_tasks.store(0, std::memory_order_relaxed);
    }
    m_at_begin = snapshot();
  }

  void end(ext::core_ref /*core*/, ext::iteration_record& r) override {
    const stats now = snapshot();
    std::lock_guard lk(m_mutex);
    const bool counted = m_counting.exchange(false, std::memory_order_relaxed);
    r.scheduler = "cab";
    r.stage = to_string(m_mode.load(std::memory_order_relaxed));
    r.cross_socket_takes = now.cross_squad_takes - m_at_begin.cross_squad_takes;
    r.cf_roots = now.leaf_spawns - m_at_begin.leaf_spawns;
    r.cf_level = now.leaf_depth;
    if (counted && m_mode.load(std::memory_order_relaxed) == mode::tiered) {
      // LAWS's rule with the count the first iteration made: too little data per task is
      // cpu-bound, and the later iterations run plain (BL = 0).
      m_workload = ext::classify_workload(m_data_bytes, m_tasks.load(std::memory_order_relaxed));
      if (m_workload == ext::workload::cpu_bound && m_opt.boundary_level == cab_params::k_auto) {
        m_bl = 0;
        m_leaf_depth = -1;
        m_mode.store(mode::plain, std::memory_order_relaxed);  // published by the next run
      }
    }
    r.workload = ext::to_string(m_workload);
  }

  [[nodiscard]] stats snapshot() const {
    std::lock_guard lk(m_mutex);
    stats s;
    s.boundary_level = m_bl;
    s.root_depth = m_root_depth;
    s.leaf_depth = m_leaf_depth;
    s.branching = m_branching;
    s.data_bytes = m_data_bytes;
    s.cache_bytes = m_cache;
    s.squads = squads();
    s.inter_spawns = m_inter.load(std::memory_order_relaxed);
    s.leaf_spawns = m_leaf.load(std::memory_order_relaxed);
    s.pool_takes = m_pool_takes.load(std::memory_order_relaxed);
    s.cross_squad_takes = m_cross.load(std::memory_order_relaxed);
    s.manual_spawns = m_manual.load(std::memory_order_relaxed);
    return s;
  }

 private:
  /// The state before anything is learned (between runs only).
  void reset() {
    std::lock_guard lk(m_mutex);
    m_root.clear();
    m_root_depth = -1;
    m_leaf_depth = -1;
    m_branching = 0;
    m_data_bytes = 0;
    m_workload = ext::workload::undecided;
    mode m = mode::undecided;
    m_bl = -1;
    if (squads() <= 1 || m_opt.boundary_level == 0) {
      m = mode::plain;  // one squad (Algorithm II: BL = 0) or BL = 0 given
      m_bl = 0;
    } else if (m_opt.manual) {
      m = mode::manual;
    }
    m_mode.store(m, std::memory_order_relaxed);  // published by the next run's submission
  }

  /// The run's first deciding spawn: learn the root (the paper's level 1), S_d and B, and set
  /// BL from the options or Eq. 4. Races with other first spawns: the first under the lock
  /// decides, the others find the mode set.
  void decide(const ext::spawn_site& s, const ext::declared_data& cd,
              const ext::declared_data& pd) {
    std::lock_guard lk(m_mutex);
    if (m_mode.load(std::memory_order_relaxed) != mode::undecided) return;
    std::size_t declared = 0;
    unsigned branching = 2;
    if (pd.bytes != 0) {
      // The spawning frame declared data: it is the root; B is its bytes over its child's.
      m_root.assign(pd.ranges.begin(), pd.ranges.end());
      m_root_depth = static_cast<int>(s.level);
      declared = pd.bytes;
      if (cd.bytes != 0) branching = std::max<std::size_t>(2, (pd.bytes + cd.bytes / 2) / cd.bytes);
    } else if (cd.bytes != 0) {
      m_root.assign(cd.ranges.begin(), cd.ranges.end());  // the child is the root
      m_root_depth = static_cast<int>(s.level) + 1;
      declared = cd.bytes;
    } else {
      m_root_depth = 0;  // BL given and no data: the run's root task is level 1
    }
    m_branching = m_opt.branching != 0 ? m_opt.branching : branching;
    m_data_bytes = m_opt.data_bytes != 0 ? m_opt.data_bytes : declared;
    if (m_opt.boundary_level != cab_params::k_auto) {
      m_bl = m_opt.boundary_level;
    } else {
      // cpu-bound by LAWS's rule (before any count: data declared is memory-bound; the first
      // iteration of locus::iterate counts and may turn it plain, end()).
      m_workload = ext::classify_workload(m_data_bytes, 0);
      m_bl = m_workload == ext::workload::cpu_bound
                 ? 0
                 : static_cast<int>(boundary_level(squads(), m_branching, m_data_bytes, m_cache));
    }
    m_leaf_depth = m_bl == 0 ? -1 : m_root_depth + m_bl - 1;
    // Release: whoever reads the mode (acquire) reads the root and depths written above.
    m_mode.store(m_bl == 0 ? mode::plain : mode::tiered, std::memory_order_release);
  }

  /// The squad owning `r` by Eq. 1 over the root range holding it; `fallback` outside the root.
  [[nodiscard]] unsigned owner_in_root(const data_range& r, unsigned fallback) const {
    for (const data_range& k : m_root)
      if (r.begin >= k.begin && r.end() <= k.end()) return laws::owner_of(k, r, squads()).part;
    return fallback;
  }

  /// BL = 0 (and before any decision): Cilk's random stealing over every worker, the own
  /// squad's pool first in case a run left one non-empty (it never does: every task completes).
  bool plain(ext::worker_ref w, ext::work_item& out) {
    const unsigned n = w.num_workers();
    for (unsigned k = 0; k + 1 < n; ++k) {
      unsigned v = w.random_below(n - 1);
      if (v >= w.index()) ++v;
      if (w.steal_from(v, out)) return true;
    }
    if (w.take_mail(w.place(), out)) return true;
    return w.take_from(m_layout.sockets[m_layout.socket_of[w.index()]]->pool, out);
  }

  cab_options m_opt;
  std::atomic<bool> m_made{false};
  ext::socket_layout m_layout;
  std::size_t m_cache = 0;
  std::once_flag m_bound;
  std::atomic<mode> m_mode{mode::undecided};
  // Written under m_mutex before m_mode's release store (decide) or between runs; read by
  // spawns after m_mode's acquire load.
  mutable std::mutex m_mutex;
  std::vector<data_range> m_root;
  int m_root_depth = -1;
  int m_leaf_depth = -1;
  int m_bl = -1;
  unsigned m_branching = 0;
  std::size_t m_data_bytes = 0;
  ext::workload m_workload = ext::workload::undecided;
  // Counts (relaxed: read between runs, after run()'s synchronisation).
  std::atomic<bool> m_counting{false};
  std::atomic<std::uint64_t> m_tasks{0};
  std::atomic<std::uint64_t> m_inter{0}, m_leaf{0}, m_pool_takes{0}, m_cross{0}, m_manual{0};
  stats m_at_begin;
};

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
  auto impl = std::make_shared<cab::cab_impl>(o);
  auto s = std::make_shared<ext::scheduler>();
  s->name = "cab";
  s->acquire = std::shared_ptr<ext::acquisition>(impl, impl.get());
  s->spawn = std::shared_ptr<ext::spawn_rule>(impl, impl.get());
  s->iterations = std::shared_ptr<ext::iteration_hooks>(impl, impl.get());
  s->idle_domains = [impl](const topology& topo, const std::vector<std::size_t>& core_of,
                           const std::vector<unsigned>& /*place_of*/) {
    return impl->domains(topo, core_of);
  };
  return s;
}

}  // namespace locus

namespace locus::ext {
std::shared_ptr<const scheduler> cab_scheduler(const cab_params& p) {
  return make_cab_scheduler(p);
}
}  // namespace locus::ext
