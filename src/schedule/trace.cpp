// Steal-tree recording at steals (docs/design/0008, "Recording"). Called by the worker loop's
// execute() when a worker picks up work from elsewhere while a traced phase runs; nothing of it
// runs on the spawn, pop or sync paths.
#include <new>

#include "../runtime_state.hpp"

namespace locus::detail {

void trace_pickup(worker& w, frame& f, bool continuation, bool from_worker) noexcept {
  runtime_state& rt = w.rt();
  const auto n = static_cast<std::uint64_t>(rt.workers.size());
  worker_trace& t = rt.traces[w.index()];
  const std::uint32_t parent = schedule_phase(f.m_schedule);
  // From a mailbox: the phase's root (no phase yet), or a remote spawn or a frame sent home
  // by the place rule, which continue the phase they belong to: a placement the program
  // made, which a replay of the same program makes again, not a steal.
  if (!from_worker && parent != k_no_phase) return;
  // No phase and not a root: a frame outside the traced spawn tree, a data-driven task's runner
  // (a detached frame, detail/ready.hpp) or a frame under one. Nothing of it is recorded; taken
  // for the phase's root, it raced with the real one on traced_root (TSan, flow tests).
  if (parent == k_no_phase && f.m_kind != frame_kind::root) return;
  // A phase id is seq * n + worker (schedule_phase), unique without coordination; decoded at
  // extraction. One that would not fit 32 bits ends this worker's recording for the phase,
  // and extraction reports the trace as incomplete.
  const std::uint64_t id = std::uint64_t{t.next_seq} * n + w.index();
  if (id >= k_no_phase) {
    t.overflow = true;
    return;
  }
  const std::uint32_t seq = t.next_seq++;
  if (parent == k_no_phase) {
    // The root: one per traced phase, picked up once; read by the phase's thread after the
    // phase returned (the completion chain orders this write before that read).
    rt.traced_root.worker = w.index();
    rt.traced_root.seq = seq;
    rt.traced_root.seen = true;
  } else {
    schedule::steal_record r;
    if (continuation) {
      // Taken after spawn m_next_spawn - 1 of f: the thief owns f now (the steal's acquire
      // pairs with the push's release, which followed the spawn's numbering).
      r.level = f.m_level;
      r.spawn_index = f.m_next_spawn - 1;
      r.kind = schedule::steal_kind::continuation;
    } else {
      // A help-first child: recorded at its parent's level and its own index.
      r.level = f.m_level - 1;  // a stolen child has a parent, so m_level >= 1
      r.spawn_index = f.m_spawn_index;
      r.kind = schedule::steal_kind::child;
    }
    r.worker = w.index();
    r.seq = seq;
    r.parent_worker = static_cast<std::uint32_t>(parent % n);
    r.parent_seq = static_cast<std::uint32_t>(parent / n);
    try {
      t.log.append(r);
    } catch (const std::bad_alloc&) {
      t.overflow = true;  // out of memory: the trace is incomplete, the run goes on
    }
  }
  f.m_schedule = make_schedule(static_cast<std::uint32_t>(id), schedule_slot(f.m_schedule));
}

}  // namespace locus::detail
