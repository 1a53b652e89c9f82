// locus/detail/worker.hpp — a worker: its deque, frame stack, spawn-policy state and counters.
//
// Everything here is touched by the owning worker thread only, except the fields marked
// "thieves", which other workers update with relaxed atomics.
#pragma once

#include <atomic>
#include <coroutine>
#include <cstdint>

#include "locus/config.hpp"
#include "locus/detail/deque.hpp"
#include "locus/detail/frame.hpp"
#include "locus/detail/frame_stack.hpp"
#include "locus/stats.hpp"

namespace locus::detail {

struct runtime_state;

/// Per-worker counters. The owner updates them with a relaxed load and store (no read-modify-
/// write: nobody else writes), so they cost a plain add; stats() may read them at any time.
struct counters {
  using counter = std::atomic<std::uint64_t>;
  counter spawns_work_first{0}, spawns_help_first{0}, spawns_remote{0};
  counter stack_condition{0}, fresh_condition{0}, policy_switches{0};
  counter steals_attempted{0}, steals_succeeded{0}, mailbox_takes{0};
  counter syncs_suspended{0}, idle_ns{0}, sleeps{0};

  static void bump(counter& c, std::uint64_t by = 1) noexcept {
    c.store(c.load(std::memory_order_relaxed) + by, std::memory_order_relaxed);
  }
  void reset() noexcept;
  [[nodiscard]] worker_stats snapshot() const noexcept;
};

/// Sentinel for "the runtime's default policy" in spawn options.
inline constexpr std::uint8_t k_policy_default = 0xff;

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

  /// SLAW's spawn rule: does this spawn of a child of `parent` run work-first?
  [[nodiscard]] bool choose_work_first(const frame& parent, std::uint8_t policy) noexcept {
    const std::uint8_t p = policy == k_policy_default ? m_policy : policy;
    if (p == static_cast<std::uint8_t>(spawn_policy::work_first)) return true;
    if (p == static_cast<std::uint8_t>(spawn_policy::help_first)) return false;
    return choose_adaptive(parent);
  }

  /// The frames on this worker's "stack" in SLAW's sense are the ones it started or resumed
  /// since its last context switch and that are still running; they form the chain from the
  /// frame the worker last picked up (level m_base_level) to the current one.
  void context_switch(const frame& f) noexcept { m_base_level = f.m_level; }

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

  /// Trampoline builds only (see transfer()): the coroutine the worker loop resumes next.
  std::coroutine_handle<> next_resume;

 private:
  bool choose_adaptive(const frame& parent) noexcept {
    if (--m_until_eval == 0) [[unlikely]]
      reevaluate();
    // (i) stack condition, first because it is the hard bound: the on-stack frames are the
    // parent's chain down from m_base_level.
    if (parent.m_level + 1 - m_base_level >= m_slaw.stack_limit) [[unlikely]] {
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

  deque<std::uintptr_t> m_deque;
  frame_stack m_stack;
  runtime_state& m_rt;
  unsigned m_index;
  unsigned m_place;
  std::uint8_t m_policy;
  bool m_adaptive_work_first = false;  // SLAW starts help-first
  slaw_params m_slaw;
  std::uint32_t m_until_eval;
  std::uint32_t m_base_level = 0;
  std::uint64_t m_stolen_at_eval = 0;
  std::uint64_t m_fresh_pushed = 0;
  std::uint64_t m_fresh_popped = 0;
  alignas(k_cache_line) std::atomic<std::uint64_t> m_stolen{0};  // thieves
  std::atomic<std::uint64_t> m_fresh_stolen{0};                  // thieves
  alignas(k_cache_line) counters m_counters;
};

/// The worker the calling thread is, or null off the runtime's threads.
constinit inline thread_local worker* t_worker = nullptr;

/// Symmetric transfer relies on the compiler turning `return handle` from await_suspend into a
/// tail call. Sanitizer instrumentation (a hook after every call) prevents that, so a long
/// chain of transfers (a whole fib(25)) would nest as real calls and exhaust the stack. Those
/// builds bounce each transfer through the worker loop instead; the scheduling protocol is
/// the same. Define LOCUS_TRAMPOLINE=1 to force it elsewhere (e.g. -O0 builds).
#if !defined(LOCUS_TRAMPOLINE)
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define LOCUS_TRAMPOLINE 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define LOCUS_TRAMPOLINE 1
#endif
#endif
#endif
#if !defined(LOCUS_TRAMPOLINE)
#define LOCUS_TRAMPOLINE 0
#endif

/// What an await_suspend returns to continue with `h` on this worker.
[[nodiscard]] inline std::coroutine_handle<> transfer(std::coroutine_handle<> h) noexcept {
  if constexpr (LOCUS_TRAMPOLINE) {
    t_worker->next_resume = h;
    return std::noop_coroutine();
  } else {
    return h;
  }
}

/// Frame allocation for coroutine promises: the current worker's frame stack, else the heap.
[[nodiscard]] inline void* frame_allocate(std::size_t n) {
  if (worker* w = t_worker) [[likely]]
    return w->stack().allocate(n);
  return heap_block_allocate(n);
}

inline void frame_deallocate(void* p) noexcept {
  auto* h = reinterpret_cast<block_header*>(static_cast<char*>(p) - k_block_header);
  if (h->heap) [[unlikely]] {
    heap_block_free(h);
    return;
  }
  if (worker* w = t_worker) [[likely]] {
    w->stack().deallocate_local(h);
    return;
  }
  frame_stack::free_remote(frame_stack::stacklet_of(h));
}

}  // namespace locus::detail
