// steal_tree_dot.cpp — a steal tree as Graphviz DOT, one colour per worker.
#include <array>
#include <initializer_list>
#include <string>
#include <string_view>

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
  // Built by appending pieces: gcc 12 misreports chains of string operator+ (-Wrestrict).
  std::string out;
  const auto put = [&out](std::initializer_list<std::string_view> pieces) {
    for (const std::string_view p : pieces)
      out.append(p);
  };
  const auto num = [](std::uint64_t v) { return std::to_string(v); };
  put({"digraph steal_tree {\n  label=\"steal tree: ", num(tree.size()), " nodes, ",
       num(tree.worker_count()), " workers\";\n",
       "  node [shape=box, style=filled, fontname=\"monospace\"];\n"});
  const auto nodes = tree.nodes();
  for (node_id i = 0; i < nodes.size(); ++i) {
    const steal_node& n = nodes[i];
    put({"  n", num(i), " [label=\""});
    if (i == 0)
      put({"root L", num(n.level)});
    else
      put({"(", num(n.level), ", ", num(n.spawn_index), ")"});
    if (n.kind == steal_kind::child) put({" child"});
    put({"\\nw", num(n.worker), " seq ", num(n.seq), "\", fillcolor=\"", worker_colour(n.worker),
         "\"];\n"});
  }
  for (node_id i = 1; i < nodes.size(); ++i)
    put({"  n", num(nodes[i].parent), " -> n", num(i), ";\n"});
  put({"  subgraph cluster_legend {\n    label=\"workers\";\n"});
  for (unsigned w = 0; w < tree.worker_count(); ++w) {
    put({"    legend_w", num(w), " [label=\"worker ", num(w), "\", fillcolor=\"", worker_colour(w),
         "\"];\n"});
  }
  put({"  }\n}\n"});
  return out;
}

}  // namespace locus::schedule
