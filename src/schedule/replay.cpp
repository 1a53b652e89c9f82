// Constrained work stealing: traced, replayed and designed phases, and the replay strategies
// (locus/schedule/replay.hpp; docs/design/0008-steal-trees.md, "Recording" and "Replay").
//
// The pieces and who touches what:
//  * a phase (detail::phase) arms the replay scheduler with a plan before it publishes the
//    root and disarms it after the root's completion was signalled; one phase at a time;
//  * the plan is immutable once published (the template, its child index, the StOWS slot
//    positions) except for its atomics (slots, counters) and per-worker fields that only their
//    worker writes (cursors, designations, patience);
//  * a donor writes the donated frame's slot (spawn_custom, before the donation), then
//    publishes the item with a release store (a StOWS slot) or under the buffer's mutex; the
//    receiver's acquire load (or the mutex) makes the frame's state visible before it runs it,
//    exactly as a deque steal does;
//  * workers never sleep while a plan is armed (may_sleep), and every donation wakes the
//    sleepers that were already asleep when it was armed, so a donation cannot wait on a
//    sleeping receiver.
#include "locus/schedule/replay.hpp"

#include <algorithm>
#include <chrono>
#include <deque>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

#include "../runtime_state.hpp"

namespace locus::schedule {

using locus::detail::frame;
using locus::detail::k_cache_line;
using locus::detail::runtime_state;

std::string_view to_string(replay_mode m) noexcept {
  switch (m) {
    case replay_mode::stows:
      return "stows";
    case replay_mode::stuws:
      return "stuws";
    case replay_mode::relws:
      return "relws";
  }
  return "?";
}

namespace {

/// A StOWS slot: the paper's seqs[w][i]. 0 empty; k_claimed while a donor fills it; k_taken
/// once its worker took it (or skipped it: a continuation the template gives the worker that
/// already runs it); otherwise the item.
constexpr std::uint64_t k_claimed = 1;
constexpr std::uint64_t k_taken = ~std::uint64_t{0};

struct slot {
  std::atomic<std::uint64_t> state{0};
  unsigned from = 0;  ///< the donor; written after the claim, before the release store
};

/// One child in the template's child index, sorted by (level, spawn index) under its parent.
struct child_key {
  std::uint32_t level;
  std::uint32_t spawn_index;
  node_id node;
};

/// What only worker w writes (its cursor, designation, patience), on its own cache line.
struct alignas(k_cache_line) worker_plan {
  std::uint32_t cursor = 0;                        ///< stows: the next slot of this worker's order
  std::uint32_t fails = 0;                         ///< stows: looks that found the next slot empty
  unsigned designation = ext::spawn_site::k_keep;  ///< designate_after_next_spawn
  std::int64_t quiet_since = -1;  ///< stows: since when no worker was seen running (us)
};

/// How many empty looks a StOWS worker makes before it considers the next slot unreachable
/// (and only then if no worker runs anything).
constexpr std::uint32_t k_patience = 64;
/// ... and for how long no worker may have been seen running (microseconds).
constexpr std::int64_t k_quiet_us = 2000;

}  // namespace

/// One armed phase's plan.
struct plan {
  replay_mode mode = replay_mode::stows;
  bool designed = false;  ///< no template: designations lead (slots hold head levels)
  std::optional<steal_tree> tree;
  std::vector<std::uint32_t> child_begin;  ///< per node, its range in `children`
  std::vector<child_key> children;
  std::vector<std::uint32_t> position;         ///< stows: per node, its slot index
  std::vector<std::unique_ptr<slot[]>> slots;  ///< stows: per worker
  std::vector<std::uint32_t> slot_count;       ///< stows: per worker
  std::vector<worker_plan> workers;
  std::atomic<std::uint64_t> donations{0}, kept_full{0}, out_of_order{0}, reached{0},
      random_steals{0};

  [[nodiscard]] node_id find(node_id n, std::uint32_t level, std::uint32_t spawn_index) const {
    const auto first = children.begin() + child_begin[n];
    const auto last = children.begin() + child_begin[n + 1];
    const auto it =
        std::lower_bound(first, last, std::pair{level, spawn_index},
                         [](const child_key& c, const std::pair<std::uint32_t, std::uint32_t>& k) {
                           return std::pair{c.level, c.spawn_index} < k;
                         });
    if (it != last && it->level == level && it->spawn_index == spawn_index) return it->node;
    return k_no_node;
  }
  /// Whether node n has a help-first steal (kind child) at `level`.
  [[nodiscard]] bool has_child_steal_at(node_id n, std::uint32_t level) const {
    const auto last = children.begin() + child_begin[n + 1];
    auto it = std::lower_bound(children.begin() + child_begin[n], last, level,
                               [](const child_key& c, std::uint32_t l) { return c.level < l; });
    for (; it != last && it->level == level; ++it)
      if (tree->node(it->node).kind == steal_kind::child) return true;
    return false;
  }
};

/// A worker's donation buffer (stuws, relws, designed phases): bounded, under a mutex (the
/// paper's), `size` for a look without the lock.
struct alignas(k_cache_line) donation_buffer {
  std::mutex mutex;
  std::deque<ext::work_item> items;
  std::atomic<std::size_t> size{0};
};

/// What plan a worker's acquire() call works with (see replay_scheduler::acquire and the arm
/// in phase::publish).
struct worker_view {
  std::atomic<bool> busy{false};
  std::atomic<const plan*> view{nullptr};
};

struct replay_scheduler::state {
  replay_options options;
  /// Per worker index (any runtime size up to the steal tree's maximum), from construction:
  /// workers call acquire() before any arm.
  std::unique_ptr<worker_view[]> views{new worker_view[k_max_steal_tree_workers]};
  /// The armed plan, or null between phases. Release on arm, acquire on every read: the
  /// plan's contents are visible to whoever sees the pointer.
  std::atomic<plan*> armed{nullptr};
  /// Every plan ever armed. A worker may still be inside acquire() with a plan it loaded just
  /// before the disarm; plans live as long as the scheduler (a few bytes per template node).
  std::vector<std::unique_ptr<plan>> plans;
  /// Per worker; allocated by the first arm (before any plan is visible), never resized.
  std::unique_ptr<donation_buffer[]> buffers;
  unsigned buffer_workers = 0;
  replay_report last;  ///< the report of the last disarmed plan
};

replay_scheduler::replay_scheduler(replay_options options) : m_state(std::make_unique<state>()) {
  if (options.buffer_capacity == 0)
    throw std::invalid_argument("replay_options::buffer_capacity=0 is not valid; expected >= 1");
  m_state->options = options;
}

replay_scheduler::~replay_scheduler() = default;

std::shared_ptr<const ext::scheduler> replay_scheduler::scheduler() {
  auto self = shared_from_this();
  auto s = std::make_shared<ext::scheduler>();
  s->name = "replay";
  s->acquire = self;
  s->spawn = self;
  return s;
}

std::shared_ptr<replay_scheduler> make_replay_scheduler(replay_options options) {
  return std::make_shared<replay_scheduler>(options);
}

replay_report replay_scheduler::report() const {
  return m_state->last;
}

namespace {

/// Cilk's look: as many uniform random victims as there are other workers, then the mailbox.
bool random_look(ext::worker_ref& w, ext::work_item& out) {
  const unsigned n = w.num_workers();
  for (unsigned k = 0; k + 1 < n; ++k) {
    unsigned v = w.random_below(n - 1);
    if (v >= w.index()) ++v;
    if (w.steal_from(v, out)) return true;
  }
  return false;
}

bool take_buffer(donation_buffer& b, ext::work_item& out) {
  if (b.size.load(std::memory_order_relaxed) == 0) return false;
  std::lock_guard lk(b.mutex);
  if (b.items.empty()) return false;
  out = b.items.front();  // oldest first: the order donations arrived in
  b.items.pop_front();
  b.size.store(b.items.size(), std::memory_order_relaxed);
  return true;
}

}  // namespace

bool replay_scheduler::acquire(ext::worker_ref w, ext::work_item& out) {
  // A look must not act on a plan older than the one armed when the phase's work appeared (a
  // look that began unarmed and steals at random after the arm would break a strict replay:
  // seen under load, a worker preempted inside the look). So a look announces itself (busy),
  // then reads the plan, both seq_cst; the arm stores the plan, seq_cst, then waits until every
  // worker is either not looking or looking with the new plan, and only then hands over the
  // root. By the total order of seq_cst operations, a look that read the old plan had set busy
  // before the arm's store, so the arm sees it busy and waits for it to end.
  worker_view& v = m_state->views[w.index()];
  v.busy.store(true, std::memory_order_seq_cst);
  plan* p = m_state->armed.load(std::memory_order_seq_cst);
  v.view.store(p, std::memory_order_seq_cst);
  // Between phases this worker spawns with Cilk's inline work-first rule, not through place():
  // it runs a phase's work only after a look that saw the phase's plan, which switches it back.
  w.use_custom_spawn_rule(p != nullptr);
  const bool got = look(w, p, out);
  v.busy.store(false, std::memory_order_release);
  return got;
}

bool replay_scheduler::look(ext::worker_ref& w, plan* p, ext::work_item& out) {
  state& st = *m_state;
  if (p == nullptr) {
    // Between phases: Cilk's random stealing.
    if (random_look(w, out)) return true;
    return w.take_mail(w.place(), out);
  }
  const unsigned me = w.index();
  if (p->mode == replay_mode::stows && !p->designed) {
    worker_plan& wp = p->workers[me];
    slot* s = p->slots[me].get();
    const std::uint32_t n = p->slot_count[me];
    // Only this worker marks its slots taken, so a relaxed read suffices to skip them.
    while (wp.cursor < n && s[wp.cursor].state.load(std::memory_order_relaxed) == k_taken)
      ++wp.cursor;
    if (wp.cursor < n) {
      // Acquire: pairs with the donor's release store; the frame's state comes with it.
      const std::uint64_t v = s[wp.cursor].state.load(std::memory_order_acquire);
      if (v != 0 && v != k_claimed) {
        s[wp.cursor].state.store(k_taken, std::memory_order_relaxed);
        out = {static_cast<std::uintptr_t>(v), s[wp.cursor].from};
        ++wp.cursor;
        wp.fails = 0;
        wp.quiet_since = -1;
        return true;
      }
    }
    if (w.take_mail(w.place(), out)) return true;  // remote spawns: placements, not steals
    // Rule 4.2: the next slot may belong to a steal point this computation never reaches.
    // Nothing running anywhere means nothing can fill it any more: take a later ready slot
    // (never dropping the skipped one, which is still taken if it ever fills). A worker that
    // has just taken an item counts as idle until it turns active, and may be preempted in
    // between, so the runtime must look quiet for k_quiet_us on every look of this worker;
    // if it fires early all the same, the order differs, the mapping does not.
    if (++wp.fails < k_patience) return false;
    if (w.active_workers() != 0) {
      wp.quiet_since = -1;
      return false;
    }
    const std::int64_t now = std::chrono::duration_cast<std::chrono::microseconds>(
                                 std::chrono::steady_clock::now().time_since_epoch())
                                 .count();
    if (wp.quiet_since < 0) wp.quiet_since = now;
    if (now - wp.quiet_since >= k_quiet_us) {
      for (std::uint32_t j = wp.cursor; j < n; ++j) {
        const std::uint64_t v = s[j].state.load(std::memory_order_acquire);
        if (v == 0 || v == k_claimed || v == k_taken) continue;
        s[j].state.store(k_taken, std::memory_order_relaxed);
        out = {static_cast<std::uintptr_t>(v), s[j].from};
        p->out_of_order.fetch_add(1, std::memory_order_relaxed);
        wp.fails = 0;
        wp.quiet_since = -1;
        return true;
      }
    }
    return false;
  }
  // stuws, relws, designed: the donation buffer, in any order; then the mailbox.
  if (take_buffer(st.buffers[me], out)) return true;
  if (w.take_mail(w.place(), out)) return true;
  if (p->mode != replay_mode::relws) return false;
  if (!random_look(w, out)) return false;
  p->random_steals.fetch_add(1, std::memory_order_relaxed);
  if (p->designed) {
    // A stolen frame heads the thief's phase: it may designate (the validity rule).
    frame* f = locus::detail::item_frame(out.bits);
    f->m_schedule =
        locus::detail::make_schedule(locus::detail::schedule_phase(f->m_schedule), f->m_level);
  }
  return true;
}

bool replay_scheduler::may_sleep(ext::worker_ref /*w*/) noexcept {
  // While a plan is armed, work may be donated to any worker at any time: stay awake.
  return m_state->armed.load(std::memory_order_acquire) == nullptr;
}

bool replay_scheduler::work_first(ext::worker_ref /*w*/, std::uint32_t /*level*/,
                                  std::uint32_t /*spawn_index*/) {
  return true;  // Cilk's rule; place() refines it under a plan
}

void replay_scheduler::place(ext::worker_ref w, ext::spawn_site& s) {
  s.work_first = true;
  plan* p = m_state->armed.load(std::memory_order_acquire);
  if (p == nullptr) return;
  const unsigned me = w.index();
  if (p->designed) {
    worker_plan& wp = p->workers[me];
    if (wp.designation == ext::spawn_site::k_keep) return;
    const unsigned to = std::exchange(wp.designation, ext::spawn_site::k_keep);
    // The spawning frame heads its phase (designate checked it); the child the victim runs
    // now heads the victim's: both may designate (Cilk: thief and victim get new closures).
    s.parent_slot = s.level;
    s.child_slot = s.level + 1;
    s.donate_to = to;
    return;
  }
  const steal_tree& t = *p->tree;
  const node_id n = s.parent_slot;
  if (n >= t.size()) return;  // outside the template: Cilk's rule
  const node_id m = p->find(n, s.level, s.spawn_index);
  if (m == k_no_node) {
    // No steal at this spawn. Within a phase, steals are taken oldest first, so a steal below
    // a frame at level L + 1 happened only in the child spawned where the level-L frame's
    // continuation was stolen (the phase's path), or, help-first, in a child that was left
    // to the victim. A child spawned anywhere else ran without a steal below it: it leaves
    // the template (slot k_no_node), so a later sibling at its level, on the path, is the only
    // one that meets the deeper steal points (Rule 4.1: deeper work follows its deepest
    // templated ancestor, which had no steal there). Called frames (co_await task) stay with
    // their caller's node: their steal points are the caller's, one level down.
    if (!p->has_child_steal_at(n, s.level)) s.child_slot = k_no_node;
    return;
  }
  p->reached.fetch_add(1, std::memory_order_relaxed);
  const steal_node& node = t.node(m);
  if (node.kind == steal_kind::child) {
    s.work_first = false;  // the template stole the child itself (help-first)
    s.child_slot = m;
  } else {
    s.parent_slot = m;  // the continuation runs under m; the child stays under n
  }
  if (node.worker == me) {
    // The template gives it to the worker that already runs it: keep it; StOWS skips its slot.
    if (p->mode == replay_mode::stows) {
      std::uint64_t expected = 0;
      p->slots[me][p->position[m]].state.compare_exchange_strong(expected, k_taken,
                                                                 std::memory_order_relaxed);
    }
    return;
  }
  s.donate_to = node.worker;
}

bool replay_scheduler::donate(ext::worker_ref w, unsigned to, ext::work_item item) {
  state& st = *m_state;
  plan* p = st.armed.load(std::memory_order_acquire);
  if (p == nullptr || to >= w.num_workers()) return false;
  if (p->mode == replay_mode::stows && !p->designed) {
    // The donated frame's slot names its template node (place() set it, spawn_custom wrote
    // it before calling us; we still own the frame).
    const frame* f = locus::detail::item_frame(item.bits);
    const node_id m = locus::detail::schedule_slot(f->m_schedule);
    slot& s = p->slots[to][p->position[m]];
    std::uint64_t expected = 0;
    // A slot is filled once. A computation that reaches the same steal point twice (possible
    // only when it does not match its template) keeps the second one locally.
    if (!s.state.compare_exchange_strong(expected, k_claimed, std::memory_order_relaxed)) {
      return false;
    }
    s.from = item.from;
    // Release: the frame's state (its slot, its expected count) before the receiver runs it.
    s.state.store(item.bits, std::memory_order_release);
  } else {
    donation_buffer& b = st.buffers[to];
    std::lock_guard lk(b.mutex);
    if (b.items.size() >= st.options.buffer_capacity) {
      p->kept_full.fetch_add(1, std::memory_order_relaxed);
      return false;
    }
    b.items.push_back(item);
    b.size.store(b.items.size(), std::memory_order_relaxed);
  }
  p->donations.fetch_add(1, std::memory_order_relaxed);
  w.wake_sleepers();
  return true;
}

namespace detail {

replay_scheduler& replayer_of(runtime& rt, const char* what) {
  const auto& custom = rt.cfg().custom_scheduler;
  auto* r = custom != nullptr ? dynamic_cast<replay_scheduler*>(custom->spawn.get()) : nullptr;
  if (r == nullptr)
    throw std::logic_error(std::string("locus::schedule::") + what +
                           ": the runtime's scheduler is \"" + std::string(rt.scheduler_name()) +
                           "\"; replay needs config::custom_scheduler = "
                           "locus::schedule::make_replay_scheduler()->scheduler()");
  return *r;
}

phase::phase(runtime& rt, bool trace, replay_scheduler* replayer, const steal_tree* tmpl,
             replay_mode mode)
    : m_rt(&rt), m_trace(trace), m_replayer(replayer), m_tmpl(tmpl), m_mode(mode) {
  if (replayer != nullptr && tmpl == nullptr && mode == replay_mode::stows)
    throw std::invalid_argument(
        "locus::schedule::run_designed: mode stows needs the order of a template; a designed "
        "schedule runs under stuws or relws");
}

phase::~phase() = default;

namespace {

/// The plan for replaying `tmpl` (validated, remapped to `workers`) under `mode`.
std::unique_ptr<plan> make_plan(const steal_tree* tmpl, replay_mode mode, unsigned workers) {
  auto p = std::make_unique<plan>();
  p->mode = mode;
  p->workers = std::vector<worker_plan>(workers);
  if (tmpl == nullptr) {
    p->designed = true;
    return p;
  }
  // steal_tree_error: an invalid template is refused before anything runs. Traces of
  // programs that call (co_await task) break the paper's validity rule legitimately.
  tmpl->validate(validity_rule::with_calls);
  p->tree.emplace(*tmpl);
  if (p->tree->worker_count() != workers) p->tree->remap_workers(workers);
  const steal_tree& t = *p->tree;
  const std::size_t n = t.size();
  // Child index: per parent, its children sorted by (level, spawn index). Counting sort by
  // parent (parents precede children, but any order works), then a sort per range.
  p->child_begin.assign(n + 1, 0);
  for (node_id i = 1; i < n; ++i)
    ++p->child_begin[t.node(i).parent + 1];
  for (std::size_t i = 0; i < n; ++i)
    p->child_begin[i + 1] += p->child_begin[i];
  p->children.resize(n > 0 ? n - 1 : 0);
  std::vector<std::uint32_t> fill(p->child_begin.begin(), p->child_begin.end() - 1);
  for (node_id i = 1; i < n; ++i) {
    const steal_node& c = t.node(i);
    p->children[fill[c.parent]++] = {c.level, c.spawn_index, i};
  }
  for (std::size_t i = 0; i < n; ++i) {
    std::sort(p->children.begin() + p->child_begin[i], p->children.begin() + p->child_begin[i + 1],
              [](const child_key& a, const child_key& b) {
                return std::pair{a.level, a.spawn_index} < std::pair{b.level, b.spawn_index};
              });
  }
  if (mode == replay_mode::stows) {
    p->position = t.order_positions();
    const auto orders = t.worker_orders();
    for (unsigned w = 0; w < workers; ++w) {
      const std::size_t k = w < orders.size() ? orders[w].size() : 0;
      p->slots.push_back(std::make_unique<slot[]>(k));
      p->slot_count.push_back(static_cast<std::uint32_t>(k));
    }
  }
  return p;
}

}  // namespace

void phase::start(runtime_state& rt, frame& root, std::uint32_t place) {
  if (rt.phase_running.exchange(true, std::memory_order_acq_rel))
    throw std::logic_error(
        "locus::schedule: a traced or replayed phase is already running on this runtime; one "
        "at a time");
  m_state = &rt;
  try {
    publish(rt, root, place);
  } catch (...) {
    // Nothing was published (every step that can throw comes before the root's hand-over),
    // so no worker runs anything of this phase: undo the arm and let run() rethrow.
    rt.tracing.store(false, std::memory_order_relaxed);
    if (m_replayer != nullptr)
      m_replayer->internals().armed.store(nullptr, std::memory_order_release);
    rt.phase_running.store(false, std::memory_order_release);
    throw;
  }
  m_started = true;
}

void phase::publish(runtime_state& rt, frame& root, std::uint32_t place) {
  const auto n = static_cast<unsigned>(rt.workers.size());
  if (m_replayer != nullptr && m_replayer->internals().buffers != nullptr &&
      m_replayer->internals().buffer_workers != n)
    throw std::logic_error("locus::schedule: this replay_scheduler already serves a runtime of " +
                           std::to_string(m_replayer->internals().buffer_workers) +
                           " workers; make one replay scheduler per runtime");
  std::unique_ptr<plan> fresh;
  if (m_replayer != nullptr) fresh = make_plan(m_tmpl, m_mode, n);
  if (m_trace) {
    // No traced work exists yet and none of the previous phase is left (its run returned),
    // so no worker writes the logs now; the root's publication below orders these writes
    // before every record of this phase.
    for (auto& t : rt.traces) {
      t.log.clear();
      t.next_seq = 0;
      t.overflow = false;
    }
    rt.traced_root = {};
    rt.tracing.store(true, std::memory_order_relaxed);
  }
  if (m_replayer == nullptr) {
    locus::detail::post_to_place(rt, place, locus::detail::fresh_item(&root));
    return;
  }
  replay_scheduler::state& st = m_replayer->internals();
  if (st.buffers == nullptr) {
    // First arm: no plan was ever visible, so no worker touches the buffers yet.
    st.buffers = std::make_unique<donation_buffer[]>(n);
    st.buffer_workers = n;
  }
  plan* p = fresh.get();
  st.plans.push_back(std::move(fresh));
  // The root goes to the template's root worker, as the first donation (the paper's); a
  // designed phase starts on worker 0.
  const ext::work_item item{locus::detail::fresh_item(&root), ext::work_item::k_from_mailbox};
  const unsigned to = p->designed ? 0 : p->tree->root().worker;
  // The arm (see replay_scheduler::acquire): the plan, seq_cst; then wait out every look that
  // may have read an older plan; only then the root. A look never blocks, so this ends.
  st.armed.store(p, std::memory_order_seq_cst);
  for (unsigned i = 0; i < n; ++i) {
    const worker_view& v = st.views[i];
    while (v.busy.load(std::memory_order_seq_cst) && v.view.load(std::memory_order_seq_cst) != p)
      std::this_thread::yield();
  }
  if (p->mode == replay_mode::stows && !p->designed) {
    slot& s = p->slots[to][p->position[0]];
    s.from = item.from;
    s.state.store(item.bits, std::memory_order_release);  // the owner's acquire load pairs
  } else {
    donation_buffer& b = st.buffers[to];
    std::lock_guard lk(b.mutex);
    b.items.push_back(item);  // if this throws, start() disarms; nothing was handed over
    b.size.store(b.items.size(), std::memory_order_relaxed);
  }
  // Workers asleep since before the arm: wake them all; none sleeps again while armed.
  ext::worker_ref(*rt.workers[0], rt).wake_sleepers();
}

void phase::finish(runtime_state& rt) noexcept {
  if (!m_started) return;
  rt.tracing.store(false, std::memory_order_relaxed);
  if (m_replayer != nullptr) {
    replay_scheduler::state& st = m_replayer->internals();
    plan* p = st.armed.exchange(nullptr, std::memory_order_acq_rel);
    if (p != nullptr) {
      replay_report r;
      r.donations = p->donations.load(std::memory_order_relaxed);
      r.kept_full = p->kept_full.load(std::memory_order_relaxed);
      r.out_of_order = p->out_of_order.load(std::memory_order_relaxed);
      r.reached_nodes = p->reached.load(std::memory_order_relaxed);
      r.random_steals = p->random_steals.load(std::memory_order_relaxed);
      r.template_nodes = p->tree ? p->tree->size() : 0;
      st.last = r;
    }
  }
  rt.phase_running.store(false, std::memory_order_release);
}

namespace {

/// `t` without node `drop` and everything below it (drop > 0). Parents precede children, so
/// one pass in index order keeps the order and the links.
steal_tree without_subtree(const steal_tree& t, node_id drop) {
  const steal_node& r = t.root();
  steal_tree out(t.worker_count(), r.worker, r.seq, r.level, t.topology());
  std::vector<node_id> to_new(t.size(), k_no_node);
  to_new[0] = 0;
  for (node_id i = 1; i < t.size(); ++i) {
    const steal_node& n = t.node(i);
    if (i == drop || to_new[n.parent] == k_no_node) continue;
    to_new[i] = out.add_steal(to_new[n.parent], n.level, n.spawn_index, n.worker, n.seq, n.kind);
  }
  return out;
}

/// A traced tree that validate(with_calls) accepts. A trace of a random-stealing phase always
/// is one. A trace of a replayed phase need not be: a donation takes the newest continuation,
/// not the oldest, so a frame left behind on the donor's deque can later have a continuation
/// stolen at the same (level, spawn index) as one donated before, under the same phase. The
/// later steal (and what was stolen below it) is dropped: in a replay of the tree it runs
/// where its frame runs. Each round drops one subtree, so this ends.
steal_tree valid_trace(steal_tree t) {
  for (;;) {
    try {
      t.validate(validity_rule::with_calls);
      return t;
    } catch (const steal_tree_error& e) {
      if (e.node() == 0 || e.node() >= t.size()) throw;
      t = without_subtree(t, e.node());
    }
  }
}

}  // namespace

steal_tree phase::take_tree() {
  if (m_state == nullptr || !m_trace)
    throw std::logic_error("locus::schedule: no traced phase ran to take a steal tree from");
  runtime_state& rt = *m_state;
  const auto n = static_cast<unsigned>(rt.workers.size());
  std::vector<steal_log> logs(n);
  for (unsigned w = 0; w < n; ++w) {
    if (rt.traces[w].overflow)
      throw std::runtime_error("locus::schedule: the phase's steal tree is incomplete: worker " +
                               std::to_string(w) +
                               " could not record a steal (phase ids or memory exhausted)");
    logs[w] = rt.traces[w].log;
  }
  const locus::detail::trace_root root = rt.traced_root;
  if (!root.seen)
    throw std::runtime_error("locus::schedule: the traced phase's root was never picked up");
  return valid_trace(assemble(n, root.worker, root.seq, 0, logs, m_rt->cfg().topology));
}

bool steals_possible_below(const frame& f) noexcept {
  locus::detail::worker* w = locus::detail::t_worker;
  if (w == nullptr) return true;
  runtime_state& rt = w->rt();
  auto* r = rt.spawn != nullptr ? dynamic_cast<replay_scheduler*>(rt.spawn.get()) : nullptr;
  const plan* p = r != nullptr ? r->internals().armed.load(std::memory_order_acquire) : nullptr;
  if (p == nullptr || p->designed || p->mode == replay_mode::relws) return true;
  const node_id n = locus::detail::schedule_slot(f.m_schedule);
  if (n >= p->tree->size()) return false;  // off the template: strict modes never steal
  // A steal point of n still ahead: at this frame's level after its spawns so far, or deeper
  // (the path below it; conservatively also a sibling's).
  const auto first = p->children.begin() + p->child_begin[n];
  const auto last = p->children.begin() + p->child_begin[n + 1];
  for (auto it = first; it != last; ++it) {
    if (it->level > f.m_level) return true;
    if (it->level == f.m_level && it->spawn_index >= f.m_next_spawn) return true;
  }
  return false;
}

void designate(frame& f, unsigned worker) {
  locus::detail::worker* w = locus::detail::t_worker;
  if (w == nullptr) locus::detail::throw_not_on_worker("designate_after_next_spawn");
  runtime_state& rt = w->rt();
  auto* r = rt.spawn != nullptr ? dynamic_cast<replay_scheduler*>(rt.spawn.get()) : nullptr;
  plan* p = r != nullptr ? r->internals().armed.load(std::memory_order_acquire) : nullptr;
  if (p == nullptr || !p->designed)
    throw std::logic_error(
        "locus::schedule::designate_after_next_spawn: valid only in a designed phase "
        "(locus::schedule::run_designed on a runtime with the replay scheduler)");
  if (worker >= rt.workers.size())
    throw std::out_of_range("locus::schedule::designate_after_next_spawn(" +
                            std::to_string(worker) + "): expected a worker below " +
                            std::to_string(rt.workers.size()));
  const std::uint32_t head = locus::detail::schedule_slot(f.m_schedule);
  if (head != f.m_level)
    throw std::logic_error(
        "locus::schedule::designate_after_next_spawn: the frame at level " +
        std::to_string(f.m_level) +
        " does not head its phase (its parent's continuation was not designated at its "
        "spawn): a designated continuation's parent must itself have a stolen continuation");
  p->workers[w->index()].designation = worker;
}

}  // namespace detail
}  // namespace locus::schedule
