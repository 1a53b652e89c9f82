// locus/ext/observer.hpp — observers: what extensions learn of a run without the core naming
// them (steal-tree recording, tracing, the dataflow layer's deferred counts).
//
// An observer is installed on a runtime with core_ref::install_once and stays for the
// runtime's life (an observer that is done turns itself off with a flag of its own). The core
// calls observers only where a worker changes what it does, never on the spawn, sync, push or
// pop paths: when it picks up work from elsewhere (a steal, a donation, a pool), when its own
// deque runs empty, when it begins and ends looking for work and sleeping, and when a phase
// begins and ends. With no observer installed each of those points costs one load of a
// pointer and a branch; fib at one worker makes no such point per frame (docs/design/0011).
//
// Every call is made on the worker's own thread (phases: on the thread that begins or ends
// one) and must not throw. Observers must be safe to call from every worker at once.
#pragma once

#include <cstdint>

#include "locus/detail/frame.hpp"
#include "locus/ext/core.hpp"

namespace locus::ext {

class worker_ref;

/// A task's scheduling header, as an extension sees it: where it is in the spawn tree and the
/// scheduling word extensions own (detail/frame.hpp, m_schedule). Null for a runnable item
/// (a data-driven task with a plain body), which has no frame.
class task_ref {
 public:
  task_ref() noexcept = default;
  explicit task_ref(detail::frame* f) noexcept : m_f(f) {}
  /// The task of a work item (null for a runnable).
  [[nodiscard]] static task_ref of_item(std::uintptr_t item) noexcept {
    return task_ref(detail::is_runnable(item) ? nullptr : detail::item_frame(item));
  }

  [[nodiscard]] bool is_frame() const noexcept { return m_f != nullptr; }
  [[nodiscard]] std::uint32_t level() const noexcept { return m_f->m_level; }
  /// The index the frame got among its parent's children.
  [[nodiscard]] std::uint32_t spawn_index() const noexcept { return m_f->m_spawn_index; }
  /// The spawns the frame has made so far (the next child's index).
  [[nodiscard]] std::uint32_t next_spawn() const noexcept { return m_f->m_next_spawn; }
  [[nodiscard]] bool is_root() const noexcept { return m_f->m_kind == detail::frame_kind::root; }
  /// The scheduling word's halves (detail/frame.hpp): the phase the frame runs in (recording)
  /// and the strategy slot (replay). Written only by whoever runs or owns the frame.
  [[nodiscard]] std::uint32_t phase() const noexcept { return detail::schedule_phase(word()); }
  [[nodiscard]] std::uint32_t slot() const noexcept { return detail::schedule_slot(word()); }
  void set(std::uint32_t phase, std::uint32_t slot) noexcept {
    m_f->m_schedule = detail::make_schedule(phase, slot);
  }
  [[nodiscard]] detail::frame* frame() const noexcept { return m_f; }

  static constexpr std::uint32_t k_no_phase = detail::k_no_phase;

 private:
  [[nodiscard]] std::uint64_t word() const noexcept { return m_f->m_schedule; }
  detail::frame* m_f = nullptr;
};

/// How a worker got the work it picked up.
struct pickup {
  static constexpr unsigned k_from_pool = 0xffffffffu;
  unsigned from = k_from_pool;  ///< the worker it came from (steal, donation), or k_from_pool
  bool continuation = false;    ///< a parent's continuation (else a fresh child or a runnable)
  bool from_worker() const noexcept { return from != k_from_pool; }
};

/// A worker's idle spell, in order: looking, then maybe sleeping and woken (repeatedly), then
/// found (it picked up work) or stopping (the runtime stops). A worker whose deque ran empty
/// but whose first look through the acquisition strategy found work (a ready queue, a mailbox,
/// its first victim) has no spell: none of these events, no idle time.
enum class idle_event : std::uint8_t { looking, sleeping, woken, found, stopping };

enum class phase_event : std::uint8_t { begin, end };

class observer {
 public:
  virtual ~observer() = default;
  /// Worker `w` picked up `t` from elsewhere and is about to run it.
  virtual void on_pickup(worker_ref& w, task_ref t, const pickup& p) noexcept;
  /// Worker `w`'s deque ran empty. Return true if it did something that may have made work
  /// runnable on this worker's deque (deferred bookkeeping): the worker pops again.
  virtual bool before_idle(worker_ref& w) noexcept;
  virtual void on_idle(worker_ref& w, idle_event e) noexcept;
  /// A phase begins or ends (core_ref::begin_phase / end_phase), on that caller's thread.
  virtual void on_phase(core_ref c, const phase_info& info, phase_event e) noexcept;
};

}  // namespace locus::ext
