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
#include "../dag_hints.hpp"
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

/// With dataflow options (locus-bench --flow, bench::flow_choice): the same graph, but every tile
/// is a datablock over the matrix's own storage, and each operation's slots carry the tiles it
/// touches: slot 0 the tile it writes (access::write, which moves the tile's home to the
/// worker that runs it), then the tiles it reads, each from its last writer's event. So the
/// flow scheduler sees retrieval costs, and locality accounting counts the tiles' bytes.
locus::task<void> factor_flow(locus::runtime& rt, cholesky_kernel::tiled_matrix& a,
                              const cholesky_kernel::task_graph& tasks,
                              const std::vector<df::task_hint>& hints, df::placement place) {
  const std::size_t nt = a.size().tiles(), bytes = a.size().b * a.size().b * sizeof(double);
  df::graph g(rt, {.place = place});
  std::vector<df::event<df::datablock>> cur(nt * nt);  // each lower tile's latest version
  for (std::size_t i = 0; i < nt; ++i)
    for (std::size_t j = 0; j <= i; ++j)
      cur[i * nt + j].satisfy(df::datablock::wrap(a.tile(i, j), bytes));
  using op = cholesky_kernel::tile_task::op;
  for (std::size_t t = 0; t < tasks.tasks.size(); ++t) {
    const cholesky_kernel::tile_task task = tasks.tasks[t];
    std::vector<std::size_t> reads;
    if (task.kind == op::trsm) reads = {task.k * nt + task.k};
    if (task.kind == op::syrk) reads = {task.i * nt + task.k};
    if (task.kind == op::gemm) reads = {task.i * nt + task.k, task.j * nt + task.k};
    df::event<df::datablock> out;
    df::edt e = g.task(
        static_cast<std::uint32_t>(1 + reads.size()),
        [&a, task, out](df::edt_args& in) mutable {
          (void)in.write(0);  // the written tile's home becomes this worker's core
          cholesky_kernel::run_task(a, task);
          out.satisfy(in.get<df::datablock>(0));
        },
        hints[t]);
    const std::size_t written = task.i * nt + task.j;
    df::add_dependence(cur[written], e, 0, locus::access::write);
    for (std::size_t s = 0; s < reads.size(); ++s)
      df::add_dependence(cur[reads[s]], e, static_cast<std::uint32_t>(1 + s));
    cur[written] = std::move(out);
  }
  co_await g;
}

}  // namespace

bench::outcome cholesky_locus(const bench::args& a) {
  if (a.flow.on) {
    const df::placement place =
        a.flow.near_data ? df::placement::near_data : df::placement::enabling_worker;
    cholesky_kernel::task_graph tasks;
    std::vector<df::task_hint> hints;
    const auto setup = [&](const std::string& size) {  // untimed: the graph and its hints
      cholesky_kernel::instance in = cholesky_kernel::setup_tiled(size);
      tasks = cholesky_kernel::make_task_graph(in.d.tiles());
      hints = bench::dag_hints(tasks.preds);
      return in;
    };
    const auto body = [&](cholesky_kernel::instance& in) {
      a.rt->run(factor_flow(*a.rt, in.work, tasks, hints, place));
    };
    return bench::measure(a.size, setup, body, cholesky_kernel::check_tiled);
  }
  const auto body = [&a](cholesky_kernel::instance& in) { a.rt->run(factor(*a.rt, in.work)); };
  return bench::measure(a.size, cholesky_kernel::setup_tiled, body, cholesky_kernel::check_tiled);
}

#endif  // LOCUS_HAVE_OPENBLAS
