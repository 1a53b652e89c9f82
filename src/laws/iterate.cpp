// locus::iterate's measurements and the scheduler's iteration hooks (locus/iterate.hpp).
#include "locus/iterate.hpp"

#include <chrono>
#include <stdexcept>

#include "locus/ext/core.hpp"
#include "locus/locality/stats.hpp"

namespace locus::detail {

namespace {

thread_local const runtime* t_iterating =
    nullptr;  // the runtime an iterate() on this thread drives

std::uint64_t now_ns() {
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        std::chrono::steady_clock::now().time_since_epoch())
                                        .count());
}

/// The locality counters an iteration's record is the difference of: local bytes, placed
/// bytes, all bytes, L3 misses, of which remote, private misses, then bytes per socket.
std::vector<std::uint64_t> counters_of(const locality_stats& s) {
  std::vector<std::uint64_t> v{s.total.local(),          s.total.placed(),
                               s.total.total(),          s.l3_total.misses.total(),
                               s.l3_total.misses.remote, s.private_total.misses.total()};
  for (const auto& b : s.per_socket)
    v.push_back(b.total());
  return v;
}

}  // namespace

iteration_scope::iteration_scope(runtime& rt) : m_rt(rt) {
  if (ext::core_ref::current())
    throw std::logic_error(
        "locus::iterate: called on a worker; expected the thread that owns "
        "the runtime (iterate runs each iteration with runtime::run)");
  if (t_iterating != nullptr)
    throw std::logic_error(
        "locus::iterate: called inside another iterate's body; expected one "
        "iteration loop at a time (nest the loops inside one body instead)");
  t_iterating = &rt;
}

iteration_scope::~iteration_scope() {
  if (m_open) {
    // An iteration's run threw: close it for the scheduler, dropping what it would report.
    ext::iteration_record r;
    if (ext::iteration_hooks* h = ext::core_ref::of(m_rt).iteration_strategy()) {
      try {
        h->end(ext::core_ref::of(m_rt), r);
      } catch (...) {  // the run's own exception is the one that propagates
      }
    }
  }
  t_iterating = nullptr;
}

void iteration_scope::begin(std::size_t index) {
  if (m_rt.cfg().accounting) m_before = counters_of(m_rt.locality());
  if (ext::iteration_hooks* h = ext::core_ref::of(m_rt).iteration_strategy())
    h->begin(ext::core_ref::of(m_rt), index);
  m_open = true;
  m_t0 = now_ns();
}

iteration_stats iteration_scope::end(std::size_t index) {
  iteration_stats r;
  r.time_ns = now_ns() - m_t0;
  r.index = index;
  r.scheduler = m_rt.scheduler_name();
  if (m_rt.cfg().accounting) {
    const std::vector<std::uint64_t> after = counters_of(m_rt.locality());
    // Counters only grow, unless reset_stats() ran meanwhile: then the count since the reset.
    const auto d = [&](std::size_t i) {
      return i < m_before.size() && after[i] >= m_before[i] ? after[i] - m_before[i] : after[i];
    };
    r.accounting = true;
    if (d(1) != 0) r.local_share = static_cast<double>(d(0)) / static_cast<double>(d(1));
    r.bytes = d(2);
    r.l3_misses = d(3);
    r.l3_remote_misses = d(4);
    r.private_misses = d(5);
    for (std::size_t i = 6; i < after.size(); ++i)
      r.bytes_per_socket.push_back(d(i));
  }
  m_open = false;
  if (ext::iteration_hooks* h = ext::core_ref::of(m_rt).iteration_strategy())
    h->end(ext::core_ref::of(m_rt), r);
  // Kept for runtime::stats() once complete (a scheduler's end that throws keeps nothing).
  ext::core_ref::of(m_rt).record_iteration(r);
  return r;
}

}  // namespace locus::detail
