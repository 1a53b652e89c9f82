// Traced, replayed and designed phases (locus/schedule/replay.hpp, detail::phase): the plan a
// phase arms, the root it publishes, the trace it takes back; designations and the coarsening
// query. The strategies these phases arm are in replay.cpp (its header comment has the
// protocol).
#include <algorithm>
#include <chrono>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>

#include "locus/ext/pool.hpp"
#include "recorder.hpp"
#include "replay_state.hpp"

namespace locus::schedule {

using locus::detail::frame;

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

void phase::start(ext::core_ref core, std::uintptr_t root, std::uint32_t place) {
  m_info.kind = m_replayer == nullptr ? "traced" : m_tmpl == nullptr ? "designed" : "replayed";
  m_info.mode = m_replayer == nullptr ? std::string_view{} : to_string(m_mode);
  m_info.recording = m_trace;
  if (!core.begin_phase(&m_info))
    throw std::logic_error(
        "locus::schedule: a traced or replayed phase is already running on this runtime; one "
        "at a time");
  m_core = core;
  try {
    publish(core, root, place);
  } catch (...) {
    // Nothing was published (every step that can throw comes before the root's hand-over),
    // so no worker runs anything of this phase: undo the arm and let run() rethrow.
    if (steal_recorder* rec = steal_recorder::find(core))
      rec->on.store(false, std::memory_order_relaxed);
    if (m_replayer != nullptr)
      m_replayer->internals().armed.store(nullptr, std::memory_order_release);
    core.end_phase();
    throw;
  }
  m_started = true;
}

void phase::publish(ext::core_ref core, std::uintptr_t root, std::uint32_t place) {
  const unsigned n = core.num_workers();
  // The buffers are bound to one runtime's idle domains (ext::bind_pool): a scheduler that
  // served another runtime (even of the same size, maybe gone by now) must not arm here.
  if (m_replayer != nullptr && !m_replayer->internals().buffers.empty() &&
      m_replayer->internals().buffer_runtime != core.id())
    throw std::logic_error("locus::schedule: this replay_scheduler already serves a runtime of " +
                           std::to_string(m_replayer->internals().buffer_workers) +
                           " workers; make one replay scheduler per runtime");
  std::unique_ptr<plan> fresh;
  if (m_replayer != nullptr) fresh = make_plan(m_tmpl, m_mode, n);
  if (m_trace) {
    // No traced work exists yet and none of the previous phase is left (its run returned),
    // so no worker writes the logs now; the root's publication below orders these writes
    // (and the recorder's installation) before every record of this phase.
    steal_recorder& rec = steal_recorder::of(core);
    rec.clear();
    rec.on.store(true, std::memory_order_relaxed);
  }
  if (m_replayer == nullptr) {
    core.post(place, root);
    return;
  }
  replay_scheduler::state& st = m_replayer->internals();
  if (st.buffers.empty()) {
    // First arm: no plan was ever visible, so no worker touches the buffers yet. Each is bound
    // to its worker's idle domain (ext/pool.hpp), for good: the runtime holds this scheduler.
    for (unsigned i = 0; i < n; ++i) {
      st.buffers.push_back(std::make_unique<donation_buffer>(st.options.buffer_capacity));
      ext::bind_pool(core, i, st.buffers.back()->pool);
    }
    st.buffer_workers = n;
    st.buffer_runtime = core.id();
  }
  plan* p = fresh.get();
  st.plans.push_back(std::move(fresh));
  // The root goes to the template's root worker, as the first donation (the paper's); a
  // designed phase starts on worker 0.
  const ext::work_item item{root, ext::work_item::k_from_mailbox};
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
    // Unbounded for the root: the buffer is empty before a phase (its items all ran). If this
    // throws, start() disarms; nothing was handed over.
    if (!st.buffers[to]->pool.push(item))
      throw std::logic_error("locus::schedule: a donation buffer is not empty before a phase");
  }
  // Workers asleep since before the arm: wake them all; none sleeps again while armed.
  core.wake_all();
}

void phase::finish(ext::core_ref core) noexcept {
  if (!m_started) return;
  if (steal_recorder* rec = steal_recorder::find(core))
    rec->on.store(false, std::memory_order_relaxed);
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
  core.end_phase();
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

/// `t` without every node that repeats the (level, spawn index) of an earlier sibling (in
/// insertion order), and everything below those; `t` itself when there is none. One pass over
/// each node's children, O(n log n).
steal_tree without_repeats(steal_tree t) {
  std::vector<bool> drop(t.size(), false);
  bool any = false;
  std::set<std::pair<std::uint32_t, std::uint32_t>> seen;
  for (node_id p = 0; p < t.size(); ++p) {
    seen.clear();
    for (node_id c : t.children(p)) {
      const steal_node& n = t.node(c);
      if (!seen.insert({n.level, n.spawn_index}).second) drop[c] = any = true;
    }
  }
  if (!any) return t;
  const steal_node& r = t.root();
  steal_tree out(t.worker_count(), r.worker, r.seq, r.level, t.topology());
  std::vector<node_id> to_new(t.size(), k_no_node);
  to_new[0] = 0;
  for (node_id i = 1; i < t.size(); ++i) {
    const steal_node& n = t.node(i);
    if (drop[i] || to_new[n.parent] == k_no_node) continue;
    to_new[i] = out.add_steal(to_new[n.parent], n.level, n.spawn_index, n.worker, n.seq, n.kind);
  }
  return out;
}

/// A traced tree that validate(with_calls) accepts. A trace of a random-stealing phase of a
/// spawn-only program always is one. Two kinds of trace need not be, both with steals repeated
/// at the same (level, spawn index) under one phase:
///  - a replayed phase: a donation takes the newest continuation, not the oldest, so a frame
///    left behind on the donor's deque can later have a continuation stolen at the same
///    (level, spawn index) as one donated before;
///  - a task that calls (co_await task) spawning loops one after the other (an iterative
///    kernel's time loop in one task): the calling frame is never picked up, so it keeps the
///    phase it had, and every loop's steals are recorded under that phase at the same points.
/// The later steal (and what was stolen below it) is dropped: in a replay of the tree it runs
/// where its frame runs. All repeats go in one pass (without_repeats; dropping one per
/// validation round was quadratic, a third of cg W's traced time); any other fault is dropped
/// one subtree per round, so this ends.
steal_tree valid_trace(steal_tree t) {
  t = without_repeats(std::move(t));
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
  if (!m_core || !m_trace)
    throw std::logic_error("locus::schedule: no traced phase ran to take a steal tree from");
  detail::steal_recorder& rec = detail::steal_recorder::of(m_core);
  const unsigned n = m_core.num_workers();
  std::vector<steal_log> logs(n);
  for (unsigned w = 0; w < n; ++w) {
    if (rec.traces()[w].overflow)
      throw std::runtime_error("locus::schedule: the phase's steal tree is incomplete: worker " +
                               std::to_string(w) +
                               " could not record a steal (phase ids or memory exhausted)");
    logs[w] = rec.traces()[w].log;
  }
  const detail::trace_root root = rec.root();
  if (!root.seen)
    throw std::runtime_error("locus::schedule: the traced phase's root was never picked up");
  return valid_trace(assemble(n, root.worker, root.seq, 0, logs, m_rt->cfg().topology));
}

bool steals_possible_below(const frame& f) noexcept {
  const ext::core_ref core = ext::core_ref::current();
  if (!core) return true;
  auto* r = dynamic_cast<replay_scheduler*>(core.spawn_strategy());
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
  const ext::core_ref core = ext::core_ref::current();
  if (!core)
    throw std::logic_error(
        "locus: designate_after_next_spawn must be used inside a task running on a locus "
        "runtime");
  auto* r = dynamic_cast<replay_scheduler*>(core.spawn_strategy());
  plan* p = r != nullptr ? r->internals().armed.load(std::memory_order_acquire) : nullptr;
  if (p == nullptr || !p->designed)
    throw std::logic_error(
        "locus::schedule::designate_after_next_spawn: valid only in a designed phase "
        "(locus::schedule::run_designed on a runtime with the replay scheduler)");
  if (worker >= core.num_workers())
    throw std::out_of_range("locus::schedule::designate_after_next_spawn(" +
                            std::to_string(worker) + "): expected a worker below " +
                            std::to_string(core.num_workers()));
  const std::uint32_t head = locus::detail::schedule_slot(f.m_schedule);
  if (head != f.m_level)
    throw std::logic_error(
        "locus::schedule::designate_after_next_spawn: the frame at level " +
        std::to_string(f.m_level) +
        " does not head its phase (its parent's continuation was not designated at its "
        "spawn): a designated continuation's parent must itself have a stolen continuation");
  p->workers[ext::this_worker_index()].designation = worker;
}

}  // namespace detail
}  // namespace locus::schedule
