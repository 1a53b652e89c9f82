// Steal-tree recording at pickups (docs/design/0008, "Recording"): an observer the core calls
// when a worker picks up work from elsewhere (ext/observer.hpp); nothing of it runs on the
// spawn, pop or sync paths.
#include <new>

#include "locus/ext/scheduler.hpp"
#include "recorder.hpp"

namespace locus::schedule::detail {

namespace {
constexpr char k_key = 0;  ///< its address names the recorder among a runtime's observers
}

steal_recorder& steal_recorder::of(ext::core_ref core) {
  const unsigned n = core.num_workers();
  auto o = core.install_once(&k_key, [n] { return std::make_shared<steal_recorder>(n); });
  return static_cast<steal_recorder&>(*o);
}

steal_recorder* steal_recorder::find(ext::core_ref core) noexcept {
  return static_cast<steal_recorder*>(core.find(&k_key));
}

void steal_recorder::clear() noexcept {
  for (auto& t : m_traces) {
    t.log.clear();
    t.next_seq = 0;
    t.overflow = false;
  }
  m_root = {};
}

void steal_recorder::on_pickup(ext::worker_ref& w, ext::task_ref f, const ext::pickup& p) noexcept {
  if (!on.load(std::memory_order_relaxed) || !f.is_frame()) return;
  const auto n = static_cast<std::uint64_t>(m_traces.size());
  worker_trace& t = m_traces[w.index()];
  const std::uint32_t parent = f.phase();
  // From a pool: the phase's root (no phase yet), or a remote spawn or a frame sent home by
  // the place rule, which continue the phase they belong to: a placement the program made,
  // which a replay of the same program makes again, not a steal.
  if (!p.from_worker() && parent != ext::task_ref::k_no_phase) return;
  // No phase and not a root: a frame outside the traced spawn tree, a data-driven task's runner
  // (a detached frame, ext/ready.hpp) or a frame under one. Nothing of it is recorded; taken
  // for the phase's root, it raced with the real one on the root record (TSan, flow tests).
  if (parent == ext::task_ref::k_no_phase && !f.is_root()) return;
  // A phase id is seq * n + worker, unique without coordination; decoded at extraction. One
  // that would not fit 32 bits ends this worker's recording for the phase, and extraction
  // reports the trace as incomplete.
  const std::uint64_t id = std::uint64_t{t.next_seq} * n + w.index();
  if (id >= ext::task_ref::k_no_phase) {
    t.overflow = true;
    return;
  }
  const std::uint32_t seq = t.next_seq++;
  if (parent == ext::task_ref::k_no_phase) {
    // The root: one per traced phase, picked up once; read by the phase's thread after the
    // phase returned (the completion chain orders this write before that read).
    m_root.worker = w.index();
    m_root.seq = seq;
    m_root.seen = true;
  } else {
    steal_record r;
    if (p.continuation) {
      // Taken after spawn next_spawn - 1 of f: the thief owns f now (the steal's acquire
      // pairs with the push's release, which followed the spawn's numbering).
      r.level = f.level();
      r.spawn_index = f.next_spawn() - 1;
      r.kind = steal_kind::continuation;
    } else {
      // A help-first child: recorded at its parent's level and its own index.
      r.level = f.level() - 1;  // a stolen child has a parent, so its level is >= 1
      r.spawn_index = f.spawn_index();
      r.kind = steal_kind::child;
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
  f.set(static_cast<std::uint32_t>(id), f.slot());
}

}  // namespace locus::schedule::detail
