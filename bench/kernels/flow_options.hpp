// bench/kernels/flow_options.hpp — dataflow scheduling options named in a kernel's size, for
// the locus versions of the task-graph kernels (cholesky, smith-waterman).
//
// A size may end in ":" tokens that pick the flow scheduler's options
// (locus/dataflow/flow_scheduler.hpp) and the graph's placement, e.g.
//   2048x256:half-pessimistic:priority:near-data
// steal: one | half-pessimistic | half-optimistic; queue: deque | priority; placement:
// enabling | near-data. A size with at least one token runs on a runtime whose scheduler is the
// flow scheduler (installed by the harness, bench/harness/execute.cpp, which also reports its
// counters as stats.flow), and the kernel passes its datablocks (tiles, borders) on its events
// so that retrieval costs and locality accounting see them; the options left out keep their
// defaults (one, deque, enabling). A size without tokens runs the kernel as before, on the
// runtime's own scheduler. Each option set is its own size, so its own JSON row.
#pragma once

#include <locus/dataflow.hpp>

#include <stdexcept>
#include <string>

namespace bench {

struct flow_choice {
  bool on = false;   ///< the size named options: run on the flow scheduler
  std::string base;  ///< the size without the options
  locus::dataflow::flow_options options;
  locus::dataflow::placement place = locus::dataflow::placement::enabling_worker;
};

/// Splits `size` into the kernel's own size and flow options. Throws std::invalid_argument for
/// an unknown token, naming it and the accepted ones.
[[nodiscard]] inline flow_choice parse_flow_size(const std::string& size) {
  namespace df = locus::dataflow;
  flow_choice c;
  const std::size_t colon = size.find(':');
  c.base = size.substr(0, colon);
  std::size_t at = colon;
  while (at != std::string::npos) {
    const std::size_t next = size.find(':', at + 1);
    const std::string tok = size.substr(at + 1, next == std::string::npos ? next : next - at - 1);
    at = next;
    c.on = true;
    if (tok == "one") {
      c.options.steal = df::steal_mode::one;
    } else if (tok == "half-pessimistic") {
      c.options.steal = df::steal_mode::half_pessimistic;
    } else if (tok == "half-optimistic") {
      c.options.steal = df::steal_mode::half_optimistic;
    } else if (tok == "deque") {
      c.options.queue = df::ready_queue::deque;
    } else if (tok == "priority") {
      c.options.queue = df::ready_queue::priority;
    } else if (tok == "enabling") {
      c.place = df::placement::enabling_worker;
    } else if (tok == "near-data") {
      c.place = df::placement::near_data;
    } else {
      throw std::invalid_argument(
          "size '" + size + "': unknown dataflow option '" + tok +
          "' (expected one, half-pessimistic, half-optimistic, deque, priority, enabling, "
          "near-data)");
    }
  }
  return c;
}

}  // namespace bench
