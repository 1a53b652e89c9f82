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

/// finish_output's and free_output's work when done() made a record `o` (output.cpp).
void finish_recorded_output(std::uintptr_t o, bool ok) noexcept;
void free_output_record(std::uintptr_t o) noexcept;

/// Task n finished (ok: its body completed; else it was cancelled, skipped or threw): fires or
/// abandons its output event if done() made one. Inline: a task whose done() was never called
/// pays one CAS on its own word.
inline void finish_output(edt_node* n, bool ok) noexcept {
  std::uintptr_t o = 0;
  if (n->out.compare_exchange_strong(o, ok ? edt_node::k_out_ok : edt_node::k_out_failed,
                                     std::memory_order_acq_rel, std::memory_order_acquire))
      [[likely]]
    return;
  finish_recorded_output(o, ok);
}
/// Frees a finished task's output record, if it has one (from node_destroy).
inline void free_output(edt_node& n) noexcept {
  const std::uintptr_t o = n.out.load(std::memory_order_acquire);
  if (o > edt_node::k_out_failed) [[unlikely]]
    free_output_record(o);
}

/// What check_slot and claim_slot found wrong.
enum class slot_misuse : std::uint8_t { empty, range, cancelled, fired, assigned };
/// Throws the dataflow_error for `m` (`what` names the call). Out of line and cold, so the
/// inline checks stay a few instructions on the path of every dependence.
[[noreturn, gnu::cold, gnu::noinline]] void throw_slot_misuse(slot_misuse m, const char* what,
                                                              std::uint32_t i,
                                                              std::uint32_t nslots);

/// The checks of add_dependence and edt::inlet (`what` names the call) that come before the
/// slot is claimed: n exists, i is in range, the task neither fired nor was cancelled.
LOCUS_ALWAYS_INLINE inline void check_slot(edt_node* n, std::uint32_t i, const char* what) {
  if (n == nullptr) [[unlikely]]
    throw_slot_misuse(slot_misuse::empty, what, i, 0);
  if (i >= n->nslots) [[unlikely]]
    throw_slot_misuse(slot_misuse::range, what, i, n->nslots);
  const std::uint32_t st = n->state.load(std::memory_order_acquire);
  if ((st & edt_node::k_claimed) != 0) [[unlikely]]
    throw_slot_misuse(slot_misuse::cancelled, what, i, n->nslots);
  if (st == 0) [[unlikely]]
    throw_slot_misuse(slot_misuse::fired, what, i, n->nslots);
}

/// The checks of add_dependence that come before the slot is claimed.
LOCUS_ALWAYS_INLINE inline void check_dependence(edt_node* n, event_core* ev, std::uint32_t i,
                                                 locus::access mode) {
  if (ev == nullptr) [[unlikely]]
    throw_error("locus::dataflow::add_dependence: an empty event handle");
  check_slot(n, i, "locus::dataflow::add_dependence");
  if (locus::writes(mode) && ev->type() != &type_tag<datablock>) [[unlikely]]
    throw_error("locus::dataflow::add_dependence: access::write on slot " + std::to_string(i) +
                ", but the event does not carry a datablock");
}

/// Claims slot i of n, or throws if it already has a dependence (`what` names the call).
LOCUS_ALWAYS_INLINE inline slot& claim_slot(edt_node* n, std::uint32_t i,
                                            const char* what = "locus::dataflow::add_dependence") {
  slot& s = n->slots()[i];
  if (s.assigned.exchange(true, std::memory_order_acq_rel)) [[unlikely]]
    throw_slot_misuse(slot_misuse::assigned, what, i, n->nslots);
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
