// src/mpi/graph_values.cpp — a distributed graph's values on the wire (dist_graph.cpp says the
// protocol): the reader's import (its request and its receive: one message when it declared the
// value's size, else a header then the bytes), the owner's export and its sends, and the
// tracing of both (context::trace_values). The ops run under the progress step's lock
// (engine.hpp); dist_import and dist_export run on the asking or exporting thread.
#include <cxxabi.h>

#include <cstdlib>
#include <cstring>

#include "graph_service.hpp"

namespace locus::mpi::detail {

namespace {

std::string readable(const char* mangled) {
  int st = 0;
  char* d = abi::__cxa_demangle(mangled, nullptr, nullptr, &st);
  std::string out = st == 0 && d != nullptr ? d : mangled;
  std::free(d);
  return out;
}

/// A send the module makes and nobody awaits: its failure is a fault of this rank.
struct owned_send final : op {
  owned_send(MPI_Comm c, int dest, int tag, const void* data, std::size_t bytes,
             std::shared_ptr<const void> keep)
      : m_comm(c),
        m_dest(dest),
        m_tag(tag),
        m_data(data),
        m_bytes(bytes),
        m_keep(std::move(keep)) {}
  int start(engine&) override {
    return MPI_Isend(m_data, static_cast<int>(m_bytes), MPI_BYTE, m_dest, m_tag, m_comm, &req);
  }
  bool complete(engine& e, const MPI_Status&, int err) override {
    if (err != MPI_SUCCESS)
      e.raise_fault(graph_where(e) + ": sending to rank " + std::to_string(m_dest) + ": " +
                        mpi_error_text(err),
                    e.rank(), true);
    if (m_traced) {
      m_trace.t_last = engine::now_ns();
      m_trace.last_on_comm = e.on_comm_thread();
      e.traces.push_back(m_trace);
    }
    return false;
  }
  void fail(engine&, const std::string&, int) override {}
  /// Tracing: this send carries a graph value's bytes; recorded when it completes.
  bool m_traced = false;
  value_trace m_trace;
  MPI_Comm m_comm;
  int m_dest, m_tag;
  const void* m_data;
  std::size_t m_bytes;
  std::shared_ptr<const void> m_keep;
};

/// This rank wants `key`: ask its owner, and receive the value. When the size is known (a T, or
/// a datablock asked for with its size) one receive of the bytes is posted with the request
/// and the owner checks type and size (one message per value); otherwise the header first,
/// checked here, then the bytes.
struct import_op final : op {
  import_op() { awaited = true; }  // a graph task waits on the value
  int start(engine& e) override {
    graph_service& g = service(e);
    ++g.imports_pending[epoch];
    ++g.importing[{epoch, owner}];
    if (e.tracing()) t_asked = engine::now_ns();
    auto msg = std::make_shared<request_msg>();
    msg->epoch = epoch;
    msg->key = key;
    msg->sequence = g.epochs[epoch].sequence;
    std::strncpy(msg->site, g.epochs[epoch].identity.c_str(), sizeof msg->site - 1);
    msg->hash = type.hash;
    msg->size = type.size;
    msg->bytes = expected_bytes;
    std::strncpy(msg->name, type.name, sizeof msg->name - 1);
    // one_message and buf: set by dist_import (one_message_bytes, the request's rule too).
    g.check_left(e, epoch, owner);
    // The receive first, then the request: the value cannot come before it is asked for, and
    // posted ahead it is matched as it arrives (no unexpected-message copy or queue).
    const int rc = one_message != 0 ? MPI_Irecv(buf, static_cast<int>(one_message), MPI_BYTE, owner,
                                                static_cast<int>(key), e.graph_val_comm(), &req)
                                    : MPI_Irecv(&hdr, sizeof hdr, MPI_BYTE, owner,
                                                static_cast<int>(key), e.graph_val_comm(), &req);
    if (rc != MPI_SUCCESS) return rc;
    auto* ask = new owned_send(e.graph_req_comm(), owner, 0, msg.get(), sizeof(request_msg), msg);
    if (const int err = ask->start(e); err != MPI_SUCCESS) {
      delete ask;
      MPI_Cancel(&req);  // nothing will match it: the request was not sent
      MPI_Request_free(&req);
      return err;
    }
    e.activate(ask);
    return MPI_SUCCESS;
  }
  [[nodiscard]] std::string from() const {
    return "key " + std::to_string(key) + " from rank " + std::to_string(owner);
  }
  bool complete(engine& e, const MPI_Status& st, int err) override {
    int err_class = err;
    if (err != MPI_SUCCESS) MPI_Error_class(err, &err_class);
    if (err_class == MPI_ERR_TRUNCATE) {
      // The owner checks the size against the request before it sends: only a value sent by
      // something else on this tag (a bug) gets here.
      e.raise_fault(graph_where(e) + ": " + from() + " is larger than the " +
                        std::to_string(one_message != 0 ? one_message : sizeof hdr) +
                        " bytes this rank expects (" + readable(type.name) +
                        "): " + mpi_error_text(err),
                    e.rank(), true);
      return false;
    }
    if (err != MPI_SUCCESS) {
      e.raise_fault(graph_where(e) + ": receiving " + from() + ": " + mpi_error_text(err), e.rank(),
                    true);
      return false;
    }
    if (one_message != 0) {
      int count = 0;
      MPI_Get_count(&st, MPI_BYTE, &count);
      if (static_cast<std::uint64_t>(count) != one_message) {
        e.raise_fault(graph_where(e) + ": " + from() + " carries " + std::to_string(count) +
                          " bytes; this rank expects " + readable(type.name) + " (" +
                          std::to_string(one_message) + " bytes)",
                      e.rank(), true);
        return false;
      }
    } else if (!have_header) {
      have_header = true;
      const bool size_ok = type.size != 0 ? hdr.bytes == type.size
                                          : expected_bytes == 0 || hdr.bytes == expected_bytes;
      if (hdr.hash != type.hash || !size_ok) {
        std::string got(hdr.name, strnlen(hdr.name, sizeof hdr.name));
        e.raise_fault(graph_where(e) + ": " + from() + " carries " + readable(got.c_str()) + " (" +
                          std::to_string(hdr.bytes) + " bytes); this rank expects " +
                          readable(type.name) + " (" +
                          (type.size != 0        ? std::to_string(type.size) + " bytes"
                           : expected_bytes != 0 ? std::to_string(expected_bytes) + " bytes"
                                                 : std::string("any size")) +
                          ")",
                      e.rank(), true);
        return false;
      }
      if (hdr.bytes > 0) {
        void* buf = sink->buffer(hdr.bytes);
        int rc = MPI_Irecv(buf, static_cast<int>(hdr.bytes), MPI_BYTE, owner, static_cast<int>(key),
                           e.graph_val_comm(), &req);
        // The bytes were sent right after the header: the receive usually matches them inside
        // MPI_Irecv (a large value's single copy starts there), so it is tested once now rather
        // than at the next progress step (with worker progress, a worker's next task end).
        int flag = 0;
        MPI_Status st2;
        if (rc == MPI_SUCCESS) rc = MPI_Test(&req, &flag, &st2);
        if (rc == MPI_SUCCESS && flag == 0) return true;  // pending: the engine keeps testing
        if (rc != MPI_SUCCESS) {
          e.raise_fault(graph_where(e) + ": receiving " + from() + ": " + mpi_error_text(rc),
                        e.rank(), true);
          return false;
        }
        // Done: req is MPI_REQUEST_NULL again, and the value is delivered below.
      } else {
        sink->buffer(0);
      }
    }
    (one_message != 0 ? e.values_one_message : e.values_with_header)
        .fetch_add(1, std::memory_order_relaxed);
    value_trace tr;
    if (t_asked != 0) {
      tr.t_mid = engine::now_ns();
      tr.mid_on_comm = e.on_comm_thread();
    }
    sink->deliver();
    if (t_asked != 0) {
      tr.epoch = epoch;
      tr.key = key;
      tr.peer = owner;
      tr.t_first = t_asked;
      tr.t_last = engine::now_ns();
      tr.last_on_comm = tr.mid_on_comm;
      e.traces.push_back(tr);
    }
    if (auto it = e.graphs->importing.find({epoch, owner}); it != e.graphs->importing.end())
      if (--it->second == 0) e.graphs->importing.erase(it);
    e.graphs->import_done(e, epoch);
    return false;
  }
  void fail(engine&, const std::string&, int) override {}

  std::uint64_t epoch = 0, key = 0;
  int owner = 0;
  wire_type type;
  std::size_t expected_bytes = 0;
  std::uint64_t one_message = 0;  ///< the bytes of the one receive posted; 0: header first
  /// one_message: the sink's storage, made by dist_import on the thread that asks (a tile's
  /// zeroed block is ~0.1 ms; a graph's imports started in one progress step would otherwise
  /// hold the step's lock for all of them: 24 ms for 180 tiles of 512 KiB, measured).
  void* buf = nullptr;
  std::unique_ptr<import_sink> sink;
  wire_header hdr;
  bool have_header = false;
  std::int64_t t_asked = 0;  ///< tracing (0: off)
};

/// The owner's value of `key` is ready (its export task ran).
struct export_op final : op {
  int start(engine& e) override {
    graph_service& g = service(e);
    export_rec& r = g.exports[{epoch, key}];
    r.ready = true;
    r.hdr.hash = type.hash;
    r.hdr.size = type.size;
    r.hdr.bytes = value.bytes;
    std::strncpy(r.hdr.name, type.name, sizeof r.hdr.name - 1);
    r.value = std::move(value);
    r.t_final = t_final;
    for (const auto& [dest, m] : r.waiting)
      g.send_value(e, r, key, dest, m);
    r.waiting.clear();
    return MPI_SUCCESS;
  }
  bool complete(engine&, const MPI_Status&, int) override { return false; }
  void fail(engine&, const std::string&, int) override {}
  std::uint64_t epoch = 0, key = 0;
  wire_type type;
  export_value value;
  std::int64_t t_final = 0;  ///< tracing: when the export task ran (0: off)
};

}  // namespace

void graph_service::send_value(engine& e, export_rec& r, std::uint64_t key, int dest,
                               const request_msg& m) {
  const std::uint64_t expect = m.one_message_bytes();
  if (m.hash != r.hdr.hash || (expect != 0 && expect != r.value.bytes)) {
    std::string asked(m.name, strnlen(m.name, sizeof m.name));
    std::string have(r.hdr.name, strnlen(r.hdr.name, sizeof r.hdr.name));
    e.raise_fault(graph_where(e) + ": rank " + std::to_string(dest) + " asks for key " +
                      std::to_string(key) + " as " + readable(asked.c_str()) + " (" +
                      (expect != 0 ? std::to_string(expect) + " bytes" : std::string("any size")) +
                      "); this rank owns it as " + readable(have.c_str()) + " (" +
                      std::to_string(r.value.bytes) + " bytes)",
                  e.rank(), true);
    return;
  }
  const int tag = static_cast<int>(key);
  owned_send* hdr_send = nullptr;
  if (expect == 0) {  // the asker does not know the size: the header first
    auto hdr = std::make_shared<wire_header>(r.hdr);
    hdr_send = new owned_send(e.graph_val_comm(), dest, tag, hdr.get(), sizeof(wire_header), hdr);
  }
  owned_send* bytes_send =
      r.value.bytes > 0
          ? new owned_send(e.graph_val_comm(), dest, tag, r.value.data, r.value.bytes, r.value.keep)
          : nullptr;
  if (bytes_send != nullptr && r.t_final != 0) {
    bytes_send->m_traced = true;
    bytes_send->m_trace.epoch = m.epoch;
    bytes_send->m_trace.key = key;
    bytes_send->m_trace.peer = dest;
    bytes_send->m_trace.is_export = true;
    bytes_send->m_trace.t_first = r.t_final;
    bytes_send->m_trace.t_request = m.t_seen;
    bytes_send->m_trace.t_mid = engine::now_ns();
    bytes_send->m_trace.mid_on_comm = e.on_comm_thread();
  }
  for (owned_send* o : {hdr_send, bytes_send}) {
    if (o == nullptr) continue;
    if (const int err = o->start(e); err != MPI_SUCCESS) {
      if (o == hdr_send) delete bytes_send;
      delete o;
      e.raise_fault(graph_where(e) + ": sending key " + std::to_string(key) + " to rank " +
                        std::to_string(dest) + ": " + mpi_error_text(err),
                    e.rank(), true);
      return;
    }
    e.activate(o);
  }
}

void dist_import(dist_state& s, std::uint64_t key, int owner, const wire_type& t, std::size_t bytes,
                 std::unique_ptr<import_sink> sink) {
  auto* o = new import_op();
  o->epoch = s.epoch;
  o->key = key;
  o->owner = owner;
  o->type = t;
  o->expected_bytes = bytes;
  o->sink = std::move(sink);
  // The size is known (a T, or a datablock asked for with its size): one message, into
  // storage made here, outside the progress step (import_op::buf).
  o->one_message = one_message_bytes(t.size, bytes);
  if (o->one_message != 0) o->buf = o->sink->buffer(o->one_message);
  s.e->submit(o);
}

void dist_export(dist_state& s, std::uint64_t key, const wire_type& t, export_value v) {
  auto* o = new export_op();
  o->epoch = s.epoch;
  o->key = key;
  o->type = t;
  o->value = std::move(v);
  if (s.e->tracing()) o->t_final = engine::now_ns();
  // On the export task's worker: it starts the op itself (posting the value's sends to the
  // ranks that asked) when it can take the progress lock, instead of waking the communication
  // worker (engine::submit_and_help; funneled or worker_progress off: submit).
  s.e->submit_and_help(o);
}
}  // namespace locus::mpi::detail
