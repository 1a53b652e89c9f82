// steal_tree_dot.cpp — a steal tree as Graphviz DOT, one colour per worker.
#include <array>
#include <string>

#include "locus/schedule/steal_tree_io.hpp"

namespace locus::schedule {

namespace {

// Twelve colours that stay apart on screen and in print (ColorBrewer's Paired, reordered so
// that neighbouring worker numbers get different hues); black text reads on all of them.
constexpr std::array<std::string_view, 12> k_palette = {"#a6cee3", "#fdbf6f", "#b2df8a", "#fb9a99",
                                                        "#cab2d6", "#ffff99", "#1f78b4", "#ff7f00",
                                                        "#33a02c", "#e31a1c", "#6a3d9a", "#b15928"};

}  // namespace

std::string_view worker_colour(std::uint32_t worker) noexcept {
  return k_palette[worker % k_palette.size()];
}

std::string to_dot(const steal_tree& tree) {
  std::string out = "digraph steal_tree {\n";
  out += "  label=\"steal tree: " + std::to_string(tree.size()) + " nodes, " +
         std::to_string(tree.worker_count()) + " workers\";\n";
  out += "  node [shape=box, style=filled, fontname=\"monospace\"];\n";
  const auto nodes = tree.nodes();
  for (node_id i = 0; i < nodes.size(); ++i) {
    const steal_node& n = nodes[i];
    std::string label;
    if (i == 0)
      label = "root L" + std::to_string(n.level);
    else
      label = "(" + std::to_string(n.level) + ", " + std::to_string(n.spawn_index) + ")";
    if (n.kind == steal_kind::child) label += " child";
    label += "\\nw" + std::to_string(n.worker) + " seq " + std::to_string(n.seq);
    out += "  n" + std::to_string(i) + " [label=\"" + label + "\", fillcolor=\"" +
           std::string(worker_colour(n.worker)) + "\"];\n";
  }
  for (node_id i = 1; i < nodes.size(); ++i)
    out += "  n" + std::to_string(nodes[i].parent) + " -> n" + std::to_string(i) + ";\n";
  out += "  subgraph cluster_legend {\n    label=\"workers\";\n";
  for (unsigned w = 0; w < tree.worker_count(); ++w) {
    out += "    legend_w" + std::to_string(w) + " [label=\"worker " + std::to_string(w) +
           "\", fillcolor=\"" + std::string(worker_colour(w)) + "\"];\n";
  }
  out += "  }\n}\n";
  return out;
}

}  // namespace locus::schedule
