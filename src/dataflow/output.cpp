// Output events (edt::done()): the record a task's first done() makes, its successors, the
// finish that fires or abandons the event, and the cycle check of add_dependence on an output
// event (docs/design/0010-dataflow.md, "Output events and cycles").
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "graph_state.hpp"
#include "locus/dataflow/graph.hpp"
#include "slots.hpp"

namespace locus::dataflow::detail {

namespace {

/// A task's output event and its output-event successors (edt::done()). Made by the first
/// done() while the task is unfinished, freed with the node. `ev` and `g` never change; the
/// rest is under g->out_mutex.
struct output_record {
  /// Holds the event's producer reference until the task finished, and a plain reference
  /// until the record is freed (a later done() returns it).
  value_core<void>* ev = nullptr;
  graph_state* g = nullptr;  ///< the task's graph (valid while the task is unfinished)
  bool finished = false;
  std::uint64_t mark = 0;  ///< the cycle search's visit mark (graph_state::out_epoch)
  /// Tasks of g with a slot on `ev` (add_dependence(done(), t, ...)), each holding its node.
  std::vector<edt_node*> succ;
};

/// The record of n, or null (none made, or the task finished without one).
output_record* record_of(const edt_node& n) noexcept {
  const std::uintptr_t o = n.out.load(std::memory_order_acquire);
  return o > edt_node::k_out_failed ? reinterpret_cast<output_record*>(o) : nullptr;
}

/// How many output-event edges lead from `from` to `to` (0: none), a depth-first search over
/// the records of unfinished tasks; each record is visited once. Under g.out_mutex.
std::size_t path_length(graph_state& g, edt_node* from, edt_node* to) {
  if (from == to) return 0;
  output_record* r = record_of(*from);
  if (r == nullptr || r->finished || r->succ.empty()) return SIZE_MAX;  // a new task: O(1)
  const std::uint64_t mark = ++g.out_epoch;
  std::vector<std::pair<output_record*, std::size_t>> stack{{r, 1}};
  r->mark = mark;
  while (!stack.empty()) {
    const auto [x, depth] = stack.back();
    stack.pop_back();
    for (edt_node* t : x->succ) {
      if (t == to) return depth;
      output_record* y = record_of(*t);
      if (y == nullptr || y->finished || y->mark == mark) continue;
      y->mark = mark;
      stack.emplace_back(y, depth + 1);
    }
  }
  return SIZE_MAX;
}

}  // namespace

/// The task finished (ok: its body completed; else it was cancelled, skipped or threw): fires
/// or abandons its output event if done() made one. One CAS on the node's own word otherwise.
void finish_recorded_output(std::uintptr_t o, bool ok) noexcept {
  auto* r = reinterpret_cast<output_record*>(o);
  std::vector<edt_node*> succ;
  {
    // g is alive: the task has not left the graph yet (task_finished comes after).
    std::lock_guard lk(r->g->out_mutex);
    r->finished = true;  // no edge is added from it any more, the search stops here
    succ.swap(r->succ);
  }
  // Its dependents are notified: they fire, or (abandoned) are cancelled, through the
  // teardown queue of this thread (no recursion).
  if (ok && r->ev->count_down(1, "locus::dataflow: a task's output event")) r->ev->fire();
  r->ev->release_producer();  // not fired: the last producer abandons it
  for (edt_node* t : succ)
    node_release(t);
}

void free_output_record(std::uintptr_t o) noexcept {
  // A finished task's record (its successors were released when it finished).
  auto* r = reinterpret_cast<output_record*>(o);
  r->ev->release();
  delete r;
}

output_refs node_done(edt_node* n) {
  if (n == nullptr) throw_error("locus::dataflow::edt::done: an empty task handle");
  std::uintptr_t o = n->out.load(std::memory_order_acquire);
  if (o == 0) {
    // The first done(): a record, installed by a CAS (a finisher CASes 0 -> finished).
    auto* ev = new value_core<void>();
    output_record* r = nullptr;
    try {
      // n->g is valid: the task has not finished (its finisher would have set the word).
      r = new output_record;
      r->ev = ev;
      r->g = n->g;
    } catch (...) {
      delete ev;
      throw;
    }
    // The record's own reference (node_destroy), taken before the CAS publishes it: once it is
    // published the task may finish at once and drop the producer's.
    ev->add_ref();
    if (n->out.compare_exchange_strong(o, reinterpret_cast<std::uintptr_t>(r),
                                       std::memory_order_acq_rel, std::memory_order_acquire)) {
      o = reinterpret_cast<std::uintptr_t>(r);
    } else {
      delete r;  // another done() or the finish came first: use theirs
      delete ev;
    }
  }
  n->refs.fetch_add(1, std::memory_order_relaxed);  // the output_event's hold on the node
  if (o > edt_node::k_out_failed) {
    event_core* ev = reinterpret_cast<output_record*>(o)->ev;
    ev->add_ref();
    return {n, ev};
  }
  // Finished without a record: an event already fired, or abandoned.
  auto* ev = new value_core<void>();
  ev->add_ref();
  if (o == edt_node::k_out_ok && ev->count_down(1, "locus::dataflow::edt::done")) ev->fire();
  ev->release_producer();
  return {n, ev};
}

void node_add_output_dependence(edt_node* a, event_core* ev, edt_node* n, std::uint32_t i,
                                locus::access mode) {
  if (a == nullptr) throw_error("locus::dataflow::add_dependence: an empty output event handle");
  check_dependence(n, ev, i, mode);
  output_record* r = record_of(*a);
  // n is unfinished (check_dependence), so n->g is alive while its graph object is. An edge is
  // recorded only inside one graph; r->g == n->g means a is of n's graph (a record's g is
  // not dereferenced otherwise).
  if (r == nullptr || r->g != n->g) {
    attach(claim_slot(n, i), ev, mode);  // a finished, or another graph's task: not recorded
    return;
  }
  graph_state& g = *n->g;
  slot* s = nullptr;
  {
    std::lock_guard lk(g.out_mutex);
    if (!r->finished) {
      if (a == n)
        throw_error("locus::dataflow::add_dependence: slot " + std::to_string(i) +
                    " on the task's own output event would make a cycle: a task cannot wait "
                    "for its own completion");
      if (const std::size_t d = path_length(g, n, a); d != SIZE_MAX)
        throw_error("locus::dataflow::add_dependence: slot " + std::to_string(i) +
                    " on that output event would make a cycle: the event's task already "
                    "depends on this task (through " +
                    std::to_string(d) + " output-event dependence" + (d == 1 ? "" : "s") + ")");
      if (r->succ.size() == r->succ.capacity())  // may throw: before anything changes
        r->succ.reserve(std::max<std::size_t>(4, 2 * r->succ.capacity()));
      s = &claim_slot(n, i);
      r->succ.push_back(n);
      n->refs.fetch_add(1, std::memory_order_relaxed);  // the edge's hold on n (finish_output)
    }
  }
  attach(s != nullptr ? *s : claim_slot(n, i), ev, mode);
}

}  // namespace locus::dataflow::detail
