// cholesky, locus: one data-driven task (locus/dataflow) per tile operation, with a slot for
// each operation it waits for (cholesky_kernel::make_task_graph: the last writer of every tile
// it touches, the graph the oneTBB and OpenMP versions run). An operation satisfies its own
// event when done; the operation that becomes ready runs next on the worker that enabled it.
// Building the graph is part of the timed region, as for oneTBB.
#ifdef LOCUS_HAVE_OPENBLAS

#include <locus/dataflow.hpp>
#include <locus/locus.hpp>

#include <vector>

#include "../../kernel.hpp"
#include "common.hpp"

namespace {

namespace df = locus::dataflow;

locus::task<void> factor(locus::runtime& rt, cholesky_kernel::tiled_matrix& a) {
  const cholesky_kernel::task_graph tasks = cholesky_kernel::make_task_graph(a.size().tiles());
  df::graph g(rt);
  std::vector<df::event<>> done(tasks.tasks.size());
  for (std::size_t t = 0; t < tasks.tasks.size(); ++t) {
    const auto& preds = tasks.preds[t];
    df::edt e = g.task(static_cast<std::uint32_t>(preds.size()),
                       [&a, task = tasks.tasks[t], out = done[t]]() mutable {
                         cholesky_kernel::run_task(a, task);
                         out.satisfy();
                       });
    for (std::size_t s = 0; s < preds.size(); ++s)
      df::add_dependence(done[preds[s]], e, static_cast<std::uint32_t>(s));
  }
  co_await g;
}

}  // namespace

bench::outcome cholesky_locus(const bench::args& a) {
  const auto body = [&a](cholesky_kernel::instance& in) { a.rt->run(factor(*a.rt, in.work)); };
  return bench::measure(a.size, cholesky_kernel::setup_tiled, body, cholesky_kernel::check_tiled);
}

#endif  // LOCUS_HAVE_OPENBLAS
