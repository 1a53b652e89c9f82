// Extraction at a spawn inside a traced phase (locus/schedule/extract.hpp, which states why
// the phase tree holds the child's schedule).
#include "locus/schedule/extract.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include "locus/ext/core.hpp"
#include "recorder.hpp"

namespace locus::schedule {

namespace detail {

spawn_point previous_spawn_of(const locus::detail::frame& f) noexcept {
  spawn_point p;
  const ext::core_ref core = ext::core_ref::current();
  if (!core || f.m_next_spawn == 0) return p;
  const steal_recorder* rec = steal_recorder::find(core);
  const std::uint32_t id = locus::detail::schedule_phase(f.m_schedule);
  if (rec == nullptr || !rec->on.load(std::memory_order_relaxed) || id == locus::detail::k_no_phase)
    return p;
  const auto n = core.num_workers();
  p.traced = true;
  p.phase_worker = id % n;  // the recorder's phase id: seq * workers + worker
  p.phase_seq = id / n;
  p.level = f.m_level;
  p.spawn_index = f.m_next_spawn - 1;
  return p;
}

}  // namespace detail

namespace {

node_id find_phase(const steal_tree& t, std::uint32_t worker, std::uint32_t seq) {
  for (node_id i = 0; i < t.size(); ++i) {
    const steal_node& s = t.node(i);
    if (s.worker == worker && s.seq == seq) return i;
  }
  return k_no_node;
}

/// Copies the subtree of `from` (in `t`) under `to` (in `out`), levels shifted down by
/// `shift`; parents are visited before their children (a stack of pending pairs, no recursion).
void copy_below(const steal_tree& t, node_id from, steal_tree& out, node_id to,
                std::uint32_t shift) {
  std::vector<std::pair<node_id, node_id>> pending{{from, to}};
  while (!pending.empty()) {
    const auto [src, dst] = pending.back();
    pending.pop_back();
    for (node_id c : t.children(src)) {
      const steal_node& s = t.node(c);
      // Steals below the child are at its level or deeper; a shallower one (not expected of a
      // well-formed tree) is not the child's schedule, and its level must not wrap below 0.
      if (s.level < shift) continue;
      pending.emplace_back(
          c, out.add_steal(dst, s.level - shift, s.spawn_index, s.worker, s.seq, s.kind));
    }
  }
}

}  // namespace

steal_tree extract_previous(const steal_tree& phase_tree, const spawn_point& at) {
  if (!at.traced)
    throw std::invalid_argument(
        "locus::schedule::extract_previous: the spawn point was not taken in a traced phase");
  const node_id p = find_phase(phase_tree, at.phase_worker, at.phase_seq);
  if (p == k_no_node)
    throw std::invalid_argument("locus::schedule::extract_previous: the tree has no phase (" +
                                std::to_string(at.phase_worker) + ", " +
                                std::to_string(at.phase_seq) + ")");
  const std::uint32_t shift = at.level + 1;  // child k's level becomes 0
  const steal_node& ps = phase_tree.node(p);
  if (ps.kind == steal_kind::continuation && ps.level == at.level &&
      ps.spawn_index == at.spawn_index && ps.parent != k_no_node) {
    // The continuation after the spawn was stolen: the spawning phase descended into the
    // child; its steals deeper than the frame are the child's.
    const node_id n = ps.parent;
    const steal_node& ns = phase_tree.node(n);
    steal_tree out(phase_tree.worker_count(), ns.worker, ns.seq, 0, phase_tree.topology());
    for (node_id c : phase_tree.children(n)) {
      const steal_node& s = phase_tree.node(c);
      if (s.level <= at.level) continue;
      copy_below(phase_tree, c, out,
                 out.add_steal(0, s.level - shift, s.spawn_index, s.worker, s.seq, s.kind), shift);
    }
    return out;
  }
  // Help-first: the child itself stolen, a node of kind child at (level, spawn index).
  for (node_id c : phase_tree.children(p)) {
    const steal_node& s = phase_tree.node(c);
    if (s.kind == steal_kind::child && s.level == at.level && s.spawn_index == at.spawn_index) {
      steal_tree out(phase_tree.worker_count(), s.worker, s.seq, 0, phase_tree.topology());
      copy_below(phase_tree, c, out, 0, shift);
      return out;
    }
  }
  // Not stolen: the child ran on the phase's worker with nothing stolen below it.
  return steal_tree(phase_tree.worker_count(), ps.worker, ps.seq, 0, phase_tree.topology());
}

}  // namespace locus::schedule
