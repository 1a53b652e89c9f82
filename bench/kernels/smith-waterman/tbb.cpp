// smith-waterman, oneTBB: a flow graph with one continue_node per tile and an edge into it from
// the tile to its left and the tile above; the top-left tile is started, the graph drains.
// Building the graph is part of the timed region, as creating the tasks is for OpenMP.
#include <tbb/flow_graph.h>

#include <cstddef>
#include <memory>
#include <vector>

#include "../../kernel.hpp"
#include "common.hpp"

namespace {

namespace flow = tbb::flow;

void run(sw_kernel::instance& in) {
  const std::size_t rows = in.tile_rows, cols = in.tile_cols;
  flow::graph g;
  std::vector<std::unique_ptr<flow::continue_node<flow::continue_msg>>> nodes;
  nodes.reserve(rows * cols);
  for (std::size_t i = 0; i < rows; ++i) {
    for (std::size_t j = 0; j < cols; ++j) {
      nodes.push_back(std::make_unique<flow::continue_node<flow::continue_msg>>(
          g, [&in, i, j](const flow::continue_msg&) {
            sw_kernel::compute_tile(in, i, j);
            return flow::continue_msg{};
          }));
      if (i > 0) flow::make_edge(*nodes[(i - 1) * cols + j], *nodes.back());
      if (j > 0) flow::make_edge(*nodes[i * cols + j - 1], *nodes.back());
    }
  }
  nodes.front()->try_put(flow::continue_msg{});
  g.wait_for_all();
}

}  // namespace

bench::outcome smith_waterman_tbb(const bench::args& a) {
  const auto body = [](sw_kernel::instance& in) {
    run(in);
    return sw_kernel::gather(in);
  };
  return bench::measure(a.size, sw_kernel::setup_tiled, body, sw_kernel::check);
}
