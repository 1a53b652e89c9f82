// locus/iterate.hpp — iterations the runtime can see (docs/design/0017-laws.md).
//
//   std::vector<locus::iteration_stats> per_step =
//       locus::iterate(rt, steps, [&](std::size_t i) -> locus::task<void> { co_await step(i); });
//
// Runs body(0), ..., body(n - 1) one after another, each as one root run (runtime::run), and
// tells the scheduler where each begins and ends (ext::iteration_hooks: LAWS learns the task
// tree in the first and tunes its packing on the next). Returns one record per iteration: its
// wall time, with accounting on its local share, bytes and modelled misses, and what the
// scheduler did (stage, workload, cross-socket takes, CF roots, packing). Under a scheduler
// without hooks (slaw, cilk) it measures the same way, so runs compare side by side. The
// runtime keeps the same records for runtime::stats() (runtime_stats::iterations, cleared by
// reset_stats()), so code that does not hold iterate's result (locus-bench) sees them too.
//
// Errors: a body that does not return locus::task<void> does not compile; calling iterate
// from a worker, or inside another iterate's body, throws std::logic_error; an exception of an
// iteration's task, or of the scheduler's end of it (LAWS: a task's data outside its root's),
// ends the loop and reaches the caller (the records so far are lost with it).
#pragma once

#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "locus/ext/scheduler.hpp"
#include "locus/runtime.hpp"
#include "locus/task.hpp"

namespace locus {

// iteration_stats (the record) and to_json(records) are in locus/stats.hpp: runtime::stats()
// keeps the same records (runtime_stats::iterations).

namespace detail {
/// One iterate() call on a runtime: begin() and end() bracket each iteration's run.
class iteration_scope {
 public:
  explicit iteration_scope(runtime& rt);  // throws std::logic_error on misuse
  ~iteration_scope();
  iteration_scope(const iteration_scope&) = delete;
  iteration_scope& operator=(const iteration_scope&) = delete;
  void begin(std::size_t index);
  [[nodiscard]] iteration_stats end(std::size_t index);

 private:
  struct snapshot;
  runtime& m_rt;
  std::uint64_t m_t0 = 0;
  std::vector<std::uint64_t> m_before;  ///< locality counters at begin (see iterate.cpp)
  bool m_open = false;
};
}  // namespace detail

template <class Body>
std::vector<iteration_stats> iterate(runtime& rt, std::size_t n, Body&& body) {
  static_assert(std::is_invocable_v<Body&, std::size_t>,
                "locus::iterate: the body must be callable with the iteration's index "
                "(std::size_t)");
  static_assert(std::is_same_v<std::invoke_result_t<Body&, std::size_t>, task<void>>,
                "locus::iterate: the body must return locus::task<void>");
  detail::iteration_scope scope(rt);
  std::vector<iteration_stats> out;
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    task<void> t = body(i);
    scope.begin(i);
    rt.run(std::move(t));
    out.push_back(scope.end(i));
  }
  return out;
}

}  // namespace locus
