// steal_tree.cpp — building, walking and checking a steal tree. Every pass is a loop: a parent's
// index is below its children's, so one forward pass sees parents first, and the explicit
// stacks and queues below never recurse as deep as the tree.
#include "locus/schedule/steal_tree.hpp"

#include <locus/config.hpp>

#include <algorithm>
#include <deque>
#include <stdexcept>
#include <utility>

namespace locus::schedule {

namespace {

void check_worker_count(unsigned workers, std::string_view what) {
  if (workers < 1 || workers > k_max_steal_tree_workers) {
    throw make_config_error(what, std::to_string(workers),
                            "1 to " + std::to_string(k_max_steal_tree_workers));
  }
}

}  // namespace

double memory_report::kib_per_worker() const noexcept {
  if (bytes_per_worker.empty()) return 0;
  return static_cast<double>(total_bytes) / 1024.0 / static_cast<double>(bytes_per_worker.size());
}

steal_tree::steal_tree(unsigned workers, std::uint32_t root_worker, std::uint32_t root_seq,
                       std::uint32_t root_level, std::string topology)
    : m_workers(workers), m_topology(std::move(topology)) {
  check_worker_count(workers, "steal_tree workers");
  if (root_worker >= workers) {
    throw make_config_error("steal_tree root_worker", std::to_string(root_worker),
                            "0 to " + std::to_string(workers - 1));
  }
  steal_node root;
  root.level = root_level;
  root.worker = root_worker;
  root.seq = root_seq;
  m_nodes.push_back(root);
  m_last_child.push_back(k_no_node);
}

node_id steal_tree::add_steal(node_id parent, std::uint32_t level, std::uint32_t spawn_index,
                              std::uint32_t worker, std::uint32_t seq, steal_kind kind) {
  if (parent >= m_nodes.size()) {
    throw make_config_error("add_steal parent", std::to_string(parent),
                            "an existing node, 0 to " + std::to_string(m_nodes.size() - 1));
  }
  if (worker >= m_workers) {
    throw make_config_error("add_steal worker", std::to_string(worker),
                            "0 to " + std::to_string(m_workers - 1));
  }
  if (m_nodes.size() >= k_no_node) throw std::length_error("steal_tree: too many nodes");
  const auto id = static_cast<node_id>(m_nodes.size());
  steal_node n;
  n.level = level;
  n.spawn_index = spawn_index;
  n.worker = worker;
  n.seq = seq;
  n.parent = parent;
  n.kind = kind;
  if (m_last_child[parent] == k_no_node)
    m_nodes[parent].first_child = id;
  else
    m_nodes[m_last_child[parent]].next_sibling = id;
  m_last_child[parent] = id;
  m_nodes.push_back(n);
  m_last_child.push_back(k_no_node);
  return id;
}

std::vector<node_id> steal_tree::children(node_id n) const {
  std::vector<node_id> out;
  for (node_id c = node(n).first_child; c != k_no_node; c = m_nodes[c].next_sibling)
    out.push_back(c);
  return out;
}

node_id steal_tree::find_child(node_id n, std::uint32_t level, std::uint32_t spawn_index) const {
  for (node_id c = node(n).first_child; c != k_no_node; c = m_nodes[c].next_sibling) {
    if (m_nodes[c].level == level && m_nodes[c].spawn_index == spawn_index) return c;
  }
  return k_no_node;
}

std::vector<node_id> steal_tree::preorder() const {
  std::vector<node_id> out;
  out.reserve(m_nodes.size());
  std::vector<node_id> stack{0};
  std::vector<node_id> kids;
  while (!stack.empty()) {
    const node_id n = stack.back();
    stack.pop_back();
    out.push_back(n);
    kids = children(n);
    stack.insert(stack.end(), kids.rbegin(), kids.rend());
  }
  return out;
}

std::vector<node_id> steal_tree::level_order() const {
  std::vector<node_id> out;
  out.reserve(m_nodes.size());
  out.push_back(0);
  for (std::size_t i = 0; i < out.size(); ++i) {
    for (node_id c = m_nodes[out[i]].first_child; c != k_no_node; c = m_nodes[c].next_sibling)
      out.push_back(c);
  }
  return out;
}

steal_tree steal_tree::extract_subtree(node_id n) const {
  steal_tree out;
  out.m_workers = m_workers;
  out.m_topology = m_topology;
  steal_node root = node(n);
  root.parent = root.first_child = root.next_sibling = k_no_node;
  out.m_nodes.push_back(root);
  out.m_last_child.push_back(k_no_node);
  // (old id, new id) pairs; breadth first, so a parent is in `out` before its children.
  std::deque<std::pair<node_id, node_id>> queue{{n, 0}};
  while (!queue.empty()) {
    const auto [old_id, new_id] = queue.front();
    queue.pop_front();
    for (node_id c = m_nodes[old_id].first_child; c != k_no_node; c = m_nodes[c].next_sibling) {
      const steal_node& s = m_nodes[c];
      queue.emplace_back(c, out.add_steal(new_id, s.level, s.spawn_index, s.worker, s.seq, s.kind));
    }
  }
  return out;
}

template_match steal_tree::match(std::span<const steal_point> path) const {
  template_match m;
  for (const steal_point& step : path) {
    const node_id c = find_child(m.node, step.level, step.spawn_index);
    if (c == k_no_node) {
      ++m.skipped;
    } else {
      m.node = c;
      ++m.matched;
    }
  }
  return m;
}

std::optional<std::uint32_t> steal_tree::designated_worker(std::span<const steal_point> path,
                                                           std::uint32_t level,
                                                           std::uint32_t spawn_index) const {
  const node_id c = find_child(match(path).node, level, spawn_index);
  if (c == k_no_node) return std::nullopt;
  return m_nodes[c].worker;
}

std::vector<node_id> steal_tree::unreached(node_id n, std::uint32_t level,
                                           std::uint32_t spawn_count) const {
  // A stolen continuation of the frame at `level` that was never reached takes with it every
  // deeper continuation steal of the phase: those frames hang below the spawn it names.
  bool chain_cut = false;
  for (node_id c = node(n).first_child; c != k_no_node; c = m_nodes[c].next_sibling) {
    const steal_node& s = m_nodes[c];
    if (s.level == level && s.spawn_index >= spawn_count && s.kind == steal_kind::continuation)
      chain_cut = true;
  }
  std::vector<node_id> out;
  std::vector<node_id> stack;
  for (node_id c = m_nodes[n].first_child; c != k_no_node; c = m_nodes[c].next_sibling) {
    const steal_node& s = m_nodes[c];
    const bool here = s.level == level && s.spawn_index >= spawn_count;
    const bool below = chain_cut && s.level > level && s.kind == steal_kind::continuation;
    if (here || below) stack.push_back(c);
  }
  while (!stack.empty()) {
    const node_id c = stack.back();
    stack.pop_back();
    out.push_back(c);
    for (node_id g = m_nodes[c].first_child; g != k_no_node; g = m_nodes[g].next_sibling)
      stack.push_back(g);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::vector<node_id>> steal_tree::worker_orders() const {
  std::vector<std::vector<node_id>> orders(m_workers);
  for (node_id i = 0; i < m_nodes.size(); ++i) {
    if (m_nodes[i].worker < m_workers) orders[m_nodes[i].worker].push_back(i);
  }
  for (auto& order : orders) {
    std::sort(order.begin(), order.end(),
              [this](node_id a, node_id b) { return m_nodes[a].seq < m_nodes[b].seq; });
  }
  return orders;
}

std::vector<std::uint32_t> steal_tree::order_positions() const {
  std::vector<std::uint32_t> position(m_nodes.size(), 0);
  for (const auto& order : worker_orders()) {
    for (std::size_t i = 0; i < order.size(); ++i)
      position[order[i]] = static_cast<std::uint32_t>(i);
  }
  return position;
}

std::size_t steal_tree::bytes() const noexcept {
  return m_nodes.size() * (sizeof(steal_node) + sizeof(node_id)) + m_topology.size();
}

memory_report steal_tree::memory() const {
  memory_report r;
  r.total_bytes = bytes();
  r.bytes_per_worker.assign(m_workers, 0);
  for (const steal_node& n : m_nodes) {
    if (n.worker < m_workers) r.bytes_per_worker[n.worker] += sizeof(steal_node) + sizeof(node_id);
  }
  return r;
}

void steal_tree::remap_workers(unsigned workers) {
  check_worker_count(workers, "remap_workers workers");
  // Two old workers merge when both have nodes and land on the same new worker.
  std::vector<int> source(workers, -1);
  bool merged = false;
  for (const steal_node& n : m_nodes) {
    const unsigned to = n.worker % workers;
    if (source[to] == -1) source[to] = static_cast<int>(n.worker);
    merged = merged || source[to] != static_cast<int>(n.worker);
  }
  for (steal_node& n : m_nodes)
    n.worker %= workers;
  m_workers = workers;
  if (!merged) return;
  std::vector<std::uint32_t> next(workers, 0);
  for (const node_id id : preorder()) {
    steal_node& n = m_nodes[id];
    n.seq = next[n.worker]++;
  }
}

std::string steal_tree::describe(node_id n) const {
  const steal_node& s = m_nodes[n];
  std::string out = "steal tree node " + std::to_string(n);
  if (n == 0)
    out += " (root";
  else
    out += " (level " + std::to_string(s.level) + ", spawn index " + std::to_string(s.spawn_index);
  out += ", worker " + std::to_string(s.worker) + ", seq " + std::to_string(s.seq) + ")";
  return out;
}

}  // namespace locus::schedule
