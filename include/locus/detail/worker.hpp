// locus/detail/worker.hpp — a worker: its deque, frame stack, spawn-policy state and counters.
//
// Everything here is touched by the owning worker thread only, except the fields marked
// "thieves", which other workers update with relaxed atomics.
#pragma once

#include <atomic>
#include <chrono>
#include <coroutine>
#include <cstdint>
#include <mutex>

#include "locus/config.hpp"
#include "locus/detail/counters.hpp"
#include "locus/detail/deque.hpp"
#include "locus/detail/frame.hpp"
#include "locus/detail/frame_stack.hpp"
#include "locus/stats.hpp"

namespace locus::detail {

struct runtime_state;

/// Sentinel for "the runtime's default policy" in spawn options.
inline constexpr std::uint8_t k_policy_default = 0xff;
/// A worker's policy when a custom spawn rule (ext::spawn_rule) decides.
inline constexpr std::uint8_t k_policy_custom = 0xfe;
/// worker::m_mode for the adaptive policy while SLAW's heuristic says work-first. Never a
/// spawn option's policy (those are spawn_policy values or k_policy_default).
inline constexpr std::uint8_t k_mode_adaptive_work_first = 0xfd;

/// What choose_spawn decided. `reevaluate`: SLAW's interval ended; the caller re-evaluates
/// the adaptive policy (reevaluate_and_choose, out of line) before it decides.
enum class spawn_choice : std::uint8_t { help_first, work_first, custom, reevaluate };

/// A cheap per-worker xorshift, for victim choice.
struct rng {
  std::uint64_t s;
  std::uint32_t below(std::uint32_t n) noexcept {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return static_cast<std::uint32_t>((s >> 32) * n >> 32);
  }
};

class worker {
 public:
  worker(runtime_state& rt, unsigned index, unsigned place, const config& cfg);
  worker(const worker&) = delete;
  worker& operator=(const worker&) = delete;

  [[nodiscard]] deque<std::uintptr_t>& tasks() noexcept { return m_deque; }
  [[nodiscard]] frame_stack& stack() noexcept { return m_stack; }
  [[nodiscard]] counters& stats() noexcept { return m_counters; }
  [[nodiscard]] const counters& stats() const noexcept { return m_counters; }
  [[nodiscard]] unsigned index() const noexcept { return m_index; }
  [[nodiscard]] unsigned place() const noexcept { return m_place; }
  [[nodiscard]] runtime_state& rt() noexcept { return m_rt; }
  [[nodiscard]] const runtime_state& rt() const noexcept { return m_rt; }

  /// The spawn rule: does this spawn of a child of `parent` run work-first, or does a custom
  /// rule (ext::spawn_rule) decide it and where its stealable part goes (spawn_custom,
  /// src/strategies.cpp)? The built-in policies are inline; the custom rule is one more
  /// compare away. spawn_start tests for `custom` and `reevaluate` after inlining this, where
  /// the compiler threads the test into those branches alone (the built-in paths return
  /// constants). Calls nothing: a call here would keep the spawn's state live across it, in
  /// callee-saved registers of every spawning coroutine (docs/design/0016); SLAW's
  /// re-evaluation is returned as `reevaluate` instead, for the caller to make out of line.
  [[nodiscard]] spawn_choice choose_spawn(const frame& parent, std::uint8_t policy) noexcept {
    const std::uint8_t p = policy == k_policy_default ? m_mode : policy;
    // The default policy while SLAW's heuristic says work-first: one compare of m_mode on the
    // path most spawns take, then the interval and the stack bound. Conditions (ii) and (iii)
    // can only say work-first here (choose_adaptive).
    if (p == k_mode_adaptive_work_first) [[likely]] {
      if (--m_until_eval == 0) [[unlikely]]
        return spawn_choice::reevaluate;
      if (parent.m_level - parent.m_stack_base >= m_chain_bound) [[unlikely]] {
        counters::bump(m_counters.stack_condition);
        return spawn_choice::help_first;
      }
      return spawn_choice::work_first;
    }
    if (p == static_cast<std::uint8_t>(spawn_policy::adaptive)) {
      // One decrement in memory and its flag: the spawn that brings the count to zero ends
      // the interval (reevaluate() restarts it at INT).
      if (--m_until_eval == 0) [[unlikely]]
        return spawn_choice::reevaluate;
      return choose_adaptive(parent) ? spawn_choice::work_first : spawn_choice::help_first;
    }
    if (p == static_cast<std::uint8_t>(spawn_policy::work_first)) return spawn_choice::work_first;
    if (p == static_cast<std::uint8_t>(spawn_policy::help_first)) return spawn_choice::help_first;
    // A frame whose strategy slot is k_slot_builtin has left what the custom rule governs
    // (replay: it is below the template): Cilk's work-first rule, inline, for it and for the
    // descendants that inherit the slot (ext::spawn_site::k_builtin).
    // The only policy left is the custom rule's (m_policy is one of the four).
    return schedule_slot(parent.m_schedule) == k_slot_builtin ? spawn_choice::work_first
                                                              : spawn_choice::custom;
  }

  /// choose_spawn's `reevaluate`: SLAW's interval of INT spawns ended at this spawn. Re-evaluate
  /// the heuristic, then decide this spawn with it (adaptive: work-first or help-first). Out of
  /// line (src/worker.cpp).
  [[nodiscard]] spawn_choice reevaluate_and_choose(const frame& parent) noexcept;

  /// Owner only (a strategy, from acquire()): spawn with the scheduler's custom rule, or with
  /// the built-in policy `builtin` (inline, as the built-in schedulers do). No effect when the
  /// scheduler has no custom rule. Lets a strategy whose custom rule matters only at times
  /// (replay: while a plan is armed) pay for it only then.
  void use_custom_rule(bool custom, spawn_policy builtin) noexcept {
    if (m_has_custom) {
      m_policy = custom ? k_policy_custom : static_cast<std::uint8_t>(builtin);
      refresh_mode();
    }
  }

  /// This worker's random numbers (victim choice); owner only.
  [[nodiscard]] rng& random() noexcept { return m_rng; }

  /// Help-first children pushed by this worker and not yet started by anyone.
  [[nodiscard]] std::uint64_t fresh_tasks() const noexcept {
    return m_fresh_pushed - m_fresh_popped - m_fresh_stolen.load(std::memory_order_relaxed);
  }
  void note_fresh_pushed() noexcept { ++m_fresh_pushed; }
  void note_fresh_popped() noexcept { ++m_fresh_popped; }

  // Thieves: record that they took an item from this worker.
  void note_stolen(bool fresh) noexcept {
    m_stolen.fetch_add(1, std::memory_order_relaxed);
    if (fresh) m_fresh_stolen.fetch_add(1, std::memory_order_relaxed);
  }

  [[nodiscard]] bool adaptive_work_first() const noexcept { return m_adaptive_work_first; }

  /// See transfer(): the coroutine the worker loop resumes next, when a transfer bounced.
  std::coroutine_handle<> next_resume;

 private:
  /// SLAW's conditions, after the interval count (choose_spawn, reevaluate_and_choose).
  bool choose_adaptive(const frame& parent) noexcept {
    // (i) stack condition, first because it is the hard bound: the on-stack frames are the
    // parent's chain (frame.hpp: m_stack_base <= m_level, so the length cannot wrap).
    if (parent.m_level - parent.m_stack_base >= m_chain_bound) [[unlikely]] {  // as choose_spawn
      counters::bump(m_counters.stack_condition);
      return false;
    }
    // (iii) the heuristic says work-first: condition (ii) could only say the same.
    if (m_adaptive_work_first) return true;
    // (ii) fresh-task condition.
    if (fresh_tasks() >= m_slaw.fresh_limit) {
      counters::bump(m_counters.fresh_condition);
      return true;
    }
    return false;
  }
  void reevaluate() noexcept;
  /// m_mode from m_policy and m_adaptive_work_first, after either changed.
  void refresh_mode() noexcept {
    m_mode = m_policy == static_cast<std::uint8_t>(spawn_policy::adaptive) && m_adaptive_work_first
                 ? k_mode_adaptive_work_first
                 : m_policy;
  }

  /// The deque's starting capacity (it grows by doubling).
  static constexpr std::size_t k_deque_capacity = 1024;
  /// Its pop's form from cfg.pop_fence (the runtime refuses `asymmetric` where membarrier is
  /// not available, before it makes the workers).
  deque<std::uintptr_t> m_deque;
  frame_stack m_stack;
  runtime_state& m_rt;
  unsigned m_index;
  unsigned m_place;
  std::uint8_t m_policy;  ///< a spawn_policy, or k_policy_custom
  /// What choose_spawn tests first: m_policy, or k_mode_adaptive_work_first when it is the
  /// adaptive policy and SLAW's heuristic says work-first (refresh_mode).
  std::uint8_t m_mode;
  bool m_has_custom;                   ///< the scheduler has a custom spawn rule
  bool m_adaptive_work_first = false;  // SLAW starts help-first
  rng m_rng;
  slaw_params m_slaw;
  /// SLAW's stack condition as a bound on the parent's chain, m_level - m_stack_base (its
  /// length less one: chain_length_of_child() >= S exactly when that is >= S - 1, and for
  /// S = 0, always): one add less on the spawn path.
  std::uint32_t m_chain_bound;
  std::uint32_t m_until_eval;
  std::uint64_t m_stolen_at_eval = 0;
  std::uint64_t m_fresh_pushed = 0;
  std::uint64_t m_fresh_popped = 0;
  alignas(k_cache_line) std::atomic<std::uint64_t> m_stolen{0};  // thieves
  std::atomic<std::uint64_t> m_fresh_stolen{0};                  // thieves
  alignas(k_cache_line) counters m_counters;
};

/// The worker the calling thread is, or null off the runtime's threads.
constinit inline thread_local worker* t_worker = nullptr;
/// See transfer(): the lowest stack address transfers may nest down to before bouncing; set
/// by the worker loop, 0 off the runtime's threads. Its own thread_local, so the check is one
/// compare against a thread-relative address.
constinit inline thread_local std::uintptr_t t_stack_floor = 0;

/// How far transfers may nest on a worker's C stack before bouncing through the worker loop.
inline constexpr std::uintptr_t k_transfer_stack_budget = std::uintptr_t{256} << 10;

/// The current stack address, for transfer()'s depth check.
[[nodiscard]] inline std::uintptr_t stack_address() noexcept {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__aarch64__))
  std::uintptr_t sp;
#if defined(__x86_64__)
  asm volatile("mov %%rsp, %0" : "=r"(sp));
#else
  asm volatile("mov %0, sp" : "=r"(sp));
#endif
  return sp;
#else
  return reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
#endif
}

/// Whether the stack is below t_stack_floor: one compare of the stack pointer with the
/// thread-local floor in memory on x86-64 (the flag is the result), else through
/// stack_address().
[[nodiscard]] inline bool below_stack_floor() noexcept {
#if defined(__GNUC__) && defined(__x86_64__) && defined(__GCC_ASM_FLAG_OUTPUTS__)
  bool below;
  // rsp - floor borrows (CF: "b") exactly when rsp < floor, unsigned.
  asm volatile("cmp %1, %%rsp" : "=@ccb"(below) : "m"(t_stack_floor));
  return below;
#else
  return stack_address() < t_stack_floor;
#endif
}

/// What an await_suspend returns to continue with `h` on this worker.
///
/// Symmetric transfer (returning `h`) is a tail call only when the compiler makes it one: gcc
/// below -O2, -Og, and sanitizer builds (a hook after every call) make it a real call, so a
/// long chain of transfers (a whole fib(30)) would nest on the worker's C stack and overflow
/// it. So every transfer checks the stack: while it is within k_transfer_stack_budget of
/// where the worker loop resumed the first coroutine, it transfers directly; deeper, it hands
/// `h` to the worker loop (`next_resume`) and returns the no-op coroutine, which unwinds the
/// nested resumes back to the loop, which resumes `h`. In an optimised build the stack never
/// grows, the check never fires, and it costs a load and a compare. The choice is made at run
/// time by the same inline code in every translation unit, so a program built with other
/// flags than the library (-O0 against a release library, ASan against a plain one) agrees
/// with it by construction; the worker loop always drains `next_resume`.
[[nodiscard]] inline std::coroutine_handle<> transfer(std::coroutine_handle<> h) noexcept {
  if (below_stack_floor()) [[unlikely]] {
    t_worker->next_resume = h;
    return std::noop_coroutine();
  }
  return h;
}

/// Frame allocation for coroutine promises: the current worker's frame stack, else (t_frames is
/// the stand-in) the heap.
[[nodiscard]] inline void* frame_allocate(std::size_t n) {
  return t_frames->allocate(n);
}

/// frame_deallocate() for a block not on the current stacklet of this thread's worker: a heap
/// block, a block of another stacklet or another worker's, or a free off the workers.
inline void frame_deallocate_other(worker* w, block_header* h) noexcept {
  if (h->heap()) {
    heap_block_free(h);
  } else if (w != nullptr) {
    w->stack().deallocate_local(h);  // pops back or counts a remote free (deallocate_other)
  } else {
    frame_stack::free_remote(h);
  }
}

inline void frame_deallocate(void* p) noexcept {
  auto* h = reinterpret_cast<block_header*>(static_cast<char*>(p) - k_block_header);
  // The common case first: a block of this worker's current stacklet. No heap block lies in a
  // stacklet (a stacklet's bytes are all its own), so this test implies !h->heap(), which is
  // read only on the other paths.
  worker* w = t_worker;
  if (w != nullptr && w->stack().on_current(h)) [[likely]] {
    w->stack().deallocate_current(h);
    return;
  }
  frame_deallocate_other(w, h);
}

}  // namespace locus::detail
