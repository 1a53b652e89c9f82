// CAB's spawn rule (bi-tier spawning) and acquisition (Algorithm I). See locus/cab.hpp for the
// rules and docs/design/0018-cab.md for the decisions; the decision itself is in decide.cpp.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <mutex>

#include "impl.hpp"
#include "locus/ext/core.hpp"
#include "locus/ext/data.hpp"
#include "locus/ext/pool.hpp"
#include "locus/laws.hpp"

namespace locus::cab {

namespace {
constexpr std::uint32_t k_builtin = ext::spawn_site::k_builtin;

/// The spawn and the spawning frame's later spawns take the inline path (one compare each).
void leave_rule(ext::spawn_site& s) noexcept {
  s.child_slot = k_builtin;
  s.parent_slot = k_builtin;
}
}  // namespace

std::string_view to_string(mode m) noexcept {
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

// --- (a, b) the spawn rule: bi-tier spawning -----------------------------------------------------

void cab_impl::place(ext::worker_ref w, ext::spawn_site& s) {
  s.work_first = true;
  const decision* d = m_now.load(std::memory_order_acquire);
  if (d->fixed) {
    leave_rule(s);  // one squad, bl=0 or manual: every spawn is intra-socket
    return;
  }
  const ext::declared_data cd = ext::declared_data_of(s.child);
  const ext::declared_data pd = ext::declared_data_of(s.parent);
  const ext::declared_data& data = pd.bytes != 0 ? pd : cd;
  if (!d->fixed && !m_iterating.load(std::memory_order_relaxed) && d->m != mode::undecided) {
    // Outside locus::iterate a decision describes the root it was made from: a run's first
    // spawn from its root, or data outside that root, decides anew (the same root keeps it).
    const bool new_run = s.spawn_index == 0 && s.parent.is_root();
    if ((data.bytes != 0 && !d->holds(data.ranges.front())) ||
        (new_run && data.bytes == 0 && !d->root.empty()))
      d = decide(d, s, cd, pd);
  }
  if (d->m == mode::undecided) {
    if (data.bytes == 0 && m_opt.boundary_level == cab_params::k_auto) {
      // No data here and BL is Eq. 4's: this subtree decides nothing and leaves the rule (as
      // LAWS does for runs without data); a later spawn with data may still decide.
      s.child_slot = k_builtin;
      return;
    }
    d = decide(d, s, cd, pd);
  }
  if (d->m != mode::tiered) {
    leave_rule(s);
    return;
  }
  const int depth = static_cast<int>(s.level) + 1;  // the child's
  const bool counting = m_counting.load(std::memory_order_relaxed);
  if (counting) m_tasks.fetch_add(1, std::memory_order_relaxed);
  if (depth > d->leaf_depth) {
    // Intra-socket: child-first on the own deque, stolen only within the squad. While the
    // first iteration counts tasks (classify_workload) every spawn stays in the rule.
    if (!counting) {
      s.child_slot = k_builtin;
      if (static_cast<int>(s.level) >= d->leaf_depth) s.parent_slot = k_builtin;
    }
    return;
  }
  // Inter-socket: parent-first into the inter-socket pool of the squad owning the child's data
  // (Eq. 1 over the root, laws::owner_of), the spawning squad's when it has none.
  m_inter.fetch_add(1, std::memory_order_relaxed);
  if (depth == d->leaf_depth) m_leaf.fetch_add(1, std::memory_order_relaxed);
  const unsigned here = m_layout.socket_of[w.index()];
  unsigned child_squad = here;
  unsigned rest_squad = here;
  if (cd.bytes != 0) {
    const data_range& pos = cd.ranges.front();
    child_squad = owner_in_root(*d, pos, here);
    // The parent's continuation covers what it has not handed out yet: its first range past
    // the child's (LAWS, docs/design/0017: called halves).
    if (pd.bytes != 0) {
      const data_range& pr = pd.ranges.front();
      if (pos.begin >= pr.begin && pos.end() < pr.end()) {
        const data_range rest{pos.end(), static_cast<std::size_t>(pr.end() - pos.end()), pr.mode};
        rest_squad = owner_in_root(*d, rest, here);
      }
    }
  }
  if (rest_squad == here || child_squad != here) {
    s.work_first = false;  // parent-first: the child to its squad's pool
    s.to_pool = &m_layout.sockets[child_squad]->pool;
  } else {
    // The child's data is here and the continuation's elsewhere (a called second half would
    // otherwise run here): run the child now; the continuation goes to its squad's pool.
    s.to_pool = &m_layout.sockets[rest_squad]->pool;
  }
}

unsigned cab_impl::owner_in_root(const decision& d, const data_range& r, unsigned fallback) const {
  // The root range r overlaps most, and r clipped to it: a stencil's halo rows reach past what
  // the root declared of that grid when the grids swap roles between iterations (heat's root
  // reads `from` rows 0..nx-1 but writes `to` rows 1..nx-2; under locus::iterate the decision
  // of the first step is kept, so in odd steps the first half's read range, `from` = b from row
  // 0, starts one row before the root's b range). Containment alone sent that half to the
  // spawning squad in every odd step: two quarters on one squad, 74.7% local instead of 99.7%
  // (heat 1024x1024 at BL 3, docs/benchmarks-cab.md).
  const data_range* best = nullptr;
  std::size_t best_bytes = 0;
  for (const data_range& k : d.root) {
    const std::byte* lo = std::max(r.begin, k.begin);
    const std::byte* hi = std::min(r.end(), k.end());
    const std::size_t overlap = lo < hi ? static_cast<std::size_t>(hi - lo) : 0;
    if (overlap > best_bytes) {
      best = &k;
      best_bytes = overlap;
    }
  }
  if (best == nullptr) return fallback;
  const data_range clipped{std::max(r.begin, best->begin), best_bytes, r.mode};
  return laws::owner_of(*best, clipped, squads()).part;
}

// --- (c) the acquisition: Algorithm I ------------------------------------------------------------

bool cab_impl::acquire(ext::worker_ref w, ext::work_item& out) {
  // Bound and gated before any task runs: the root itself is taken through this call, and
  // call_once makes every other caller wait, so no push precedes the gate.
  std::call_once(m_bound, [&] {
    for (const auto& s : m_layout.sockets) {
      ext::bind_pool(w.core(), s->head, s->pool);
      ext::set_pool_taker(w.core(), s->pool, s->head);
    }
  });
  const mode m = m_now.load(std::memory_order_acquire)->m;
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
  // squad runs a task (domain_active, a racy hint; a worker suspended at a sync does not run,
  // so a head whose inter-socket task waits for children in the pools is free to take them:
  // no livelock). The gate wakes the head when the squad's last runner stops.
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
bool cab_impl::may_sleep(ext::worker_ref w) noexcept {
  if (m_now.load(std::memory_order_acquire)->m != mode::tiered) return true;
  const unsigned here = m_layout.socket_of[w.index()];
  if (w.index() != m_layout.sockets[here]->head) return true;
  for (std::size_t o = 0; o < m_layout.sockets.size(); ++o)
    if (o != here && m_layout.sockets[o]->pool.size_hint() >= 2) return false;
  return true;
}

/// BL = 0 (and before any decision): Cilk's random stealing over every worker, then the own
/// place's mailbox and the own squad's pool (a worker that read `undecided` just before the
/// run's first spawn decided may find the tier's first task there; a decision replaced
/// between runs may leave one: counted as the head's takes are).
///
/// The first spawn's window. This worker read `undecided` (or plain) when its look began; the
/// run's first spawn with data may decide a tier meanwhile and its squad's workers push
/// intra-socket work, which a steal from another squad's worker must not carry off. No lock
/// is needed to tell: a push of intra-socket work happens after its worker read (or, for the
/// deciding spawn, published) the tiered decision, and the steal that takes the item
/// synchronises with the push (the deque's release/acquire), so the decision read again
/// (acquire) after the steal is that one or a later one. Read plain or undecided, the item was
/// pushed before any tier and goes anywhere; read tiered or manual with the victim in another
/// squad, the item may be intra-socket work of the victim's squad, and it is posted to that
/// squad's place (its mailbox, served by its workers only, as frames sent home are): one
/// acquire load per successful steal, nothing on the spawn path.
bool cab_impl::plain(ext::worker_ref w, ext::work_item& out) {
  const unsigned n = w.num_workers();
  const unsigned here = m_layout.socket_of[w.index()];
  for (unsigned k = 0; k + 1 < n; ++k) {
    unsigned v = w.random_below(n - 1);
    if (v >= w.index()) ++v;
    if (!w.steal_from(v, out)) continue;
    const unsigned theirs = m_layout.socket_of[v];
    if (theirs == here) return true;
    const mode now = m_now.load(std::memory_order_acquire)->m;
    if (now != mode::tiered && now != mode::manual) return true;
    w.core().post(w.core().place_of(head_of(theirs)), out.bits);
    m_sent_home.fetch_add(1, std::memory_order_relaxed);
    return false;  // look again from the top, under the decision now in force
  }
  if (w.take_mail(w.place(), out)) return true;
  if (!w.take_from(m_layout.sockets[m_layout.socket_of[w.index()]]->pool, out)) return false;
  m_pool_takes.fetch_add(1, std::memory_order_relaxed);
  return true;
}

}  // namespace locus::cab
