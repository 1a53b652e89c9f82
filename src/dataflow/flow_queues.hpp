// The flow scheduler's ready queues (locus/dataflow/flow_scheduler.hpp), as graph.cpp sees
// them: private to src/dataflow.
#pragma once

#include <cstdint>

#include "locus/dataflow/datablock.hpp"
#include "locus/dataflow/flow_scheduler.hpp"
#include "locus/ext/core.hpp"
#include "locus/ext/scheduler.hpp"

namespace locus::dataflow::detail {

struct edt_node;

/// The acquisition half of a flow scheduler; graph.cpp finds it behind the runtime's
/// acquisition strategy (ext::core_ref::acquisition_strategy) and pushes ready tasks into it.
class flow_queues : public ext::acquisition {
 public:
  [[nodiscard]] virtual flow_options options() const noexcept = 0;
  /// A graph on `rt` will push into the queues: makes them for `rt` if nobody has. Throws
  /// std::logic_error if they serve another runtime (one scheduler per runtime).
  virtual void attach(ext::core_ref rt) = 0;
  /// Worker `to`'s ready queue of runtime `rt` (attached) gets `item` (the task's runner
  /// frame or the task itself) for task `n`, with its weight for steal-half and its rank
  /// (priority, and cost in priority mode). Called on a worker of `rt` or, while `rt` is
  /// alive, on any thread; the cost is computed for `to` here. Throws std::bad_alloc.
  virtual void push(ext::core_ref rt, unsigned to, std::uintptr_t item, const edt_node& n) = 0;
};

/// The datablock of slot i's event, or null if it carries none. Defined in cost.cpp, like the
/// functions below.
[[nodiscard]] const datablock* block_of(const edt_node& n, std::uint32_t i) noexcept;
/// The worker of `rt` on the core that homes most of n's input datablock bytes (its largest
/// input), or -1 if none is homed on one of its cores (placement::near_data).
[[nodiscard]] int data_worker(const edt_node& n, ext::core_ref rt) noexcept;

/// The data-retrieval cost of task `n`'s input datablocks for a task run by worker `w` of `rt`:
/// for each slot whose event carries a datablock homed on a core, its bytes times the topology
/// distance between that core and w's (0 to 4).
[[nodiscard]] std::uint64_t retrieval_cost(const edt_node& n, ext::core_ref rt,
                                           unsigned w) noexcept;
/// The weight of `n` for steal-half under `m` (1 + its hint's count, saturating).
[[nodiscard]] std::uint32_t steal_weight(const edt_node& n, steal_mode m) noexcept;

}  // namespace locus::dataflow::detail
