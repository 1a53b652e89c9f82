// counters.cpp — a worker's counters read and reset without writing what the owner writes
// (locus/detail/counters.hpp explains the baseline and the idle clock).
#include "locus/detail/counters.hpp"

#include <algorithm>
#include <chrono>

namespace locus::detail {

std::int64_t counters::clock_ns() const noexcept {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() -
                                                              epoch)
      .count();
}

void counters::idle_begin(std::int64_t now) noexcept {
  idle_clock.store(idle_clock.load(std::memory_order_relaxed) - now - 1, std::memory_order_relaxed);
}

void counters::idle_end(std::int64_t now) noexcept {
  idle_clock.store(idle_clock.load(std::memory_order_relaxed) + now + 1, std::memory_order_relaxed);
}

std::uint64_t counters::idle_ns(std::int64_t now) const noexcept {
  const std::int64_t c = idle_clock.load(std::memory_order_relaxed);
  const std::int64_t total = c >= 0 ? c : c + now + 1;  // idle since t: total + (now - t)
  return total > 0 ? static_cast<std::uint64_t>(total) : 0;
}

worker_stats counters::raw(std::int64_t now) const noexcept {
  worker_stats s;
  for (const field_pair& f : fields)
    s.*f.stat = (this->*f.atomic).load(std::memory_order_relaxed);
  s.idle_ns = idle_ns(now);
  if (fence_episodes_source != nullptr)
    s.fence_episodes = fence_episodes_source->load(std::memory_order_relaxed);
  return s;
}

void counters::reset() noexcept {
  m_baseline = raw(clock_ns());
  m_idle_reported = 0;
}

worker_stats counters::snapshot() noexcept {
  const worker_stats r = raw(clock_ns());
  const worker_stats& b = m_baseline;
  // raw >= baseline (see the struct); the guard only keeps a misuse from wrapping around.
  const auto since = [](std::uint64_t now, std::uint64_t base) {
    return now > base ? now - base : 0;
  };
  worker_stats s;
  for (const field_pair& f : fields)
    s.*f.stat = since(r.*f.stat, b.*f.stat);
  // The spell in progress is read with this thread's clock after the owner's clock said when
  // it started; a spell that just ended may look a few nanoseconds longer than it was. Never
  // report less than last time.
  s.fence_episodes = since(r.fence_episodes, b.fence_episodes);
  s.idle_ns = std::max(since(r.idle_ns, b.idle_ns), m_idle_reported);
  m_idle_reported = s.idle_ns;
  return s;
}

}  // namespace locus::detail
