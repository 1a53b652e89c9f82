// The worker loop: run own work, then acquire (the scheduler's acquisition strategy: SLAW's
// steal in the place, its mailbox, other places; or Cilk's random victims), then spin, then
// sleep. SLAW's idle subroutine and place rules (sections III-C and IV).
#include "locus/detail/worker.hpp"

#include <algorithm>
#include <chrono>
#include <thread>
#include <utility>

#include "locus/ext/observer.hpp"
#include "locus/ext/scheduler.hpp"
#include "runtime_state.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define LOCUS_PAUSE() _mm_pause()
#elif defined(__aarch64__)
#define LOCUS_PAUSE() asm volatile("yield")
#else
#define LOCUS_PAUSE() ((void)0)
#endif

namespace locus::detail {

namespace {

/// The deque form config::pop_fence names (the deque makes asymmetric and adaptive full where
/// membarrier is not available; the runtime has refused `asymmetric` there already).
pop_fence deque_form(pop_fence_policy p) noexcept {
  switch (p) {
    case pop_fence_policy::asymmetric:
      return pop_fence::asymmetric;
    case pop_fence_policy::adaptive:
      return pop_fence::adaptive;
    case pop_fence_policy::full:
      break;
  }
  return pop_fence::full;
}

}  // namespace

worker::worker(runtime_state& rt, unsigned index, unsigned place, const config& cfg)
    : m_deque(k_deque_capacity, deque_form(cfg.pop_fence)),
      m_rt(rt),
      m_index(index),
      m_place(place),
      m_policy(rt.spawn != nullptr ? k_policy_custom : static_cast<std::uint8_t>(cfg.policy)),
      m_has_custom(rt.spawn != nullptr),
      m_rng{0x9e3779b97f4a7c15ull * (index + 1)},
      m_slaw(cfg.slaw),
      m_chain_bound(cfg.slaw.stack_limit > 0 ? cfg.slaw.stack_limit - 1 : 0),
      m_until_eval(cfg.slaw.interval) {
  m_counters.fence_episodes_source = &m_deque.fence_switch_counter();
  refresh_mode();
}

void worker::reevaluate() noexcept {
  m_until_eval = m_slaw.interval;
  // SLAW's heuristic: if more tasks were stolen from this worker during the last interval
  // than it spawned (INT), thieves outpace creation: spawn help-first to feed them; otherwise
  // assume the next task will not be stolen and spawn work-first.
  const std::uint64_t stolen = m_stolen.load(std::memory_order_relaxed);
  const std::uint64_t recent = stolen - m_stolen_at_eval;
  m_stolen_at_eval = stolen;
  const bool work_first = recent <= m_slaw.steal_threshold;
  if (work_first != m_adaptive_work_first) {
    m_adaptive_work_first = work_first;
    refresh_mode();
    counters::bump(m_counters.policy_switches);
  }
}

spawn_choice worker::reevaluate_and_choose(const frame& parent) noexcept {
  // Restarts the count: the next re-evaluation is INT spawns after this one, as when the
  // count reached zero at this spawn (choose_spawn stops at 1 instead of counting down to 0).
  reevaluate();
  return choose_adaptive(parent) ? spawn_choice::work_first : spawn_choice::help_first;
}

namespace {

/// The installed observers (ext/observer.hpp), or null: the one load and branch each
/// observation point costs when none is installed. Acquire: pairs with install_once.
const observer_set* observers_of(const runtime_state& rt) noexcept {
  return rt.observers.load(std::memory_order_acquire);
}

/// Tells the observers that `w` picked up `item` from elsewhere (`victim`: the worker it came
/// from, null for a pool). Paid where work changes hands, never on the spawn or pop path.
void observe_pickup(worker& w, std::uintptr_t item, worker* victim, bool continuation) noexcept {
  const observer_set* obs = observers_of(w.rt());
  if (obs == nullptr) [[likely]]
    return;
  ext::worker_ref ref(w, w.rt());
  const ext::pickup p{victim != nullptr ? victim->index() : ext::pickup::k_from_pool, continuation};
  for (const auto& o : obs->list)
    o->on_pickup(ref, ext::task_ref::of_item(item), p);
}

void observe_idle(worker& w, ext::idle_event e) noexcept {
  const observer_set* obs = observers_of(w.rt());
  if (obs == nullptr) [[likely]]
    return;
  ext::worker_ref ref(w, w.rt());
  for (const auto& o : obs->list)
    o->on_idle(ref, e);
}

/// The own deque ran empty: the observers' deferred bookkeeping (the dataflow layer's task
/// counts). True if one of them may have made work on this worker's deque.
bool observe_before_idle(worker& w) noexcept {
  const observer_set* obs = observers_of(w.rt());
  if (obs == nullptr) [[likely]]
    return false;
  ext::worker_ref ref(w, w.rt());
  bool did = false;
  for (const auto& o : obs->list)
    did = o->before_idle(ref) || did;
  return did;
}

/// Runs one item taken off a deque or a pool. `victim` is the worker whose deque it came
/// from (null for a pool).
void execute(worker& w, std::uintptr_t item, worker* victim) {
  if (is_runnable(item)) [[unlikely]] {
    // No frame: counted like a fresh frame for SLAW's conditions; no join, trace, place or
    // chain (nothing can spawn from it or be stolen from it, and its object is its owner's).
    if (victim == &w) {
      w.note_fresh_popped();
    } else {
      if (victim != nullptr) victim->note_stolen(true);
      observe_pickup(w, item, victim, false);
    }
    runnable* r = item_runnable(item);
    r->run(r);
    return;
  }
  frame* f = item_frame(item);
  const bool continuation = (item & k_tag_continuation) != 0;
  // A continuation taken while its spawned child still runs: that child will join it instead
  // of popping it back, so the frame must expect one more completion.
  if (continuation && (item & k_tag_async_child) == 0) ++f->m_expected;
  if (victim == &w) {
    if (!continuation) w.note_fresh_popped();
  } else {
    if (victim != nullptr) victim->note_stolen(!continuation);
    // Observers (steal-tree recording, tracing): before the frame runs, so what they write
    // into its scheduling word governs its spawns.
    observe_pickup(w, item, victim, continuation);
  }
  // The place rule (scheduler.hpp): a frame taken by a worker of another place (only cross-
  // place stealing does that) moves to the thief's place.
  if (f->m_place != w.place()) [[unlikely]]
    f->m_place = w.place();
  f->start_chain();
  f->handle().resume();
  // transfer() bounces a transfer here when nested resumes ran deep on this stack.
  while (w.next_resume)
    std::exchange(w.next_resume, {}).resume();
}

/// One look for work through the runtime's acquisition strategy (locus/ext/scheduler.hpp).
bool acquire(worker& w, runtime_state& rt, std::uintptr_t& item, worker*& victim) {
  ext::work_item got;
  if (!rt.acquire->acquire(ext::worker_ref(w, rt), got)) return false;
  item = got.bits;
  victim = got.from == ext::work_item::k_from_mailbox ? nullptr : rt.workers[got.from].get();
  return true;
}

constexpr unsigned k_spin_rounds = 64;   // acquire attempts with a pause between
constexpr unsigned k_yield_rounds = 32;  // then with a yield, before asking to sleep

/// Looks for work until it finds some (true) or the runtime stops (false). Sleeps when the
/// place's idle protocol allows it.
bool find_work(worker& w, runtime_state& rt, place_state& ps, std::uintptr_t& item,
               worker*& victim) {
  // A worker whose first look finds work was not idle: its deque ran empty, but the strategy
  // had the next item at once (a flow scheduler's ready queue, which holds every dataflow task
  // while the deque stays empty; a mailbox; the first victim). No idle spell is counted or
  // observed for it. Observers that act on `looking` (locus::mpi wakes its communication
  // worker when a worker turns idle) saw one per task under a flow scheduler before
  // 2026-11-27e: a wake-up and a context switch per task on a rank's shared core.
  if (!rt.stopping.load(std::memory_order_acquire) && acquire(w, rt, item, victim)) return true;
  w.stats().idle_begin(w.stats().clock_ns());  // readers see the spell while it lasts
  observe_idle(w, ext::idle_event::looking);
  unsigned fails = 0;
  bool found = false;
  while (!rt.stopping.load(std::memory_order_acquire)) {
    if (acquire(w, rt, item, victim)) {
      found = true;
      break;
    }
    ++fails;
    if (fails < k_spin_rounds) {
      for (int i = 0; i < 16; ++i)
        LOCUS_PAUSE();
      continue;
    }
    idle_domain& dom = *ps.idle;
    const unsigned slot = rt.domain_slot[w.index()];
    if (fails < k_spin_rounds + k_yield_rounds || !rt.acquire->may_sleep(ext::worker_ref(w, rt)) ||
        !dom.thief_to_sleeper()) {
      std::this_thread::yield();
      continue;
    }
    // Registered as a sleeper; park (idle_domain.hpp). park() takes the registration back if
    // a thief turned active meanwhile leaving nobody to watch its deque: we are that thief.
    if (!dom.park(slot)) {
      fails = 0;
      continue;
    }
    // Re-read the domain's pools after parking (seq_cst): a push that found nobody parked
    // must be visible here. work_for wakes one member for an open pool (maybe us) and says
    // whether a gated pool waits for us. Then ask the strategy again (Dekker's pattern): work
    // it hands to this worker alone (a replay donation, after its seq_cst arm) comes with a
    // wake-up that may have missed our parking (found as a hang of a 1-worker replay). Either
    // way, take the parking back instead of blocking; if a waker claimed us first, sleep()
    // returns at once.
    const bool stay = dom.work_for(slot) || !rt.acquire->may_sleep(ext::worker_ref(w, rt));
    if (stay && dom.unpark_self(slot)) {
      fails = 0;
      continue;
    }
    counters::bump(w.stats().sleeps);
    observe_idle(w, ext::idle_event::sleeping);
    dom.sleep(slot);  // the waker has already counted us as a thief again
    observe_idle(w, ext::idle_event::woken);
    fails = 0;
  }
  observe_idle(w, found ? ext::idle_event::found : ext::idle_event::stopping);
  w.stats().idle_end(w.stats().clock_ns());
  return found;
}

}  // namespace

void worker_main(runtime_state& rt, worker& w, unsigned os_cpu, bool pin) {
  if (pin) (void)pin_this_thread(os_cpu);
  t_worker = &w;
  t_frames = &w.stack();
  t_stack_floor = stack_address() - k_transfer_stack_budget;
  place_state& ps = *rt.places[w.place()];
  std::uintptr_t item = 0;
  worker* victim = nullptr;
  while (find_work(w, rt, ps, item, victim)) {
    ps.idle->thief_to_active();
    execute(w, item, victim);
    // Own work, deepest first (SLAW's tie breakers: the bottom of the deque is the most
    // recently pushed, so the deepest in the spawn and sync trees). Then the observers'
    // deferred bookkeeping (ext/observer.hpp), which may make more own work.
    // owner_sees_empty first: an observer that keeps the worker here (the mpi module's idle
    // poll) comes back to an empty deque each time, and pop's exchange would cost a locked
    // instruction per poll (docs/benchmarks-mpi.md, 2026-11-27b).
    do {
      while (!w.tasks().owner_sees_empty() && w.tasks().pop(item))
        execute(w, item, &w);
    } while (observe_before_idle(w));
    ps.idle->active_to_thief();
  }
  t_worker = nullptr;
  t_frames = &g_off_worker_frames.stack;
  t_stack_floor = 0;
}

}  // namespace locus::detail
