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

}  // namespace

bench::outcome smith_waterman_locus(const bench::args& a) {
  const auto body = [&a](sw_kernel::instance& in) {
    a.rt->run(wavefront(*a.rt, in));
    return sw_kernel::gather(in);
  };
  return bench::measure(a.size, sw_kernel::setup_tiled, body, sw_kernel::check);
}
