// The graph object's side of a graph's state: creation and release, waiting (wait(), co_await
// g), and the error report of a failure nobody was told of (docs/design/0010-dataflow.md,
// "Graph completion" and "Failures").
#include <cstdio>
#include <exception>
#include <mutex>
#include <string>

#include "flow_queues.hpp"
#include "graph_state.hpp"
#include "locus/dataflow/graph.hpp"
#include "locus/ext/core.hpp"

namespace locus::dataflow::detail {

graph_state* graph_create(locus::runtime& rt, graph_options o) {
  auto* g = new graph_state;
  g->rt = ext::core_ref::of(rt);
  g->rt_alive = g->rt.liveness();
  g->place = o.place;
  g->flow = dynamic_cast<flow_queues*>(g->rt.acquisition_strategy());
  try {
    if (g->flow != nullptr) g->flow->attach(g->rt);
    install_debt_observer(g->rt);
  } catch (...) {
    delete g;
    throw;
  }
  return g;
}

void graph_release(graph_state* g) noexcept {
  std::uint64_t after = 0;
  {
    // Under the mutex: a finisher that is notifying holds it, so it is done with g (task_done).
    std::lock_guard lk(g->mutex);
    after = g->counts.fetch_sub(k_alive, std::memory_order_acq_rel) - k_alive;
  }
  if (after == 0) delete g;  // no task is unfinished; none can be created any more
}

bool graph_done(const graph_state& g) noexcept {
  return graph_is_done(g);
}

std::int64_t graph_pending(const graph_state& g) noexcept {
  return static_cast<std::int64_t>(pending_of(g.counts.load(std::memory_order_acquire)));
}

std::int64_t graph_skipped(const graph_state& g) noexcept {
  return static_cast<std::int64_t>(g.skipped.load(std::memory_order_relaxed));
}

void graph_rethrow(graph_state& g) {
  if (g.failed.load(std::memory_order_acquire)) {
    g.observed.store(true, std::memory_order_relaxed);
    std::rethrow_exception(g.error.get());
  }
}

namespace {
/// The error report of a failure nobody was told of: one line on standard error, naming the
/// exception and the tasks skipped. Never throws (it runs in the state's destructor).
void report_unobserved(const graph_state& g) noexcept {
  std::string what = "an exception not derived from std::exception";
  try {
    std::rethrow_exception(g.error.get());
  } catch (const std::exception& e) {
    what = e.what();
  } catch (...) {
  }
  std::fprintf(stderr,
               "locus: a dataflow graph failed and no wait() or co_await reported it: %s (%llu "
               "ready tasks skipped)\n",
               what.c_str(), static_cast<unsigned long long>(g.skipped.load()));
}
}  // namespace

graph_state::~graph_state() {
  if (failed.load(std::memory_order_acquire) && !observed.load(std::memory_order_relaxed))
    report_unobserved(*this);
}

void graph_wait(graph_state& g) {
  if (ext::core_ref::current())
    throw_error("locus::dataflow::graph::wait would block a worker: co_await the graph instead");
  // Tasks that were ready or running when the runtime was destroyed never finish: refuse to
  // wait for them (the graph cannot be done later unless it is done now).
  if (!graph_is_done(g) && !g.rt_alive->load(std::memory_order_acquire))
    throw_error("locus::dataflow::graph::wait: the graph's runtime was destroyed while " +
                std::to_string(graph_pending(g)) +
                " of its tasks were unfinished; they will never run (wait before destroying "
                "the runtime)");
  {
    std::unique_lock lk(g.mutex);
    g.cv.wait(lk, [&] { return graph_is_done(g); });
  }
  graph_rethrow(g);
}

bool graph_suspend(graph_state& g, locus::detail::frame& f) {
  std::lock_guard lk(g.mutex);
  if (graph_is_done(g)) return false;
  g.frames.push_back(&f);
  return true;
}

}  // namespace locus::dataflow::detail
