// The worker loop: run own work, then acquire (steal in the place, its mailbox, other places),
// then spin, then sleep. SLAW's idle subroutine and place rules (sections III-C and IV).
#include "locus/detail/worker.hpp"

#include <chrono>
#include <thread>
#include <utility>

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
      m_policy(static_cast<std::uint8_t>(cfg.policy)),
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

void counters::reset() noexcept {
  for (counter* c : {&spawns_work_first, &spawns_help_first, &spawns_remote, &stack_condition,
                     &fresh_condition, &policy_switches, &steals_attempted, &steals_succeeded,
                     &mailbox_takes, &syncs_suspended, &idle_ns, &sleeps})
    c->store(0, std::memory_order_relaxed);
}

worker_stats counters::snapshot() const noexcept {
  worker_stats s;
  s.spawns_work_first = spawns_work_first.load(std::memory_order_relaxed);
  s.spawns_help_first = spawns_help_first.load(std::memory_order_relaxed);
  s.spawns_remote = spawns_remote.load(std::memory_order_relaxed);
  s.stack_condition = stack_condition.load(std::memory_order_relaxed);
  s.fresh_condition = fresh_condition.load(std::memory_order_relaxed);
  s.policy_switches = policy_switches.load(std::memory_order_relaxed);
  s.steals_attempted = steals_attempted.load(std::memory_order_relaxed);
  s.steals_succeeded = steals_succeeded.load(std::memory_order_relaxed);
  s.mailbox_takes = mailbox_takes.load(std::memory_order_relaxed);
  s.syncs_suspended = syncs_suspended.load(std::memory_order_relaxed);
  s.idle_ns = idle_ns.load(std::memory_order_relaxed);
  s.sleeps = sleeps.load(std::memory_order_relaxed);
  return s;
}

void post_to_place(runtime_state& rt, std::uint32_t p, std::uintptr_t item) {
  place_state& ps = *rt.places[p];
  ps.mail.push(item);
  ps.wake_one();  // seq_cst after the seq_cst size increment: see place_state
}

namespace {

/// A cheap per-thread xorshift for victim choice.
struct rng {
  std::uint64_t s;
  std::uint32_t below(std::uint32_t n) noexcept {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return static_cast<std::uint32_t>((s >> 32) * n >> 32);
  }
};

/// Runs one item taken off a deque or a mailbox. `victim` is the worker whose deque it came
/// from (null for a mailbox).
void execute(worker& w, std::uintptr_t item, worker* victim) {
  frame* f = item_frame(item);
  const bool continuation = (item & k_tag_continuation) != 0;
  // A continuation taken while its spawned child still runs: that child will join it instead
  // of popping it back, so the frame must expect one more completion.
  if (continuation && (item & k_tag_async_child) == 0) ++f->m_expected;
  if (victim == &w) {
    if (!continuation) w.note_fresh_popped();
  } else if (victim != nullptr) {
    victim->note_stolen(!continuation);
  }
  w.context_switch(*f);
  f->handle().resume();
  if constexpr (LOCUS_TRAMPOLINE) {
    while (w.next_resume)
      std::exchange(w.next_resume, {}).resume();
  }
}

bool steal_from(worker& w, const std::vector<unsigned>& tier, runtime_state& rt, rng& r,
                std::uintptr_t& item, worker*& victim) {
  const auto n = static_cast<std::uint32_t>(tier.size());
  for (std::uint32_t k = 0; k < n; ++k) {
    worker& v = *rt.workers[tier[r.below(n)]];
    counters::bump(w.stats().steals_attempted);
    if (v.tasks().steal(item)) {
      counters::bump(w.stats().steals_succeeded);
      victim = &v;
      return true;
    }
  }
  return false;
}

/// SLAW's order: peers of the own place (nearest first), the own mailbox, then, when allowed,
/// other places' workers and mailboxes.
bool acquire(worker& w, runtime_state& rt, rng& r, std::uintptr_t& item, worker*& victim) {
  for (const auto& tier : rt.victim_tiers[w.index()])
    if (steal_from(w, tier, rt, r, item, victim)) return true;
  victim = nullptr;
  if (rt.places[w.place()]->mail.pop(item)) {
    counters::bump(w.stats().mailbox_takes);
    return true;
  }
  for (unsigned p : rt.remote_places[w.index()]) {
    if (steal_from(w, rt.places[p]->workers, rt, r, item, victim)) return true;
    victim = nullptr;
    if (rt.places[p]->mail.pop(item)) {
      counters::bump(w.stats().mailbox_takes);
      return true;
    }
  }
  return false;
}

constexpr unsigned k_spin_rounds = 64;   // acquire attempts with a pause between
constexpr unsigned k_yield_rounds = 32;  // then with a yield, before asking to sleep

/// Looks for work until it finds some (true) or the runtime stops (false). Sleeps when the
/// place's idle protocol allows it.
bool find_work(worker& w, runtime_state& rt, place_state& ps, rng& r, std::uintptr_t& item,
               worker*& victim) {
  const auto start = std::chrono::steady_clock::now();
  unsigned fails = 0;
  bool found = false;
  while (!rt.stopping.load(std::memory_order_acquire)) {
    if (acquire(w, rt, r, item, victim)) {
      found = true;
      break;
    }
    ++fails;
    if (fails < k_spin_rounds) {
      for (int i = 0; i < 16; ++i)
        LOCUS_PAUSE();
      continue;
    }
    if (fails < k_spin_rounds + k_yield_rounds || !ps.thief_to_sleeper()) {
      std::this_thread::yield();
      continue;
    }
    // Registered as a sleeper. Re-read the mailbox after that seq_cst update: a post that
    // saw no sleeper must be visible here. If there is mail, wake one (maybe ourselves).
    if (!ps.mail.empty_seq_cst()) ps.wake_one();
    counters::bump(w.stats().sleeps);
    ps.sleep();  // the waker has already counted us as a thief again
    fails = 0;
  }
  const auto idle = std::chrono::steady_clock::now() - start;
  counters::bump(w.stats().idle_ns,
                 static_cast<std::uint64_t>(
                     std::chrono::duration_cast<std::chrono::nanoseconds>(idle).count()));
  return found;
}

}  // namespace

void worker_main(runtime_state& rt, worker& w, unsigned os_cpu, bool pin) {
  if (pin) (void)pin_this_thread(os_cpu);
  t_worker = &w;
  place_state& ps = *rt.places[w.place()];
  rng r{0x9e3779b97f4a7c15ull * (w.index() + 1)};
  std::uintptr_t item = 0;
  worker* victim = nullptr;
  while (find_work(w, rt, ps, r, item, victim)) {
    ps.thief_to_active();
    execute(w, item, victim);
    // Own work, deepest first (SLAW's tie breakers: the bottom of the deque is the most
    // recently pushed, so the deepest in the spawn and sync trees).
    while (w.tasks().pop(item))
      execute(w, item, &w);
    ps.active_to_thief();
  }
  t_worker = nullptr;
}

}  // namespace locus::detail
