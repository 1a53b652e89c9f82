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
#include <array>

#include <algorithm>
#include <chrono>
#include <deque>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

#include "locus/ext/observer.hpp"
#include "replay_state.hpp"

namespace locus::schedule {

using locus::detail::frame;

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

static_assert(k_no_node == ext::spawn_site::k_builtin,
              "a frame outside the template carries the slot that skips the spawn rule");

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

// The three replay modes are combinations of three parts (docs/design/0008, "Replay"):
//
//   mode    ordered slots   donation pool   random stealing (the built-in Cilk acquisition)
//   stows        x
//   stuws                        x
//   relws                        x                 x
//
// Each part is a function below; a look runs the parts of its plan's combination in order,
// then takes the place's pool (remote spawns and frames sent home: placements, not steals).
// Between phases a look is the built-in Cilk acquisition alone.

namespace {

/// The parts a plan combines.
struct combination {
  bool ordered_slots = false;  ///< StOWS: each worker takes its slots in the template's order
  bool donation_pool = false;  ///< StUWS, RelWS, designed: each worker's donation pool, any order
  bool random_steals = false;  ///< RelWS: Cilk's random stealing when the pool is empty
};

constexpr combination combination_of(replay_mode mode, bool designed) noexcept {
  if (mode == replay_mode::stows && !designed) return {true, false, false};
  return {false, true, mode == replay_mode::relws};
}

}  // namespace

bool replay_scheduler::take_slot(ext::worker_ref& w, plan& p, ext::work_item& out) {
  const unsigned me = w.index();
  worker_plan& wp = p.workers[me];
  slot* s = p.slots[me].get();
  const std::uint32_t n = p.slot_count[me];
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
  return false;
}

bool replay_scheduler::take_slot_out_of_order(ext::worker_ref& w, plan& p, ext::work_item& out) {
  // Rule 4.2: the next slot may belong to a steal point this computation never reaches.
  // Nothing running anywhere means nothing can fill it any more: take a later ready slot
  // (never dropping the skipped one, which is still taken if it ever fills). A worker that
  // has just taken an item counts as idle until it turns active, and may be preempted in
  // between, so the runtime must look quiet for k_quiet_us on every look of this worker;
  // if it fires early all the same, the order differs, the mapping does not.
  const unsigned me = w.index();
  worker_plan& wp = p.workers[me];
  if (++wp.fails < k_patience) return false;
  if (w.active_workers() != 0) {
    wp.quiet_since = -1;
    return false;
  }
  const std::int64_t now = std::chrono::duration_cast<std::chrono::microseconds>(
                               std::chrono::steady_clock::now().time_since_epoch())
                               .count();
  if (wp.quiet_since < 0) wp.quiet_since = now;
  if (now - wp.quiet_since < k_quiet_us) return false;
  slot* s = p.slots[me].get();
  const std::uint32_t n = p.slot_count[me];
  for (std::uint32_t j = wp.cursor; j < n; ++j) {
    const std::uint64_t v = s[j].state.load(std::memory_order_acquire);
    if (v == 0 || v == k_claimed || v == k_taken) continue;
    s[j].state.store(k_taken, std::memory_order_relaxed);
    out = {static_cast<std::uintptr_t>(v), s[j].from};
    p.out_of_order.fetch_add(1, std::memory_order_relaxed);
    wp.fails = 0;
    wp.quiet_since = -1;
    return true;
  }
  return false;
}

bool replay_scheduler::steal_at_random(ext::worker_ref& w, plan& p, ext::work_item& out) {
  // The built-in Cilk acquisition: random victims, then the place's pool.
  if (!m_random->acquire(w, out)) return false;
  if (out.from == ext::work_item::k_from_mailbox) return true;  // a placement, not a steal
  p.random_steals.fetch_add(1, std::memory_order_relaxed);
  if (p.designed && !locus::detail::is_runnable(out.bits)) {
    // A stolen frame heads the thief's phase: it may designate (the validity rule). A runnable
    // (a data-driven task, detail/frame.hpp) has no frame and heads nothing.
    ext::task_ref t = ext::task_ref::of_item(out.bits);
    t.set(t.phase(), t.level());
  }
  return true;
}

bool replay_scheduler::look(ext::worker_ref& w, plan* p, ext::work_item& out) {
  if (p == nullptr) return m_random->acquire(w, out);  // between phases: Cilk's
  const combination c = combination_of(p->mode, p->designed);
  if (c.ordered_slots && take_slot(w, *p, out)) return true;
  if (c.donation_pool && w.take_from(m_state->buffers[w.index()]->pool, out)) return true;
  if (c.random_steals) return steal_at_random(w, *p, out);  // the place's pool included
  if (w.take_mail(w.place(), out)) return true;
  return c.ordered_slots && take_slot_out_of_order(w, *p, out);
}

bool replay_scheduler::may_sleep(ext::worker_ref /*w*/) noexcept {
  // While a plan is armed, work may be donated to any worker at any time: stay awake. seq_cst:
  // asked again after the worker registered as a sleeper (find_work), this load and the arm's
  // seq_cst store of the plan order against that registration and the arm's wake_sleepers():
  // either the arm sees the sleeper and wakes it, or this load sees the plan.
  return m_state->armed.load(std::memory_order_seq_cst) == nullptr;
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
    // The slot k_builtin (= k_no_node) also takes the child's subtree off this rule: its spawns
    // go the core's inline work-first path, as this function would decide them anyway (the
    // early return above), without the call (docs/design/0008, "Replay").
    if (!p->has_child_steal_at(n, s.level)) s.child_slot = ext::spawn_site::k_builtin;
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
  // Only spawn_custom donates, and only the frames of spawns: never a runnable.
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
    // The pool is bounded (replay_options::buffer_capacity); its push wakes a sleeper of the
    // receiver's domain (workers do not sleep while a plan is armed, see may_sleep).
    if (!st.buffers[to]->pool.push(item)) {
      p->kept_full.fetch_add(1, std::memory_order_relaxed);
      return false;
    }
  }
  p->donations.fetch_add(1, std::memory_order_relaxed);
  // The pool woke one sleeper of the receiver's domain, maybe not the receiver: wake them all
  // (one load per domain when nobody sleeps, as workers do not while a plan is armed).
  w.wake_sleepers();
  return true;
}

}  // namespace locus::schedule
