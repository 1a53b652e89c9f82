// locus/detail/counters.hpp — a worker's counters: the atomics its owner bumps, and the reset
// and snapshot that runtime::stats() and reset_stats() read them through. The counters are
// those of LOCUS_COUNTED_FIELDS (locus/stats.hpp), declared there once.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>

#include "locus/stats.hpp"

/// counters::bump as one add instruction: x86-64 with gcc or clang, and not under
/// ThreadSanitizer, which sees no write an asm statement makes (it then checks the portable
/// form, an atomic load and store).
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && \
    !defined(__SANITIZE_THREAD__)
#define LOCUS_COUNTER_ADD 1
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#undef LOCUS_COUNTER_ADD
#define LOCUS_COUNTER_ADD 0
#endif
#endif
#else
#define LOCUS_COUNTER_ADD 0
#endif

namespace locus::detail {

/// Per-worker counters. The owner updates them with a relaxed load and store (no read-modify-
/// write, no fence: nobody else writes them), so they cost a plain add.
///
/// Readers (runtime::stats() and reset_stats(), holding `reader_mutex`) never write them:
/// reset() records a baseline, the raw values at that moment, and snapshot() reports raw minus
/// baseline. (A reset that stored zeros could be lost: the owner loads 1000, the reset stores
/// 0, the owner stores 1001.) Raw values only grow, and the mutex orders a snapshot after the
/// reset whose baseline it subtracts, so by coherence raw >= baseline.
///
/// Idle time is one word, `idle_clock`, so that a reader sees the finished spells and the one
/// in progress consistently (two words could be read half-updated: a spell counted twice or
/// not at all). While the worker is busy it holds `total`, the nanoseconds of its finished
/// idle spells (>= 0); while it looks for work or sleeps, since time `t` (clock_ns()), it holds
/// `total - t - 1`, negative because the finished spells fit in [0, t]. A reader adds `now - t`.
struct counters {
  using counter = std::atomic<std::uint64_t>;
#define LOCUS_COUNTER_ATOMIC(field, ...) counter field{0};
  LOCUS_COUNTED_FIELDS(LOCUS_COUNTER_ATOMIC)
#undef LOCUS_COUNTER_ATOMIC
  std::atomic<std::int64_t> idle_clock{0};  ///< see above; the owner writes
  const std::chrono::steady_clock::time_point epoch = std::chrono::steady_clock::now();

  static void bump(counter& c, std::uint64_t by = 1) noexcept {
#if LOCUS_COUNTER_ADD
    // One add to memory, without a lock prefix: the owner is the only writer, and an aligned
    // 8-byte write is seen whole by another core's load (readers' relaxed atomic loads see the
    // old value or the new one). The portable form below is a load, an add and a store
    // (gcc 12 does not fold a relaxed load and store into one add): two instructions more on
    // every spawn (spawns_work_first, spawns_help_first).
    static_assert(sizeof(counter) == sizeof(std::uint64_t));
    asm volatile("addq %1, %0" : "+m"(*reinterpret_cast<std::uint64_t*>(&c)) : "er"(by));
#else
    c.store(c.load(std::memory_order_relaxed) + by, std::memory_order_relaxed);
#endif
  }
  /// Nanoseconds since `epoch`: the clock of idle_clock.
  [[nodiscard]] std::int64_t clock_ns() const noexcept;
  /// Owner: an idle spell (looking for work, asleep) begins / ends at `now` (clock_ns()).
  void idle_begin(std::int64_t now) noexcept;
  void idle_end(std::int64_t now) noexcept;
  /// Idle nanoseconds up to `now`, the spell in progress included. Any thread.
  [[nodiscard]] std::uint64_t idle_ns(std::int64_t now) const noexcept;

  /// Readers only, holding reader_mutex: restart every counter from zero; read them since the
  /// last reset (idle_ns never below what the previous snapshot reported).
  void reset() noexcept;
  [[nodiscard]] worker_stats snapshot() noexcept;
  /// The owner's deque's count of switches to the fenced pop (deque::fence_switch_counter()),
  /// reported as fence_episodes with the same baseline as the counters above. Set once, before
  /// the worker runs; null reports 0.
  const std::atomic<std::uint64_t>* fence_episodes_source = nullptr;
  std::mutex reader_mutex;  ///< serializes readers, of the frame stack's peak too (not the owner)

  /// Each atomic counter beside the worker_stats field it is reported in.
  struct field_pair {
    counter counters::*atomic;
    std::uint64_t worker_stats::*stat;
  };
  static constexpr std::array fields = {
#define LOCUS_COUNTER_PAIR(field, ...) field_pair{&counters::field, &worker_stats::field},
      LOCUS_COUNTED_FIELDS(LOCUS_COUNTER_PAIR)
#undef LOCUS_COUNTER_PAIR
  };

 private:
  [[nodiscard]] worker_stats raw(std::int64_t now) const noexcept;
  worker_stats m_baseline;            ///< readers: raw values at the last reset
  std::uint64_t m_idle_reported = 0;  ///< readers: idle_ns of the last snapshot since reset
};

}  // namespace locus::detail
