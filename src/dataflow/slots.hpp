// A task's dependence slots as graph.cpp (ordinary dependences) and output.cpp (output-event
// dependences) share them: the checks, the claim and the attach, forced inline on the path of
// every add_dependence; and what graph.cpp's teardown asks of output.cpp. Private to
// src/dataflow.
#pragma once

#include <cstdint>
#include <string>

#include "locus/dataflow/graph.hpp"

namespace locus::dataflow::detail {

/// A slot's event fired (or was abandoned: the task is cancelled); the last notification fires
/// the task (graph.cpp).
void slot_notify(waiter* w, bool fired) noexcept;

/// Task n finished (ok: its body completed; else it was cancelled, skipped or threw): fires or
/// abandons its output event if done() made one (output.cpp).
void finish_output(edt_node* n, bool ok) noexcept;
/// Frees a finished task's output record, if it has one (output.cpp; from node_destroy).
void free_output(edt_node& n) noexcept;

/// The checks of add_dependence that come before the slot is claimed.
LOCUS_ALWAYS_INLINE inline void check_dependence(edt_node* n, event_core* ev, std::uint32_t i,
                                                 locus::access mode) {
  if (n == nullptr || ev == nullptr) [[unlikely]]
    throw_error("locus::dataflow::add_dependence: an empty task or event handle");
  if (i >= n->nslots) [[unlikely]]
    throw_error("locus::dataflow::add_dependence: slot " + std::to_string(i) +
                " is out of range: the task has " + std::to_string(n->nslots) + " slots");
  const std::uint32_t st = n->state.load(std::memory_order_acquire);
  if ((st & edt_node::k_claimed) != 0) [[unlikely]]
    throw_error("locus::dataflow::add_dependence: the task was cancelled");
  if (st == 0) [[unlikely]]
    throw_error(
        "locus::dataflow::add_dependence: the task already fired (every slot's event "
        "fired)");
  if (locus::writes(mode) && ev->type() != &type_tag<datablock>) [[unlikely]]
    throw_error("locus::dataflow::add_dependence: access::write on slot " + std::to_string(i) +
                ", but the event does not carry a datablock");
}

/// Claims slot i of n, or throws if it already has a dependence.
LOCUS_ALWAYS_INLINE inline slot& claim_slot(edt_node* n, std::uint32_t i) {
  slot& s = n->slots()[i];
  if (s.assigned.exchange(true, std::memory_order_acq_rel)) [[unlikely]]
    throw_error("locus::dataflow::add_dependence: slot " + std::to_string(i) +
                " already has a dependence");
  return s;
}

/// The claimed slot s waits for ev.
LOCUS_ALWAYS_INLINE inline void attach(slot& s, event_core* ev, locus::access mode) {
  ev->add_ref();
  s.ev = ev;
  s.mode = mode;
  // Registered: the event notifies the slot when it fires. Already fired or abandoned: notify
  // now, on this thread (so the task may fire onto this worker's deque).
  if (!ev->add_waiter(&s)) slot_notify(&s, ev->fired());
}

}  // namespace locus::dataflow::detail
