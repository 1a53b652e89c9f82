// LAWS's strategies: the spawn rule (allocation and packing), the acquisition (three-level
// stealing) and the iteration hooks (what the first iteration learns, Algorithm 1). See
// locus/laws.hpp for the rules and docs/design/0017-laws.md for the decisions.
#include <algorithm>
#include <mutex>
#include <stdexcept>
#include <string>

#include "locus/config.hpp"
#include "locus/ext/accounting.hpp"
#include "locus/ext/core.hpp"
#include "locus/ext/data.hpp"
#include "locus/ext/pool.hpp"
#include "locus/ext/scheduler.hpp"
#include "locus/ext/sockets.hpp"
#include "locus/laws.hpp"
#include "locus/locality/accountant.hpp"
#include "state.hpp"

namespace locus::laws {
namespace {

constexpr std::uint32_t k_builtin = ext::spawn_site::k_builtin;

class laws_impl final : public ext::spawn_rule,
                        public ext::acquisition,
                        public ext::iteration_hooks,
                        public ext::footprint_sink {
 public:
  explicit laws_impl(laws_options o) : m_opt(std::move(o)) {}

  /// The idle domains: one per socket that has workers (called once, by the runtime's
  /// constructor, before any worker starts).
  std::vector<unsigned> domains(const topology& topo, const std::vector<std::size_t>& core_of) {
    if (m_made.exchange(true))
      throw config_error(
          "laws: this scheduler object already serves a runtime; expected one "
          "make_laws_scheduler() per runtime");
    m_layout = ext::make_socket_layout(topo, core_of);
    m_upper.clear();
    for (std::size_t i = 0; i < m_layout.sockets.size(); ++i)
      m_upper.push_back(std::make_unique<ext::shared_pool>());
    m_cache = m_opt.cache_bytes != 0 ? m_opt.cache_bytes : ext::socket_cache_bytes(topo);
    return m_layout.socket_of;
  }

  // --- (a, b) the spawn rule: allocation and packing -----------------------------------------

  bool work_first(ext::worker_ref /*w*/, std::uint32_t, std::uint32_t) override { return true; }

  void place(ext::worker_ref w, ext::spawn_site& s) override {
    const stage st = m_stage.load(std::memory_order_relaxed);
    s.work_first = true;
    if (st == stage::plain) {
      s.child_slot = k_builtin;  // the whole subtree leaves the rule
      return;
    }
    const ext::declared_data cd = ext::declared_data_of(s.child);
    const ext::declared_data pd = ext::declared_data_of(s.parent);
    if (cd.bytes == 0 && pd.bytes == 0) {
      // No data here. Outside an iteration the subtree runs on plain stealing; inside one,
      // data may still be declared below (the rule keeps looking, on the own deque).
      if (!m_in_iteration.load(std::memory_order_relaxed)) s.child_slot = k_builtin;
      return;
    }
    const int depth = static_cast<int>(s.level) + 1;
    if (st == stage::packed && depth > m_cf_depth && !off_socket(pd, w, false) &&
        !off_socket(cd, w, true)) {
      s.child_slot = k_builtin;  // socket-local: child-first on the own deque, inline after
      return;
    }
    const data_range* pos = cd.bytes != 0 ? &cd.ranges.front() : nullptr;
    // Both the parent's data and the child's must lie inside the root's; else an error is
    // recorded (iterate() throws it) and the child stays on this worker.
    if (!root_holds(pd.bytes != 0 ? pd : cd) || (pos != nullptr && !root_holds(cd))) return;
    const unsigned here = m_layout.socket_of[w.index()];
    unsigned child_socket = here;
    bool child_whole = true;
    if (pos != nullptr) {
      const owner o = owner_in_root(*pos);
      child_socket = o.part;
      child_whole = o.mostly_whole;
    }
    // The parent's continuation covers what it has not handed out yet: its first range past
    // the child's (Eq. 1 hands parts out in spawn order).
    unsigned rest_socket = here;
    if (pd.bytes != 0 && pos != nullptr && pos->end() < pd.ranges.front().end() &&
        pos->begin >= pd.ranges.front().begin) {
      const data_range& pr = pd.ranges.front();
      const data_range rest{pos->end(), static_cast<std::size_t>(pr.end() - pos->end()), pr.mode};
      rest_socket = owner_in_root(rest).part;
    }
    if (st == stage::first_touch) learn(depth, cd.bytes, pd.bytes, child_whole, pd);
    // Keep here whichever part belongs here; send the other to its socket's pool,
    // parent-first (help-first) when it is the child (docs/design/0017: called halves).
    if (rest_socket == here || child_socket != here) {
      s.work_first = false;
      s.to_pool = pool_for(st, child_socket, depth);
    } else {
      s.to_pool = pool_for(st, rest_socket, depth - 1);  // the continuation moves
    }
    // A stranded frame's work below the CF level goes to its owner's upper pool: its own head
    // takes it, never another socket (a subtree of it is no CF root).
    if (st == stage::packed && depth > m_cf_depth)
      s.to_pool = m_upper[s.work_first ? rest_socket : child_socket].get();
    // A CF root joining one or more in its socket's CF pool may be taken by another socket:
    // wake one idle head that has nothing of its own (docs/design/0017, "Waking another head").
    if (st == stage::packed && depth == m_cf_depth && !s.work_first && m_opt.wake_idle_heads)
      wake_idle_head(w, child_socket);
  }

  // --- (c) the acquisition: three levels ------------------------------------------------------

  bool acquire(ext::worker_ref w, ext::work_item& out) override {
    std::call_once(m_bound, [&] { bind_all(w.core()); });
    const stage st = m_stage.load(std::memory_order_relaxed);
    // Cpu-bound, or outside iterate() with no data seen yet (fib under LOCUS_SCHEDULER=laws):
    // plain random stealing over every socket.
    if (st == stage::plain || (!m_in_iteration.load(std::memory_order_relaxed) &&
                               !m_root_ready.load(std::memory_order_relaxed)))
      return plain(w, out);
    const unsigned here = m_layout.socket_of[w.index()];
    socket_state& sock = *m_layout.sockets[here];
    // 1. the socket's peers' deques (socket-local tasks), at random.
    const auto n = static_cast<std::uint32_t>(sock.workers.size());
    for (std::uint32_t k = 1; k < n; ++k) {
      const unsigned v = sock.workers[w.random_below(n)];
      if (v != w.index() && w.steal_from(v, out)) return true;
    }
    // Roots and remote spawns posted to the place (a socket). A packed iteration's root that
    // lies in another socket's part goes to that socket (below).
    if (w.take_mail(w.place(), out)) return !(st == stage::packed && rehome_root(w, out));
    if (st == stage::first_touch) return w.take_from(sock.pool, out);  // any worker, own socket
    // 2. the head takes the socket's next task above its CF roots, else its next CF subtree,
    // only once the last one is done.
    if (w.index() != sock.head) return false;
    if (w.core().domain_active(here) == 0 &&
        (w.take_from(*m_upper[here], out) || w.take_from(sock.pool, out))) {
      count_cf(out);
      return true;
    }
    // 3. a whole CF subtree from another socket's CF pool: never a task above one, whose
    // called half would run here (docs/design/0017, "Cross-socket takes").
    const auto m = static_cast<std::uint32_t>(m_layout.sockets.size());
    if (m > 1 && w.core().domain_active(here) == 0) {
      const std::uint32_t start = w.random_below(m);
      for (std::uint32_t k = 0; k < m; ++k) {
        const std::uint32_t o = (start + k) % m;
        // Leave the owner its next subtree: take only from a pool holding two or more
        // (docs/design/0017: on an oversubscribed machine a head that is merely scheduled
        // first would otherwise carry other sockets' subtrees away).
        ext::shared_pool& victim = m_layout.sockets[o]->pool;
        if (o != here && victim.size_hint() >= 2 && w.take_from(victim, out)) {
          m_cross.fetch_add(1, std::memory_order_relaxed);
          count_cf(out);
          // The subtree runs here whole, socket-local: its spawns leave the rule (else, its
          // data being another socket's, they would be sent back as a stranded frame's).
          ext::task_ref t = ext::task_ref::of_item(out.bits);
          if (t.is_frame()) t.set(t.phase(), k_builtin);
          return true;
        }
      }
    }
    return false;
  }

  [[nodiscard]] std::string_view name() const noexcept override { return "laws"; }

  // --- footprint=misses: the first iteration's tasks, as the accountant reports them ----------

  void on_footprint(unsigned worker, const ext::task_footprint& f) noexcept override {
    // The worker's own list (no lock: one writer each; read after run() returned). An
    // allocation failure loses the report: the packing then sees a smaller subtree.
    try {
      if (worker < m_footprints.size()) m_footprints[worker].push_back(f);
    } catch (...) {
    }
  }

  // --- iterations ------------------------------------------------------------------------------

  void begin(ext::core_ref core, std::size_t index) override;
  void end(ext::core_ref core, ext::iteration_record& r) override;

 private:
  bool plain(ext::worker_ref w, ext::work_item& out) {
    const unsigned here = m_layout.socket_of[w.index()];
    if (w.take_from(m_layout.sockets[here]->pool, out) || w.take_from(*m_upper[here], out))
      return true;
    const unsigned n = w.num_workers();
    for (unsigned k = 0; k + 1 < n; ++k) {
      unsigned v = w.random_below(n - 1);
      if (v >= w.index()) ++v;
      if (w.steal_from(v, out)) return true;
    }
    if (!w.take_mail(w.place(), out)) return false;
    // acquire() chose this path from m_stage and m_in_iteration read before this take, and a
    // worker between two iterations reads them as the last one's end() left them: the root
    // it takes here may be the next iteration's. run() posted it after begin() stored the
    // flags, and the mailbox's lock orders that post before this take, so read them again: a
    // packed iteration's root goes to its socket (rehome_root) as on the packed path.
    // (Without this, one root in ~30 runs of LawsParts.ARootInsideOnePartStartsOnItsSocket
    // under load ran on socket 0.)
    if (m_in_iteration.load(std::memory_order_relaxed) &&
        m_stage.load(std::memory_order_relaxed) == stage::packed)
      return !rehome_root(w, out);
    return true;
  }

  /// Wakes the head of one other socket that is parked, quiet and has nothing in its own two
  /// pools, when socket `busy`'s CF pool holds one or more CF roots before the push that
  /// follows (two or more after it: a take across sockets leaves the owner its next one).
  /// Without it a push wakes only its own pool's head, so an idle head that had gone to sleep
  /// never balanced (docs/design/0017). The woken head looks once more (acquire's level 3)
  /// and sleeps again if the owner took the subtrees first: a wasted wake, never a lost one
  /// (the owner's head is woken by its own pool's gate). Asked once per CF root pushed: O(M).
  void wake_idle_head(ext::worker_ref w, unsigned busy) {
    if (m_layout.sockets[busy]->pool.size_hint() < 1) return;
    const auto m = static_cast<std::uint32_t>(m_layout.sockets.size());
    const std::uint32_t start = w.random_below(m);
    for (std::uint32_t k = 0; k < m; ++k) {
      const std::uint32_t o = (start + k) % m;
      const ext::socket_group& g = *m_layout.sockets[o];
      if (o == busy || g.pool.size_hint() != 0 || m_upper[o]->size_hint() != 0 ||
          w.core().domain_active(o) != 0)
        continue;
      if (w.core().wake_worker(g.head)) {  // true only if it was parked
        m_head_wakes.fetch_add(1, std::memory_order_relaxed);
        return;
      }
    }
  }

  /// A root the runtime posted to this worker's place (the first place: runtime::run) whose
  /// data lies (mostly) in another socket's part goes to that socket's upper pool, which only
  /// its head takes from: true when it did. Else the root would run here and its chain of called
  /// halves, all the other socket's, would stay here, handing each spawn back to its owner: one
  /// hand-off per level per iteration (GE's late pivots, whose rows lie in the last part, paid
  /// them on every pivot; docs/design/0017, "Stranded frames"). A root that straddles parts
  /// (heat's, GE's early pivots) runs where it was posted, as before.
  bool rehome_root(ext::worker_ref w, const ext::work_item& it) {
    const ext::task_ref t = ext::task_ref::of_item(it.bits);
    if (!t.is_frame() || !t.is_root()) return false;
    const ext::declared_data d = ext::declared_data_of(t);
    // root_holds registers the iteration's root from this frame's data if none is yet.
    if (d.bytes == 0 || !root_holds(d)) return false;
    const owner o = owner_in_root(d.ranges.front());
    if (!o.mostly_whole || o.part == m_layout.socket_of[w.index()]) return false;
    // The pool's mutex orders the frame's writes before its taker's reads; the push wakes the
    // head when its socket is quiet, else its last active worker does (ext/pool.hpp).
    if (!m_upper[o.part]->push(it)) return false;
    m_rehomed.fetch_add(1, std::memory_order_relaxed);
    return true;
  }

  /// Whether a frame's data (the spawning frame's or its child's) is not this worker's
  /// socket's: it belongs to another socket, or it straddles two parts (`exact`: by one byte;
  /// else by more than owner::mostly_whole's quarter). A spawning frame that is off keeps the
  /// rule below the CF level, so its children go to their owners' pools (only its last called
  /// leaf runs here); a child leaves the rule only if its data lies wholly in this socket's
  /// part (exact: a subtree that leaves the rule never comes back to it, so a child that is
  /// only mostly inside, halo rows aside, may hold a straddling leaf).
  ///  * Another socket's: only a frame reached from the iteration's root by calls alone can
  ///    be: the root starts where the runtime posts it (the first place), and a called half
  ///    runs on its caller, while every frame the rule hands out goes to its owner (a shrinking
  ///    root, GE's, starts inside another socket's part: docs/design/0017).
  ///  * Straddling: the socket level is the shallowest depth where a task lies inside one part
  ///    (docs/design/0017, "Socket level"); where parts do not align with the tree (3 sockets
  ///    under a binary split) a CF root below it may still straddle, and only its children
  ///    along the part boundary, O(depth) per boundary, are handed to their owners.
  /// Asked at the spawns below the CF level that still reach the rule: those of a CF root's
  /// frame and its called halves (their children leave the rule), O(depth) per CF root.
  bool off_socket(const ext::declared_data& pd, ext::worker_ref w, bool exact) const {
    // Acquire: pairs with root_holds' release (the root is registered by then: a spawn above
    // the CF level did it, and this frame came from it through a pool or a deque).
    if (pd.bytes == 0 || !m_root_ready.load(std::memory_order_acquire) ||
        find_root(pd.ranges.front()) == nullptr)
      return false;
    const owner o = owner_in_root(pd.ranges.front());
    return !(exact ? o.whole : o.mostly_whole) || o.part != m_layout.socket_of[w.index()];
  }

  /// Where an item of spawn depth `level` that belongs to `socket` goes: from the second
  /// iteration, a task above the CF level (a CF root's ancestor or its continuation) goes to the
  /// socket's upper pool, which only its own head takes from; CF roots to its CF pool, which
  /// other sockets' heads may also take from. The first iteration has one pool per socket.
  ext::shared_pool* pool_for(stage st, unsigned socket, int level) noexcept {
    if (st == stage::packed && level < m_cf_depth) return m_upper[socket].get();
    return &m_layout.sockets[socket]->pool;
  }

  /// Binds every socket's two pools to its head's idle domain (once, before the first push).
  void bind_all(ext::core_ref core) {
    for (std::size_t i = 0; i < m_layout.sockets.size(); ++i) {
      const auto& s = m_layout.sockets[i];
      if (!s->pool.bound()) ext::bind_pool(core, s->head, s->pool);
      if (!m_upper[i]->bound()) ext::bind_pool(core, s->head, *m_upper[i]);
    }
  }

  void count_cf(const ext::work_item& it) noexcept {
    const ext::task_ref t = ext::task_ref::of_item(it.bits);
    if (t.is_frame() && static_cast<int>(t.level()) == m_cf_depth)
      m_cf_roots.fetch_add(1, std::memory_order_relaxed);
  }

  /// What the first iteration learns from one spawn (relaxed maxima, read between runs).
  void learn(int depth, std::size_t child_bytes, std::size_t parent_bytes, bool child_whole,
             const ext::declared_data& pd) noexcept {
    m_shape.tasks.fetch_add(1, std::memory_order_relaxed);
    raise_to(m_shape.leaf_depth, depth);
    if (child_bytes != 0 && child_bytes <= m_cache && (parent_bytes == 0 || parent_bytes > m_cache))
      raise_to(m_shape.cf_depth, depth);
    bool parent_whole = false;
    if (pd.bytes != 0) parent_whole = owner_in_root(pd.ranges.front()).mostly_whole;
    // The shallowest such depth: the deepest would be a leaf's wherever parts do not align
    // with the tree (3 sockets under a binary split), making every task above it a hand-off.
    if (child_whole && !parent_whole) lower_to(m_shape.socket_depth, depth);
    if (child_bytes > m_cache) m_shape.overflows.store(true, std::memory_order_relaxed);
  }

  /// Registers the iteration's root on first use; false (and an error recorded) if `d`'s
  /// first range is not inside it. Outside iterate(), data outside the root starts a new root.
  bool root_holds(const ext::declared_data& d) {
    if (!m_root_ready.load(std::memory_order_acquire)) {
      std::lock_guard lk(m_root_mutex);
      if (!m_root_ready.load(std::memory_order_relaxed)) {
        // The iteration's first data. Inside the previous iteration's root (and keep_parts):
        // keep that root, whose parts the first iteration homed (GE's shrinking rows).
        const bool inside =
            m_opt.keep_parts && !m_kept.empty() &&
            std::all_of(d.ranges.begin(), d.ranges.end(), [this](const data_range& r) {
              return std::any_of(m_kept.begin(), m_kept.end(), [&r](const data_range& k) {
                return r.begin >= k.begin && r.end() <= k.end();
              });
            });
        if (inside) {
          m_root = m_kept;
        } else {
          m_root.assign(d.ranges.begin(), d.ranges.end());
        }
        m_root_bytes = d.bytes;
        m_root_ready.store(true, std::memory_order_release);
      }
    }
    if (find_root(d.ranges.front()) != nullptr) return true;
    if (!m_in_iteration.load(std::memory_order_relaxed)) {
      std::lock_guard lk(m_root_mutex);  // between runs' roots: replace (no iterate() to tell)
      if (find_root(d.ranges.front()) == nullptr) {
        m_root_ready.store(false, std::memory_order_relaxed);
        m_root.assign(d.ranges.begin(), d.ranges.end());
        m_root_bytes = d.bytes;
        m_root_ready.store(true, std::memory_order_release);
      }
      return true;
    }
    std::lock_guard lk(m_root_mutex);
    if (m_error.empty())
      m_error = "laws: a task's range " + to_string(d.ranges.front()) +
                " is not inside the data of the iteration's root (" + to_string(m_root.front()) +
                (m_root.size() > 1 ? " and others" : "") +
                "); expected every task's data inside its root's (declare the whole data on "
                "the iteration's first task)";
    return false;
  }

  [[nodiscard]] const data_range* find_root(const data_range& r) const noexcept {
    for (const data_range& k : m_root)
      if (r.begin >= k.begin && r.end() <= k.end()) return &k;
    return nullptr;
  }

  [[nodiscard]] owner owner_in_root(const data_range& r) const {
    const data_range* k = find_root(r);
    if (k == nullptr) return {};
    return owner_of(*k, r, static_cast<unsigned>(m_layout.sockets.size()));
  }

  void set_gates(ext::core_ref core, bool gated);
  int cf_from_misses(int sock, int leaf);

  laws_options m_opt;
  std::atomic<bool> m_made{false};
  layout m_layout;
  /// Per socket: the tasks above its CF roots (packed stage), gated on its head like its CF
  /// pool (m_layout.sockets[i]->pool) but never taken across sockets. Outlive the runtime.
  std::vector<std::unique_ptr<ext::shared_pool>> m_upper;
  std::size_t m_cache = 0;
  std::once_flag m_bound;
  std::atomic<stage> m_stage{stage::first_touch};
  std::atomic<bool> m_in_iteration{false};
  int m_cf_depth = -1;  ///< written between runs only
  std::atomic<bool> m_root_ready{false};
  std::mutex m_root_mutex;
  std::vector<data_range> m_root;  ///< under m_root_mutex until m_root_ready (release)
  /// The previous iteration's root (between runs), whose parts an iteration inside it keeps.
  std::vector<data_range> m_kept;
  std::size_t m_root_bytes = 0;
  std::string m_error;  ///< the iteration's first error, under m_root_mutex
  tree_shape m_shape;
  std::atomic<std::uint64_t> m_cross{0}, m_cf_roots{0};
  std::atomic<std::uint64_t> m_rehomed{0};
  std::atomic<std::uint64_t> m_head_wakes{
      0};  ///< heads woken by wake_idle_head, all runs  ///< roots sent to their socket
           ///< (rehome_root), all runs
  /// Per worker: the first iteration's task footprints (footprint=misses), between its begin
  /// and end only.
  std::vector<std::vector<ext::task_footprint>> m_footprints;
  ext::workload m_workload = ext::workload::undecided;
  int m_initial_depth = -1;  ///< the CF depth before Algorithm 1 (S_alpha <= S_c)
  packing_search m_search;
};

void laws_impl::set_gates(ext::core_ref core, bool gated) {
  bind_all(core);
  for (std::size_t i = 0; i < m_layout.sockets.size(); ++i) {
    const auto& s = m_layout.sockets[i];
    const unsigned taker = gated ? s->head : ext::shared_pool::k_any_taker;
    ext::set_pool_taker(core, s->pool, taker);
    ext::set_pool_taker(core, *m_upper[i], taker);
  }
}

/// The CF depth from the first iteration's private misses (Eq. 2, pack_by_footprint). Spawn depths
/// and frame levels agree: a child's level is its parent's plus one, the root's 0.
int laws_impl::cf_from_misses(int sock, int leaf) {
  std::vector<ext::task_footprint> all;
  for (auto& v : m_footprints)
    all.insert(all.end(), v.begin(), v.end());
  m_footprints.clear();
  const footprint_packing p = pack_by_footprint(all, m_cache);
  if (p.cf_depth >= 0) return p.cf_depth;
  return p.all_fit ? sock : leaf;
}

void laws_impl::begin(ext::core_ref core, std::size_t index) {
  std::call_once(m_bound, [&] { bind_all(core); });
  {
    std::lock_guard lk(m_root_mutex);
    if (index == 0) {
      m_kept.clear();  // a new loop: its first iteration sets the parts
    } else if (!m_root.empty()) {
      m_kept = m_root;
    }
    m_root.clear();
    m_root_bytes = 0;
    m_error.clear();
    m_root_ready.store(false, std::memory_order_relaxed);
  }
  m_cross.store(0, std::memory_order_relaxed);
  m_cf_roots.store(0, std::memory_order_relaxed);
  stage st = stage::first_touch;
  if (index == 0 && m_opt.footprint == laws_footprint::misses) {
    accountant* acc = core.accounting();
    if (acc == nullptr || acc->private_bytes() == 0)
      throw config_error(
          "laws: footprint=misses needs locality accounting with a private cache level; "
          "expected config::accounting=true (LOCUS_ACCOUNTING=1) on a topology with an l2 "
          "size, or footprint=declared");
    m_footprints.assign(m_layout.socket_of.size(), {});
    acc->set_footprint_sink(this);  // until this iteration's end
  }
  if (index == 0) {
    m_shape.reset();
    m_workload = ext::workload::undecided;
    m_cf_depth = -1;
  } else if (m_workload == ext::workload::cpu_bound || m_layout.sockets.size() == 1) {
    // One socket with workers: no socket to allocate to, and the head's one-CF-subtree-at-a-
    // time gate would only serialise the top of the tree (measured on a 16-core, one-socket
    // machine: heat 4096x1024 1.4x slower than cilk before this rule). CAB's BL = 0 likewise.
    st = stage::plain;
  } else if (m_workload == ext::workload::memory_bound) {
    st = stage::packed;
    m_cf_depth = m_initial_depth + m_search.current();
  }
  set_gates(core, st == stage::packed);
  m_stage.store(st, std::memory_order_relaxed);  // published by run()'s submission
  m_in_iteration.store(true, std::memory_order_relaxed);
}

void laws_impl::end(ext::core_ref core, ext::iteration_record& r) {
  m_in_iteration.store(false, std::memory_order_relaxed);
  // The sink is the first iteration's only (begin installed it): later ones report nothing.
  if (accountant* acc = core.accounting(); acc != nullptr && acc->footprint_sink() == this)
    acc->set_footprint_sink(nullptr);
  const stage st = m_stage.load(std::memory_order_relaxed);
  r.scheduler = "laws";
  r.stage = st == stage::first_touch ? "first-touch"
            : st == stage::plain     ? "plain"
            : m_search.done()        ? "tuned"
                                     : "searching";
  r.cross_socket_takes = m_cross.load(std::memory_order_relaxed);
  r.cf_roots = m_cf_roots.load(std::memory_order_relaxed);
  r.cf_level = st == stage::packed ? m_cf_depth : -1;
  r.packing_offset = st == stage::packed ? m_search.current() : 0;
  {
    std::lock_guard lk(m_root_mutex);
    if (!m_error.empty()) {
      const std::string e = m_error;
      m_stage.store(stage::first_touch, std::memory_order_relaxed);
      throw std::invalid_argument(e);
    }
  }
  if (m_opt.cost == laws_cost::modelled_misses && !m_opt.cost_function && !r.accounting)
    throw config_error(
        "laws: cost=modelled_misses needs locality accounting; expected "
        "config::accounting=true (LOCUS_ACCOUNTING=1) or cost=wall_time");
  if (r.index == 0) {
    // Memory-bound or cpu-bound (ext::classify_workload), and the initial packing.
    m_workload =
        ext::classify_workload(m_root_bytes, m_shape.tasks.load(std::memory_order_relaxed));
    const int sock = std::max(m_shape.socket_depth.load(std::memory_order_relaxed), 1);
    const int leaf = std::max(m_shape.leaf_depth.load(std::memory_order_relaxed), sock);
    int cf = m_shape.cf_depth.load(std::memory_order_relaxed);
    // No subtree fits below one that does not: everything fits (the socket level's tasks are
    // the CF roots) or nothing does (the leaves are).
    if (cf < 0) cf = m_shape.overflows.load(std::memory_order_relaxed) ? leaf : sock;
    if (m_opt.footprint == laws_footprint::misses) cf = cf_from_misses(sock, leaf);
    m_initial_depth = std::clamp(cf, sock, leaf);
    // Algorithm 1 never climbs above the socket level nor below the leaves.
    m_search = m_opt.tune ? packing_search(sock - m_initial_depth, leaf - m_initial_depth)
                          : packing_search();
  } else if (st == stage::packed && !m_search.done()) {
    double cost = static_cast<double>(r.time_ns);
    if (m_opt.cost_function) {
      cost = m_opt.cost_function(r);
    } else if (m_opt.cost == laws_cost::modelled_misses) {
      cost = static_cast<double>(r.l3_misses);
    }
    m_search.record(cost);
  }
  r.workload = ext::to_string(m_workload);
}

}  // namespace
}  // namespace locus::laws

namespace locus {

std::shared_ptr<const ext::scheduler> make_laws_scheduler(laws_options o) {
  return ext::make_socket_scheduler("laws", std::make_shared<laws::laws_impl>(std::move(o)));
}

}  // namespace locus
