// cholesky, oneTBB: a flow graph with one continue_node per tile operation and an edge from
// each operation to those that wait for it (cholesky_kernel::make_task_graph: the last writer
// of every tile an operation touches). Building the graph is part of the timed region.
#ifdef LOCUS_HAVE_OPENBLAS

#include <tbb/flow_graph.h>

#include <memory>
#include <vector>

#include "../../kernel.hpp"
#include "common.hpp"

namespace {

namespace flow = tbb::flow;

void run(cholesky_kernel::tiled_matrix& a) {
  const cholesky_kernel::task_graph tasks = cholesky_kernel::make_task_graph(a.size().tiles());
  flow::graph g;
  std::vector<std::unique_ptr<flow::continue_node<flow::continue_msg>>> nodes;
  nodes.reserve(tasks.tasks.size());
  for (std::size_t t = 0; t < tasks.tasks.size(); ++t) {
    nodes.push_back(std::make_unique<flow::continue_node<flow::continue_msg>>(
        g, [&a, task = tasks.tasks[t]](const flow::continue_msg&) {
          cholesky_kernel::run_task(a, task);
          return flow::continue_msg{};
        }));
    for (std::size_t p : tasks.preds[t])
      flow::make_edge(*nodes[p], *nodes[t]);
  }
  for (std::size_t t = 0; t < nodes.size(); ++t) {
    if (tasks.preds[t].empty()) nodes[t]->try_put(flow::continue_msg{});
  }
  g.wait_for_all();
}

}  // namespace

bench::outcome cholesky_tbb(const bench::args& a) {
  const auto body = [](cholesky_kernel::instance& in) { run(in.work); };
  return bench::measure(a.size, cholesky_kernel::setup_tiled, body, cholesky_kernel::check_tiled);
}

#endif  // LOCUS_HAVE_OPENBLAS
