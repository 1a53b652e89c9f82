// The worker loop: run own work, then acquire (the scheduler's acquisition strategy: SLAW's
// steal in the place, its mailbox, other places; or Cilk's random victims), then spin, then
// sleep. SLAW's idle subroutine and place rules (sections III-C and IV).
#include "locus/detail/worker.hpp"

#include <algorithm>
#include <chrono>
#include <thread>
#include <utility>

#include "locus/detail/ready.hpp"
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

worker::worker(runtime_state& rt, unsigned index, unsigned place, const config& cfg)
    : m_rt(rt),
      m_index(index),
      m_place(place),
      m_policy(rt.spawn != nullptr ? k_policy_custom : static_cast<std::uint8_t>(cfg.policy)),
      m_has_custom(rt.spawn != nullptr),
      m_rng{0x9e3779b97f4a7c15ull * (index + 1)},
      m_slaw(cfg.slaw),
      m_until_eval(cfg.slaw.interval) {}

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
    counters::bump(m_counters.policy_switches);
  }
}

void post_to_place(runtime_state& rt, std::uint32_t p, std::uintptr_t item) {
  place_state& ps = *rt.places[p];
  ps.mail.push(item);
  ps.idle->wake_one();  // seq_cst after the seq_cst size increment: see idle_domain
}

namespace {

/// Runs one item taken off a deque or a mailbox. `victim` is the worker whose deque it came
/// from (null for a mailbox).
void execute(worker& w, std::uintptr_t item, worker* victim) {
  if (is_runnable(item)) [[unlikely]] {
    // No frame: counted like a fresh frame for SLAW's conditions; no join, trace, place or
    // chain (nothing can spawn from it or be stolen from it, and its object is its owner's).
    if (victim == &w) {
      w.note_fresh_popped();
    } else if (victim != nullptr) {
      victim->note_stolen(true);
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
    // Steal-tree recording: paid where work changes hands, never on the spawn or pop path.
    if (w.rt().tracing.load(std::memory_order_relaxed)) [[unlikely]]
      trace_pickup(w, *f, continuation, victim != nullptr);
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
  w.stats().idle_begin(w.stats().clock_ns());  // readers see the spell while it lasts
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
    if (fails < k_spin_rounds + k_yield_rounds || !rt.acquire->may_sleep(ext::worker_ref(w, rt)) ||
        !ps.idle->thief_to_sleeper()) {
      std::this_thread::yield();
      continue;
    }
    // Registered as a sleeper. Re-read the mailbox after that seq_cst update: a post that
    // saw no sleeper must be visible here. If there is mail, wake one (maybe ourselves).
    for (unsigned p : ps.idle->places) {
      if (!rt.places[p]->mail.empty_seq_cst()) {
        ps.idle->wake_one();
        break;
      }
    }
    // Ask the strategy again after that seq_cst update (Dekker's pattern): work it hands to
    // this worker alone (a replay donation, after its seq_cst arm) comes with a wake-up of the
    // sleepers counted then, which may have missed us; if the strategy now says stay awake,
    // take the registration back instead of blocking (found as a hang of a 1-worker replay).
    if (!rt.acquire->may_sleep(ext::worker_ref(w, rt)) && ps.idle->sleeper_to_thief()) {
      fails = 0;
      continue;
    }
    counters::bump(w.stats().sleeps);
    ps.idle->sleep();  // the waker has already counted us as a thief again
    fails = 0;
  }
  w.stats().idle_end(w.stats().clock_ns());
  return found;
}

}  // namespace

void worker_main(runtime_state& rt, worker& w, unsigned os_cpu, bool pin) {
  if (pin) (void)pin_this_thread(os_cpu);
  t_worker = &w;
  t_stack_floor = stack_address() - k_transfer_stack_budget;
  place_state& ps = *rt.places[w.place()];
  std::uintptr_t item = 0;
  worker* victim = nullptr;
  while (find_work(w, rt, ps, item, victim)) {
    ps.idle->thief_to_active();
    execute(w, item, victim);
    // Own work, deepest first (SLAW's tie breakers: the bottom of the deque is the most
    // recently pushed, so the deepest in the spawn and sync trees). Then an extension's
    // deferred bookkeeping (ready.hpp), which may make more own work.
    do {
      while (w.tasks().pop(item))
        execute(w, item, &w);
    } while (t_before_idle != nullptr && t_before_idle());
    ps.idle->active_to_thief();
  }
  t_worker = nullptr;
  t_stack_floor = 0;
}

}  // namespace locus::detail
