// smith-waterman, locus: the tiled wavefront as a graph of data-driven tasks (locus/dataflow).
// Tile (i, j) is a task with a slot for each neighbour it waits for, (i-1, j) and (i, j-1);
// it satisfies its own event when done, which readies the tiles below and to the right on the
// worker that finished it (the most recently enabled first). The graph is built inside a root
// task, in the timed region, like the oneTBB flow graph.
#include <locus/dataflow.hpp>
#include <locus/locus.hpp>

#include <cstddef>
#include <vector>

#include "../../kernel.hpp"
#include "../dag_hints.hpp"
#include "common.hpp"

namespace {

namespace df = locus::dataflow;

locus::task<void> wavefront(locus::runtime& rt, sw_kernel::instance& in) {
  const std::size_t rows = in.tile_rows, cols = in.tile_cols;
  df::graph g(rt);
  std::vector<df::event<>> done(rows * cols);
  // Row by row: a tile's neighbours exist when it is made. Tiles whose inputs are done by then
  // fire at once and run while the rest of the graph is built.
  for (std::size_t i = 0; i < rows; ++i) {
    for (std::size_t j = 0; j < cols; ++j) {
      const auto slots = static_cast<std::uint32_t>((i > 0 ? 1 : 0) + (j > 0 ? 1 : 0));
      df::edt t = g.task(slots, [&in, i, j, out = done[i * cols + j]]() mutable {
        sw_kernel::compute_tile(in, i, j);
        out.satisfy();
      });
      std::uint32_t s = 0;
      if (i > 0) df::add_dependence(done[(i - 1) * cols + j], t, s++);
      if (j > 0) df::add_dependence(done[i * cols + j - 1], t, s++);
    }
  }
  co_await g;
}

/// With dataflow options (locus-bench --flow, bench::flow_choice): the same wavefront, but a tile's
/// events carry its outputs as datablocks over the border arrays (its part of the last row,
/// read by the tile below, and of the last column, read by the tile to the right), made by the
/// tile's task and so homed on the core that ran it. The flow scheduler sees retrieval costs,
/// and locality accounting counts the border bytes.
locus::task<void> wavefront_flow(locus::runtime& rt, sw_kernel::instance& in,
                                 const std::vector<df::task_hint>& hints, df::placement place) {
  const std::size_t rows = in.tile_rows, cols = in.tile_cols, stride = in.d.n + 1;
  df::graph g(rt, {.place = place});
  std::vector<df::event<df::datablock>> down(rows * cols), across(rows * cols);
  for (std::size_t i = 0; i < rows; ++i) {
    for (std::size_t j = 0; j < cols; ++j) {
      const auto slots = static_cast<std::uint32_t>((i > 0 ? 1 : 0) + (j > 0 ? 1 : 0));
      df::edt t = g.task(
          slots,
          [&in, i, j, stride, d = down[i * cols + j], r = across[i * cols + j]]() mutable {
            sw_kernel::compute_tile(in, i, j);
            const std::size_t c0 = in.begin(j), c1 = in.end(j), r0 = in.begin(i), r1 = in.end(i);
            d.satisfy(df::datablock::wrap(&in.bottom[(i + 1) * stride + c0 + 1],
                                          (c1 - c0) * sizeof(sw_kernel::score)));
            r.satisfy(df::datablock::wrap(&in.right[(j + 1) * stride + r0 + 1],
                                          (r1 - r0) * sizeof(sw_kernel::score)));
          },
          hints[i * cols + j]);
      std::uint32_t s = 0;
      if (i > 0) df::add_dependence(down[(i - 1) * cols + j], t, s++);
      if (j > 0) df::add_dependence(across[i * cols + j - 1], t, s++);
    }
  }
  co_await g;
}

}  // namespace

bench::outcome smith_waterman_locus(const bench::args& a) {
  if (a.flow.on) {
    const df::placement place =
        a.flow.near_data ? df::placement::near_data : df::placement::enabling_worker;
    std::vector<df::task_hint> hints;
    const auto setup = [&hints](const std::string& size) {  // untimed: the DAG's hints
      sw_kernel::instance in = sw_kernel::setup_tiled(size);
      std::vector<std::vector<std::size_t>> preds(in.tile_rows * in.tile_cols);
      for (std::size_t i = 0; i < in.tile_rows; ++i) {
        for (std::size_t j = 0; j < in.tile_cols; ++j) {
          if (i > 0) preds[i * in.tile_cols + j].push_back((i - 1) * in.tile_cols + j);
          if (j > 0) preds[i * in.tile_cols + j].push_back(i * in.tile_cols + j - 1);
        }
      }
      hints = bench::dag_hints(preds);
      return in;
    };
    const auto body = [&](sw_kernel::instance& in) {
      a.rt->run(wavefront_flow(*a.rt, in, hints, place));
      return sw_kernel::gather(in);
    };
    return bench::measure(a.size, setup, body, sw_kernel::check);
  }
  const auto body = [&a](sw_kernel::instance& in) {
    a.rt->run(wavefront(*a.rt, in));
    return sw_kernel::gather(in);
  };
  return bench::measure(a.size, sw_kernel::setup_tiled, body, sw_kernel::check);
}
