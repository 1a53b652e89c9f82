// steal_tree_check.cpp — validate(), prune_tree() and assemble(): the parts that reason about
// the shape a real work-stealing run gives a steal tree.
#include "locus/schedule/steal_tree.hpp"

#include <locus/config.hpp>

#include <algorithm>
#include <deque>
#include <stdexcept>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace locus::schedule {

namespace {

[[nodiscard]] std::uint64_t worker_seq_key(std::uint32_t worker, std::uint32_t seq) noexcept {
  return (std::uint64_t{worker} << 32) | seq;
}

}  // namespace

void steal_tree::validate(validity_rule rule) const {
  const auto fail = [this](node_id n, const std::string& what) {
    throw steal_tree_error(n, describe(n) + ": " + what);
  };
  std::unordered_map<std::uint64_t, node_id> names;
  names.reserve(m_nodes.size());
  for (node_id i = 0; i < m_nodes.size(); ++i) {
    const steal_node& s = m_nodes[i];
    if (s.worker >= m_workers) {
      fail(i, "worker " + std::to_string(s.worker) + " is not below the worker count " +
                  std::to_string(m_workers));
    }
    if (i != 0 && s.kind == steal_kind::root) fail(i, "only the first node may be a root phase");
    const auto [it, fresh] = names.emplace(worker_seq_key(s.worker, s.seq), i);
    if (!fresh) fail(i, "(worker, seq) is also the name of node " + std::to_string(it->second));
  }

  std::vector<node_id> kids;
  for (node_id p = 0; p < m_nodes.size(); ++p) {
    const steal_node& parent = m_nodes[p];
    kids = children(p);
    std::sort(kids.begin(), kids.end(), [this](node_id a, node_id b) {
      return std::tie(m_nodes[a].level, m_nodes[a].spawn_index) <
             std::tie(m_nodes[b].level, m_nodes[b].spawn_index);
    });
    const std::uint64_t phase = parent.phase_level();
    std::vector<std::uint32_t> stolen_levels;  // levels with a continuation stolen, sorted
    for (const node_id k : kids) {
      if (m_nodes[k].kind == steal_kind::continuation) stolen_levels.push_back(m_nodes[k].level);
    }
    for (std::size_t i = 0; i < kids.size(); ++i) {
      const steal_node& c = m_nodes[kids[i]];
      if (i > 0 && c.level == m_nodes[kids[i - 1]].level &&
          c.spawn_index == m_nodes[kids[i - 1]].spawn_index) {
        fail(kids[i], "its parent has another steal at the same (level, spawn index), node " +
                          std::to_string(kids[i - 1]));
      }
      if (c.level < phase) {
        fail(kids[i], "it is shallower than its parent's phase, which starts at level " +
                          std::to_string(phase));
      }
      if (c.level == phase && c.spawn_index < parent.first_spawn()) {
        fail(kids[i], "its parent's phase resumes that frame only after spawn index " +
                          std::to_string(parent.spawn_index));
      }
      if (rule == validity_rule::spawns_only && c.kind == steal_kind::continuation &&
          c.level > phase) {
        // The paper's validity rule: the frame at c.level is a child the phase descended into,
        // which it can only have done with its parent frame's continuation stolen.
        if (!std::binary_search(stolen_levels.begin(), stolen_levels.end(), c.level - 1)) {
          fail(kids[i], "a continuation at level " + std::to_string(c.level) +
                            " is designated, but its parent frame (level " +
                            std::to_string(c.level - 1) +
                            ") has no stolen continuation in the same phase");
        }
      }
    }
  }

  // StOWS waits: each worker for its previous seq, each phase for its parent phase. A cycle
  // among those waits is a replay that never finishes. Kahn's algorithm finds one.
  std::vector<std::uint32_t> indegree(m_nodes.size(), 0);
  std::vector<node_id> next_in_order(m_nodes.size(), k_no_node);
  for (const auto& order : worker_orders()) {
    for (std::size_t i = 1; i < order.size(); ++i) {
      next_in_order[order[i - 1]] = order[i];
      ++indegree[order[i]];
    }
  }
  for (node_id i = 1; i < m_nodes.size(); ++i)
    ++indegree[i];
  std::vector<node_id> ready;
  for (node_id i = 0; i < m_nodes.size(); ++i) {
    if (indegree[i] == 0) ready.push_back(i);
  }
  std::size_t done = 0;
  while (!ready.empty()) {
    const node_id n = ready.back();
    ready.pop_back();
    ++done;
    const auto release = [&](node_id m) {
      if (m != k_no_node && --indegree[m] == 0) ready.push_back(m);
    };
    release(next_in_order[n]);
    for (node_id c = m_nodes[n].first_child; c != k_no_node; c = m_nodes[c].next_sibling)
      release(c);
  }
  if (done != m_nodes.size()) {
    node_id stuck = 0;
    while (indegree[stuck] == 0)
      ++stuck;
    fail(stuck,
         "the per-worker seq orders and the steal ancestry wait on each other (a worker would "
         "run a phase before one it is stolen from)");
  }
}

steal_tree prune_tree(const steal_tree& tree, unsigned percent) {
  if (percent > 100)
    throw make_config_error("prune_tree percent", std::to_string(percent), "0 to 100");
  const std::span<const steal_node> nodes = tree.nodes();
  std::vector<std::uint32_t> depth(nodes.size(), 0);
  for (node_id i = 1; i < nodes.size(); ++i)
    depth[i] = depth[nodes[i].parent] + 1;
  std::vector<node_id> order;
  order.reserve(nodes.size());
  for (node_id i = 1; i < nodes.size(); ++i)
    order.push_back(i);
  // Level order, and within a depth the coarser steals first: a kept steal's parent (shallower)
  // and the steals of its parent frames (same depth, lower level) come before it.
  std::sort(order.begin(), order.end(), [&](node_id a, node_id b) {
    return std::tie(depth[a], nodes[a].level, nodes[a].spawn_index, a) <
           std::tie(depth[b], nodes[b].level, nodes[b].spawn_index, b);
  });
  const std::size_t keep = order.size() * (100 - percent) / 100;
  std::vector<bool> kept(nodes.size(), false);
  kept[0] = true;
  for (std::size_t i = 0; i < keep; ++i)
    kept[order[i]] = true;

  steal_tree out;
  out.m_workers = tree.worker_count();
  out.m_topology = tree.topology();
  steal_node root = nodes[0];
  root.first_child = k_no_node;
  out.m_nodes.push_back(root);
  out.m_last_child.push_back(k_no_node);
  std::vector<node_id> renamed(nodes.size(), k_no_node);
  renamed[0] = 0;
  for (node_id i = 1; i < nodes.size(); ++i) {
    if (!kept[i]) continue;
    const steal_node& s = nodes[i];
    renamed[i] = out.add_steal(renamed[s.parent], s.level, s.spawn_index, s.worker, s.seq, s.kind);
  }
  return out;
}

steal_tree assemble(unsigned workers, std::uint32_t root_worker, std::uint32_t root_seq,
                    std::uint32_t root_level, std::span<const steal_log> logs,
                    std::string topology) {
  std::unordered_map<std::uint64_t, const steal_record*> by_name;
  std::unordered_map<std::uint64_t, std::vector<const steal_record*>> by_parent;
  for (const steal_log& log : logs) {
    for (const steal_record& r : log.records()) {
      if (!by_name.emplace(worker_seq_key(r.worker, r.seq), &r).second) {
        throw std::invalid_argument("assemble: two steal records name (worker " +
                                    std::to_string(r.worker) + ", seq " + std::to_string(r.seq) +
                                    ")");
      }
      by_parent[worker_seq_key(r.parent_worker, r.parent_seq)].push_back(&r);
    }
  }
  steal_tree tree(workers, root_worker, root_seq, root_level, std::move(topology));
  // Extraction at a stolen phase: the root starts where that steal resumed.
  if (auto it = by_name.find(worker_seq_key(root_worker, root_seq)); it != by_name.end()) {
    tree.m_nodes[0].level = it->second->level;
    tree.m_nodes[0].spawn_index = it->second->spawn_index;
    tree.m_nodes[0].kind = it->second->kind;
  }
  // Each record has one name and one parent, so a cycle of parent references that avoids the
  // root is never reached from it and is left out.
  std::deque<std::pair<std::uint64_t, node_id>> queue{{worker_seq_key(root_worker, root_seq), 0}};
  std::unordered_set<std::uint64_t> placed{worker_seq_key(root_worker, root_seq)};
  while (!queue.empty()) {
    const auto [name, id] = queue.front();
    queue.pop_front();
    auto it = by_parent.find(name);
    if (it == by_parent.end()) continue;
    std::vector<const steal_record*>& kids = it->second;
    std::sort(kids.begin(), kids.end(), [](const steal_record* a, const steal_record* b) {
      return std::tie(a->level, a->spawn_index) < std::tie(b->level, b->spawn_index);
    });
    for (const steal_record* r : kids) {
      // A record naming the root, or reached twice through a cycle of parent references that
      // runs through the root, is not added again.
      if (!placed.insert(worker_seq_key(r->worker, r->seq)).second) continue;
      const node_id c = tree.add_steal(id, r->level, r->spawn_index, r->worker, r->seq, r->kind);
      queue.emplace_back(worker_seq_key(r->worker, r->seq), c);
    }
  }
  return tree;
}

}  // namespace locus::schedule
