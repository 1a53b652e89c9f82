// src/schedule/recorder.hpp — steal-tree recording as an observer (docs/design/0008,
// "Recording"; locus/ext/observer.hpp). Private to src/schedule: the phases (replay_phase.cpp)
// install it on a runtime and turn it on for a traced phase; extraction (extract.cpp) asks it
// whether a phase is traced.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "locus/ext/observer.hpp"
#include "locus/schedule/steal_tree.hpp"

namespace locus::schedule::detail {

/// One worker's recording: written by that worker alone, at the pickups it makes while a phase
/// is traced; read and cleared by the thread that runs the traced phase, before it starts and
/// after it returns.
struct alignas(64) worker_trace {
  steal_log log;
  std::uint32_t next_seq = 0;  ///< the worker's sequence number for its next phase
  bool overflow = false;       ///< a record was lost (ids exhausted, no memory): incomplete
};

/// What a traced phase leaves besides the logs: its root phase, written by the worker that
/// picks up the root (once per phase), read after the phase returned.
struct trace_root {
  std::uint32_t worker = 0;
  std::uint32_t seq = 0;
  bool seen = false;
};

/// Records one steal-tree node per pickup of a traced phase's work from another worker.
class steal_recorder final : public ext::observer {
 public:
  explicit steal_recorder(unsigned workers) : m_traces(workers) {}

  /// The recorder of `core`, installed now if it has none.
  static steal_recorder& of(ext::core_ref core);
  /// The recorder of `core` if one was installed, else null.
  static steal_recorder* find(ext::core_ref core) noexcept;

  void on_pickup(ext::worker_ref& w, ext::task_ref f, const ext::pickup& p) noexcept override;

  /// On while a traced phase runs. Read relaxed at each pickup; set before the phase's root is
  /// published and cleared after the phase returned, so every pickup of the phase's work sees
  /// it set (the root's publication and the deques' release/acquire order it before them).
  std::atomic<bool> on{false};
  /// Before a traced phase (no traced work exists): clear every log and the root.
  void clear() noexcept;
  [[nodiscard]] std::vector<worker_trace>& traces() noexcept { return m_traces; }
  [[nodiscard]] const trace_root& root() const noexcept { return m_root; }

 private:
  std::vector<worker_trace> m_traces;  ///< per worker
  trace_root m_root;
};

}  // namespace locus::schedule::detail
