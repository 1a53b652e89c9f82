// locus/schedule/steal_tree.hpp — the steal tree of constrained work stealing (Lifflander et
// al., "Steal Tree" PLDI'13, and "Constrained work stealing", sections IV-A to IV-C).
//
// A steal tree describes a schedule by its steals alone, so its size is proportional to the
// steals, not to the tasks. Each node is one *phase*: a run of work a worker performed after
// picking something up. The root is the phase that ran the first frame; every other node is a
// steal, recorded as
//   - level:       the spawn-tree depth of the frame the steal was taken from (frame::m_level),
//   - spawn_index: the spawn in that frame at which it was taken (frame::m_spawn_index of the
//                  child spawned there): the continuation *after* that spawn (work-first), or,
//                  under help-first, that child itself,
//   - worker:      the thief, the worker that ran the phase,
//   - seq:         the thief's sequence number: the order in which that worker performed its
//                  steals. (worker, seq) names a node uniquely and is what StOWS replays:
//                  every worker runs its designated phases in increasing seq.
// A node's children are the steals taken *from* its phase: from the stolen continuation's
// frame at later spawns, and from the frames that phase descended into.
//
// Why (level, spawn index) and a parent is enough (work-first, the paper's Section IV-A): a
// thief takes the oldest continuation, so inside one phase a steal at level L+1 can only
// happen after the continuation of the frame at level L was stolen; the frames a phase
// descends into are therefore fixed by its earlier steals, and the children of a node have
// distinct (level, spawn index) keys. validate() checks exactly this (see there).
//
// Representation: the nodes live in one vector and refer to each other by index (node_id):
// parent, first child and next sibling (a 32-byte steal_node, plus a 4-byte last-child link
// kept beside it), no pointer or allocation per node. Children keep insertion order. A parent's
// index is always smaller than its children's, so every pass over the tree is a loop over the
// vector, never a recursion as deep as the tree.
//
// Recording on several workers (the scheduler's half, not built here): each worker appends a
// steal_record to its own steal_log when it steals, without locks or shared writes. A record
// names its parent by the (worker, seq) of the victim's current phase, which is a global name
// that needs no coordination. assemble() merges the logs at extraction time: it indexes the
// records by (worker, seq), links each to its parent and keeps what is reachable from the
// extraction root, so extraction at any spawn ignores the steals made elsewhere.
//
// Replaying (the scheduler's half): every running phase knows its node (the frame header's
// steal-tree slot). After a spawn k in a frame at level L, find_child(node, L, k) says whether
// the template stole there; if so the continuation is donated to that child's worker and runs
// under the child, else the current worker keeps it. StOWS fills the slot order_positions()
// gives in the worker's sequence (worker_orders()); unreached() lists the slots that a
// computation smaller than its template will never fill (Rule 4.2).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace locus::schedule {

/// Index of a node in its steal_tree; the root is 0.
using node_id = std::uint32_t;
inline constexpr node_id k_no_node = std::numeric_limits<node_id>::max();

/// A steal tree that breaks a rule of validate(); names the offending node.
class steal_tree_error : public std::invalid_argument {
 public:
  steal_tree_error(node_id node, const std::string& what)
      : std::invalid_argument(what), m_node(node) {}
  [[nodiscard]] node_id node() const noexcept { return m_node; }

 private:
  node_id m_node;
};

/// Which nesting validate() assumes (see there).
enum class validity_rule : std::uint8_t {
  spawns_only,  ///< every level is a spawn (Cilk's model): the paper's validity rule holds
  with_calls,   ///< levels may also be calls: the validity rule is not checked
};

/// How a phase began.
enum class steal_kind : std::uint8_t {
  root,          ///< the phase that ran the tree's first frame from its start
  continuation,  ///< work-first: the continuation after spawn `spawn_index` was stolen
  child,         ///< help-first: child `spawn_index` of the frame at `level` was stolen
};

/// One phase (see the top of this file).
struct steal_node {
  std::uint32_t level = 0;
  std::uint32_t spawn_index = 0;
  std::uint32_t worker = 0;
  std::uint32_t seq = 0;
  node_id parent = k_no_node;
  node_id first_child = k_no_node;
  node_id next_sibling = k_no_node;
  steal_kind kind = steal_kind::root;

  /// The frame depth at which this phase starts running: a stolen child runs one level below
  /// the frame that spawned it. 64 bits, so that a child of level 2^32 - 1 cannot wrap to 0.
  [[nodiscard]] std::uint64_t phase_level() const noexcept {
    return kind == steal_kind::child ? std::uint64_t{level} + 1 : level;
  }
  /// The first spawn index this phase can reach in its own frame: a stolen continuation
  /// resumes after its spawn; a root or a stolen child starts its frame from the beginning.
  [[nodiscard]] std::uint64_t first_spawn() const noexcept {
    return kind == steal_kind::continuation ? std::uint64_t{spawn_index} + 1 : 0;
  }
};

/// A step of a path from the root: the steal point (level, spawn index) the replay crossed.
struct steal_point {
  std::uint32_t level = 0;
  std::uint32_t spawn_index = 0;
  friend bool operator==(const steal_point&, const steal_point&) = default;
};

/// Where a path of steal points lands in a template (Rule 4.1 / RelWS).
struct template_match {
  node_id node = 0;         ///< the deepest templated node the path reached: it governs
  std::size_t matched = 0;  ///< how many steps of the path the template has
  std::size_t skipped = 0;  ///< steps the template does not have (steals outside it)
};

/// Memory a tree takes, in total and split by the worker that recorded (stole) each node:
/// the paper's "KB/thread" table.
struct memory_report {
  std::size_t total_bytes = 0;
  std::vector<std::size_t> bytes_per_worker;
  /// Average over the workers, in KiB.
  [[nodiscard]] double kib_per_worker() const noexcept;
};

/// What a recording worker appends at a steal (see the top of this file).
struct steal_record {
  std::uint32_t level = 0;
  std::uint32_t spawn_index = 0;
  std::uint32_t worker = 0;  ///< the thief
  std::uint32_t seq = 0;     ///< the thief's sequence number
  std::uint32_t parent_worker = 0;
  std::uint32_t parent_seq = 0;  ///< (worker, seq) of the victim's phase
  steal_kind kind = steal_kind::continuation;
};

/// One worker's records, appended without synchronisation by that worker alone.
class steal_log {
 public:
  void append(const steal_record& r) { m_records.push_back(r); }
  void clear() noexcept { m_records.clear(); }
  [[nodiscard]] std::span<const steal_record> records() const noexcept { return m_records; }

 private:
  std::vector<steal_record> m_records;
};

class steal_tree;

/// Merges per-worker logs into the tree rooted at the phase (root_worker, root_seq), which
/// starts the frame at `root_level`. Records not below that root are left out. Throws
/// std::invalid_argument on two records with the same (worker, seq).
[[nodiscard]] steal_tree assemble(unsigned workers, std::uint32_t root_worker,
                                  std::uint32_t root_seq, std::uint32_t root_level,
                                  std::span<const steal_log> logs, std::string topology = {});

/// The most workers a steal tree describes (as config's worker count).
inline constexpr unsigned k_max_steal_tree_workers = 4096;

/// A steal tree. Built by one thread (add_steal, remap_workers are not synchronised); once
/// built, its const members may be called from every worker at once, as a replay does.
class steal_tree {
 public:
  /// A tree whose root phase ran on `root_worker` (its `root_seq`-th phase), starting the
  /// frame at `root_level`. `workers` is the worker count of the run it describes (1 to
  /// k_max_steal_tree_workers, else std::invalid_argument);
  /// `topology` the machine it ran on, free text (a topology spec), kept with the schedule.
  steal_tree(unsigned workers, std::uint32_t root_worker, std::uint32_t root_seq = 0,
             std::uint32_t root_level = 0, std::string topology = {});

  /// Adds a steal under `parent`; returns the new node. Throws config_error (a
  /// std::invalid_argument, in make_config_error's format) when `parent` is not a node or
  /// `worker` is not below worker_count(). Structural rules are
  /// checked by validate(), so a tree can be built in any order and checked once.
  node_id add_steal(node_id parent, std::uint32_t level, std::uint32_t spawn_index,
                    std::uint32_t worker, std::uint32_t seq,
                    steal_kind kind = steal_kind::continuation);

  [[nodiscard]] std::size_t size() const noexcept { return m_nodes.size(); }
  [[nodiscard]] const steal_node& node(node_id n) const { return m_nodes.at(n); }
  [[nodiscard]] std::span<const steal_node> nodes() const noexcept { return m_nodes; }
  [[nodiscard]] const steal_node& root() const noexcept { return m_nodes.front(); }
  [[nodiscard]] unsigned worker_count() const noexcept { return m_workers; }
  [[nodiscard]] const std::string& topology() const noexcept { return m_topology; }
  /// The children of `n`, in insertion order.
  [[nodiscard]] std::vector<node_id> children(node_id n) const;
  /// The child of `n` recorded at (level, spawn_index), or k_no_node. O(children of n).
  [[nodiscard]] node_id find_child(node_id n, std::uint32_t level, std::uint32_t spawn_index) const;

  /// Node ids in preorder (parent before children, children in insertion order).
  [[nodiscard]] std::vector<node_id> preorder() const;
  /// Node ids by tree depth, breadth first (the paper's "level order").
  [[nodiscard]] std::vector<node_id> level_order() const;

  /// A new tree holding the subtree rooted at `n`, which becomes its root (keeping its kind,
  /// level, spawn index, worker and seq, so a replay starts it where it was stolen).
  [[nodiscard]] steal_tree extract_subtree(node_id n) const;

  /// Follows `path` from the root (Rule 4.1 and RelWS): each step that is a child of the
  /// current node descends; a step the template does not have (an extra steal of a relaxed
  /// run, or a computation deeper than the template) leaves the current node in charge.
  [[nodiscard]] template_match match(std::span<const steal_point> path) const;
  /// The worker designated for the continuation after spawn `spawn_index` of the frame at
  /// `level` (for a help-first steal: for child `spawn_index`), for a frame reached through
  /// `path`; nullopt when the template has no steal
  /// there, so the worker already running it keeps it (Rule 4.1: the deepest templated
  /// ancestor governs, Rule 4.2: extra spawns are not designated).
  [[nodiscard]] std::optional<std::uint32_t> designated_worker(std::span<const steal_point> path,
                                                               std::uint32_t level,
                                                               std::uint32_t spawn_index) const;
  /// Rule 4.2, missing spawns: the frame at `level` run under node `n` reached its sync after
  /// `spawn_count` spawns. Returns the template's steals of that frame at spawn indices it
  /// never reached, and everything below them: the designated phases that will never be
  /// donated (a StOWS replay must skip their places in the workers' orders).
  [[nodiscard]] std::vector<node_id> unreached(node_id n, std::uint32_t level,
                                               std::uint32_t spawn_count) const;

  /// StOWS order: for each worker, its nodes in increasing seq.
  [[nodiscard]] std::vector<std::vector<node_id>> worker_orders() const;
  /// For each node, its index in worker_orders()[its worker]: the slot of the worker's StOWS
  /// sequence array that a donation of that phase fills (the paper's seqs[w][seq]).
  [[nodiscard]] std::vector<std::uint32_t> order_positions() const;

  /// Throws steal_tree_error (a std::invalid_argument) naming the first offending node by
  /// (level, spawn index) unless: every worker is below worker_count(); (worker, seq) pairs are
  /// unique; no two children of a node share (level, spawn index); a child starts no shallower than
  /// its parent's phase, and at its parent's own level after the parent's first spawn; the paper's
  /// validity rule: a stolen continuation deeper than its parent's phase has a parent frame whose
  /// own continuation was stolen in the same phase (the nested steals equal the nested spawns minus
  /// one; help-first child steals are exempt); and the StOWS orders cannot wait on each other
  /// (per-worker seq order plus parent-before-child is acyclic).
  /// With validity_rule::with_calls the paper's validity rule is not checked: in locus a
  /// frame's level also grows by calls (co_await task), and a phase can descend into a called
  /// frame without a stolen continuation at the caller's level (fib: spawn, then call). Traces
  /// of programs that call are valid under that rule; replay checks templates with it.
  void validate(validity_rule rule = validity_rule::spawns_only) const;

  /// Bytes the tree takes: sizeof(steal_node) plus a 4-byte last-child link per node, plus
  /// the topology string.
  [[nodiscard]] std::size_t bytes() const noexcept;
  [[nodiscard]] memory_report memory() const;

  /// Replaces every worker w by w mod `workers` (1 to k_max_steal_tree_workers, else
  /// std::invalid_argument) and sets worker_count() to `workers`. When
  /// workers merge, their orders are re-derived from the preorder (a linear extension of the
  /// steal ancestry, so a StOWS replay cannot wait on itself); seqs are renumbered from 0.
  void remap_workers(unsigned workers);

 private:
  friend steal_tree prune_tree(const steal_tree& tree, unsigned percent);
  friend steal_tree assemble(unsigned workers, std::uint32_t root_worker, std::uint32_t root_seq,
                             std::uint32_t root_level, std::span<const steal_log> logs,
                             std::string topology);
  friend class steal_tree_reader;
  steal_tree() = default;
  [[nodiscard]] std::string describe(node_id n) const;

  std::vector<steal_node> m_nodes;
  /// Last child of each node, so add_steal appends in O(1) even under a node with millions
  /// of children (a hostile file); kept beside the nodes so steal_node stays 32 bytes.
  std::vector<node_id> m_last_child;
  unsigned m_workers = 1;
  std::string m_topology;
};

/// The paper's pruneTree: keeps the top (100 - percent)% of the steal points (the root is not
/// one) in level order and deletes the rest. Within a depth, lower (level, spawn index) steal
/// points are kept first, so a kept steal's parent frame steal is kept too. percent in
/// [0, 100], else config_error (a std::invalid_argument).
[[nodiscard]] steal_tree prune_tree(const steal_tree& tree, unsigned percent);

}  // namespace locus::schedule
