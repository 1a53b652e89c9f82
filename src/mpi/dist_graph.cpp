// src/mpi/dist_graph.cpp — values of distributed graphs between ranks (dist_graph.hpp): the
// protocol, the requests, the fence; the values themselves (imports, exports) in graph_values.cpp.
//
// Messages (on two of the engine's communicators, so they never meet user messages):
//   request  graph_req, tag 0: {epoch, key} from a rank that wants key's value, to its owner;
//   value    graph_val, tag = key, owner -> asker: the bytes alone when the asker knows the
//            value's size (a T, or a datablock asked for with its size: its receive is
//            posted with the request, and the owner checks type and size against the request);
//            otherwise a wire_header, then (if bytes > 0) the bytes.
//   fence    graph_req: MPI_Iallreduce (max) of {sequence hash, its complement}.
// Each request also carries the asker's creation-sequence hash of the epoch, and the fence
// reduces every rank's: ranks that created their graphs in different orders are an error, not
// a hang (graph_order.cpp).
// The owner's worker keeps, per (epoch, key), the value once its export task ran and the ranks
// that asked before it did; it answers each request once both are there. A key's header and
// bytes come from one sender with one tag on one communicator, so MPI's non-overtaking rule
// keeps them in order; a rank asks for a key once per epoch, so one receive is posted per
// (owner, tag) at a time, and epochs cannot mix on a tag: a rank passes an epoch's fence only
// after every value it asked for in that epoch arrived (imports pending hold its fence back).
#include <cstdlib>
#include <deque>
#include <map>
#include <memory>
#include <vector>

#include "graph_service.hpp"

namespace locus::mpi::detail {

std::string graph_where(const engine& e) {
  return "locus::mpi::dist_graph on rank " + std::to_string(e.rank());
}

namespace {

/// The always-posted receive of requests.
struct request_recv final : op {
  request_recv() { background = true; }
  int start(engine& e) override {
    return MPI_Irecv(&m_msg, sizeof m_msg, MPI_BYTE, MPI_ANY_SOURCE, 0, e.graph_req_comm(), &req);
  }
  bool complete(engine& e, const MPI_Status& first, int err) override {
    // Requests come in bursts (a rank asks for every value it reads while it builds its graph):
    // the re-posted receive matches the next one already queued inside MPI, so it is tested at
    // once, up to k_burst times, instead of one request per progress step.
    constexpr int k_burst = 64;
    MPI_Status st = first;
    for (int n = 1;; ++n) {
      if (err != MPI_SUCCESS) {
        e.raise_fault(graph_where(e) + ": receiving a request: " + mpi_error_text(err), e.rank(),
                      true);
        return false;
      }
      m_msg.t_seen = e.tracing() ? engine::now_ns() : 0;
      e.graphs->on_request(e, st.MPI_SOURCE, m_msg);
      if (const int rc = start(e); rc != MPI_SUCCESS) {
        e.raise_fault(graph_where(e) + ": posting the request receive: " + mpi_error_text(rc),
                      e.rank(), true);
        return false;
      }
      // A fault raised by the request (a graph of another order) cancels nothing here: this
      // receive is a background one, and stays posted.
      int flag = 0;
      if (n == k_burst || e.faulted()) return true;
      err = MPI_Test(&req, &flag, &st);
      if (err == MPI_SUCCESS && flag == 0) return true;
    }
  }
  void fail(engine&, const std::string&, int) override {}
  request_msg m_msg;
};

}  // namespace

graph_service& service(engine& e) {
  if (!e.graphs) {
    e.graphs = std::make_shared<graph_service>();
    // On a fault the fences held back for imports fail (the engine fails the active ones).
    // Registered here, on the communication worker, so the hook runs on it even if the fault
    // is known already: the service is the worker's alone.
    e.add_fault_hook([&e](const std::string& msg, int origin) {
      for (auto& [epoch, f] : e.graphs->deferred) {
        f->fail(e, msg, origin);
        delete f;
      }
      e.graphs->deferred.clear();
    });
    auto* r = new request_recv();
    if (r->start(e) == MPI_SUCCESS) {
      e.activate(r);
    } else {
      delete r;
      e.raise_fault(graph_where(e) + ": cannot post the request receive", e.rank(), true);
    }
  }
  return *e.graphs;
}

/// The end of an epoch on this rank: every value asked for arrived, then the collective.
struct fence_op final : op {
  fence_op() { collective = true; }
  int start(engine& e) override {
    graph_service& g = service(e);
    g.fencing[epoch] = true;
    g.check_unanswered(e, epoch);
    if (e.faulted()) {
      fail(e, e.fault_message(), e.fault_origin());
      return MPI_SUCCESS;
    }
    for (const auto& [r, created] : g.left)
      if (created <= epoch) {
        g.check_left(e, epoch, r);
        fail(e, e.fault_message(), e.fault_origin());
        return MPI_SUCCESS;
      }
    if (g.imports_pending[epoch] > 0) {
      // Held back until the last import of the epoch arrived (graph_service::import_done).
      auto* later = new fence_op();
      later->epoch = epoch;
      later->done = std::move(done);
      g.deferred[epoch] = later;
      return MPI_SUCCESS;
    }
    return start_collective(e);
  }
  /// The fence's collective: every rank's {hash, ~hash}, reduced by max.
  int start_collective(engine& e) {
    const std::uint64_t mine = e.graphs->epochs[epoch].sequence;
    m_out[0] = mine;
    m_out[1] = ~mine;
    return MPI_Iallreduce(m_out, m_in, 2, MPI_UINT64_T, MPI_MAX, e.graph_req_comm(), &req);
  }
  bool complete(engine& e, const MPI_Status&, int err) override {
    graph_service& g = *e.graphs;
    if (err == MPI_SUCCESS && (m_in[0] != m_out[0] || m_in[1] != m_out[1])) {
      // Some rank's hash differs from this one's: every rank sees a max unlike its own pair.
      const std::string msg =
          graph_where(e) + ": the ranks created their dist_graphs in different orders: graph #" +
          std::to_string(epoch) + " (" + g.epochs[epoch].identity +
          " on this rank) has another creation sequence on some rank (graphs are matched by "
          "creation order; create them in the same order on every rank)";
      e.raise_fault(msg, e.rank(), true);
      finish(msg, e.rank());
      return false;
    }
    auto lo = g.exports.lower_bound({epoch, 0});
    auto hi = g.exports.lower_bound({epoch + 1, 0});
    g.exports.erase(lo, hi);
    g.imports_pending.erase(epoch);
    g.fencing.erase(epoch);
    g.epochs.erase(epoch);
    finish(err == MPI_SUCCESS ? std::string() : graph_where(e) + ": fence: " + mpi_error_text(err),
           e.rank());
    return false;
  }
  void fail(engine&, const std::string& why, int origin) override { finish(why, origin); }
  void finish(std::string error, int origin) {
    if (!done) return;
    deliver(*done, status{}, std::move(error), origin);
    done.reset();
  }
  std::uint64_t epoch = 0;
  std::shared_ptr<completion> done;
  std::uint64_t m_out[2] = {}, m_in[2] = {};
};

void graph_service::on_request(engine& e, int src, const request_msg& m) {
  if (epochs.find(m.epoch) == epochs.end()) {
    early[m.epoch].emplace_back(src, m);  // checked when this rank creates the epoch
    return;
  }
  if (!same_graph(e, src, m)) return;
  export_rec& r = exports[{m.epoch, m.key}];
  if (r.ready) {
    send_value(e, r, m.key, src, m);
  } else {
    r.waiting.emplace_back(src, m);
    check_unanswered(e, m.epoch);
  }
}

void graph_service::check_unanswered(engine& e, std::uint64_t epoch) {
  // Once this rank's local tasks are done (its fence started) every key it owns and created
  // is ready: a request still waiting names a key this rank never created.
  if (!fencing[epoch]) return;
  for (auto it = exports.lower_bound({epoch, 0}); it != exports.end() && it->first.first == epoch;
       ++it) {
    if (!it->second.ready && !it->second.waiting.empty()) {
      e.raise_fault(graph_where(e) + ": rank " + std::to_string(it->second.waiting.front().first) +
                        " asked for key " + std::to_string(it->first.second) +
                        ", which this rank owns but never created or satisfied (dist_graph::event "
                        "on its owner)",
                    e.rank(), true);
      return;
    }
  }
}

void graph_service::import_done(engine& e, std::uint64_t epoch) {
  if (--imports_pending[epoch] > 0) return;
  auto it = deferred.find(epoch);
  if (it == deferred.end()) return;
  auto* f = static_cast<fence_op*>(it->second);
  deferred.erase(it);
  if (const int err = f->start_collective(e); err != MPI_SUCCESS) {
    f->fail(e, graph_where(e) + ": fence: " + mpi_error_text(err), e.rank());
    delete f;
    return;
  }
  e.activate(f);
}

std::uint64_t hash_name(const char* name) noexcept {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (const char* p = name; *p != 0; ++p)
    h = (h ^ static_cast<unsigned char>(*p)) * 1099511628211ull;
  return h;
}

dist_state* dist_create(context& ctx, locus::dataflow::graph& g, std::string identity) {
  auto s = std::make_unique<dist_state>();
  s->e = &ctx.impl();
  s->ctx = &ctx;
  s->identity = std::move(identity);
  // Counted before the open op is submitted: the step it wakes sees the graph alive. Taken
  // back if the creation throws (dist_destroy never runs then).
  s->counted = s->e->size() > 1;
  if (s->counted) s->e->graphs_alive.fetch_add(1, std::memory_order_relaxed);
  try {
    graph_open(*s);
    // A fault (here or elsewhere) stops the local graph: a ready task that throws the fault's
    // error makes wait() return once nothing else runs (tasks waiting for values are not
    // waited for after a failure, graph.hpp).
    // Called on the communication worker, or here at once if the fault is known already: it
    // only creates a task, which any thread may do.
    s->hook = s->e->add_fault_hook([&g](const std::string& msg, int origin) {
      (void)g.task(0, [msg, origin] { throw error(msg, origin); });
    });
  } catch (...) {
    if (s->counted) s->e->graphs_alive.fetch_sub(1, std::memory_order_relaxed);
    throw;
  }
  return s.release();
}

void dist_destroy(dist_state* s) noexcept {
  if (s->counted) s->e->graphs_alive.fetch_sub(1, std::memory_order_relaxed);
  s->e->remove_fault_hook(s->hook);
  delete s;
}

std::uint64_t dist_epoch(const dist_state& s) noexcept {
  return s.epoch;
}

void dist_error(const dist_state& s, const std::string& what) {
  throw error(graph_where(*s.e) + ": " + what, s.e->rank());
}

void dist_check_key(const dist_state& s, std::uint64_t key) {
  if (key >= static_cast<std::uint64_t>(s.e->tag_limit()))
    dist_error(s, "key " + std::to_string(key) + " is outside the module's range [0, " +
                      std::to_string(s.e->tag_limit()) + ")");
}

void worker_step(context& c) noexcept {
  (void)c.impl().help_between_tasks();
}

void dist_wait(dist_state& s, locus::dataflow::graph& g) {
  try {
    g.wait();
  } catch (const error& x) {
    if (x.origin() == s.e->rank() || x.origin() < 0)
      s.e->fail_local("locus::mpi: rank " + std::to_string(s.e->rank()) + " failed: " + x.what());
    throw;
  } catch (const std::exception& x) {
    s.e->fail_local("locus::mpi: rank " + std::to_string(s.e->rank()) + " failed: " + x.what());
    throw;
  }
  auto c = std::make_shared<completion>();
  auto* f = new fence_op();
  f->epoch = s.epoch;
  f->done = c;
  s.e->submit(f);
  c->finished.wait(false, std::memory_order_acquire);
  c->rethrow();
  s.ctx->check_peers();
}

}  // namespace locus::mpi::detail
