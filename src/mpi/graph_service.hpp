// src/mpi/graph_service.hpp — the communication worker's state of distributed graphs (private
// to the mpi module): the messages, each graph's identity, the owner's values, the imports and
// fences in flight. dist_graph.cpp runs the protocol (graph_values.cpp its values); graph_order.cpp
// checks that the ranks created their graphs in the same order. Worker thread only, except
// dist_state.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "engine.hpp"
#include "locus/mpi/dist_graph.hpp"

namespace locus::mpi::detail {

struct wire_header {
  std::uint64_t hash = 0;
  std::uint64_t bytes = 0;
  std::uint64_t size = 0;  ///< the type's size (0: a datablock)
  char name[40] = {};
};
static_assert(sizeof(wire_header) == 64);

/// The bytes of the one message a value travels as when the reader knows its size: a T's size,
/// else the size a datablock was asked for with; 0: unknown (a header, then the bytes). One
/// rule for the reader's receive (dist_import) and the owner's send (request_msg).
[[nodiscard]] constexpr std::uint64_t one_message_bytes(std::uint64_t type_size,
                                                        std::uint64_t declared_bytes) noexcept {
  return type_size != 0 ? type_size : declared_bytes;
}

struct request_msg {
  std::uint64_t epoch = 0, key = 0;
  std::uint64_t sequence = 0;  ///< the asker's creation-sequence hash of `epoch`
  char site[40] = {};          ///< the asker's identity of the graph (truncated)
  // What the asker expects, checked by the owner (one message per value, 2026-11-26e):
  std::uint64_t hash = 0;   ///< its type's hash (wire_type)
  std::uint64_t size = 0;   ///< its type's size (0: a datablock)
  std::uint64_t bytes = 0;  ///< a datablock's size given to event(key, bytes); 0: any
  char name[40] = {};       ///< its type's name (truncated), for the error
  /// Tracing, on the owner only (0 on the wire): when its progress step took the request.
  std::int64_t t_seen = 0;
  /// The value's size the asker pre-posted its receive for (size, else bytes); 0: unknown, the
  /// value comes as a wire_header then its bytes.
  [[nodiscard]] std::uint64_t one_message_bytes() const noexcept {
    return detail::one_message_bytes(size, bytes);
  }
};
static_assert(sizeof(request_msg) == 136);

struct dist_state {
  engine* e = nullptr;
  context* ctx = nullptr;
  std::uint64_t epoch = 0;
  std::uint64_t sequence = 0;  ///< hash of the creation sequence up to and with this graph
  std::string identity;        ///< its call site or name
  int hook = -1;
  bool counted = false;  ///< in engine::graphs_alive (more than one rank)
};

/// The owner's record of one key's value.
struct export_rec {
  bool ready = false;
  wire_header hdr;
  export_value value;
  /// Ranks that asked before the value was ready, with their requests (their expectations).
  std::vector<std::pair<int, request_msg>> waiting;
  std::int64_t t_final = 0;  ///< tracing: when the export task handed the value over
};

struct fence_op;

/// A graph of this rank, as the creation-order check knows it.
struct epoch_id {
  std::uint64_t sequence = 0;
  std::string identity;
};

struct graph_service {
  std::map<std::uint64_t, epoch_id> epochs;  ///< this rank's graphs, by epoch (until the fence)
  /// Requests for epochs this rank has not created yet: their askers' hash, checked then.
  std::map<std::uint64_t, std::vector<std::pair<int, request_msg>>> early;
  /// Imports in flight: (epoch, owner) -> count; for graph_peer_left.
  std::map<std::pair<std::uint64_t, int>, int> importing;
  /// Ranks that ended, and how many graphs they created.
  std::map<int, std::uint64_t> left;
  std::map<std::pair<std::uint64_t, std::uint64_t>, export_rec> exports;
  std::map<std::uint64_t, std::int64_t> imports_pending;  ///< per epoch
  std::map<std::uint64_t, bool> fencing;                  ///< epoch -> its fence started here
  std::map<std::uint64_t, op*> deferred;                  ///< fences waiting for imports
  /// Sends r's value to `dest`, which asked with `m`: one message of the bytes if the asker
  /// pre-posted its receive for them (m.one_message_bytes() != 0), else a header then the bytes.
  /// A value other than the one asked for (type or size) is a fault naming both.
  void send_value(engine& e, export_rec& r, std::uint64_t key, int dest, const request_msg& m);
  void on_request(engine& e, int src, const request_msg& m);
  void import_done(engine& e, std::uint64_t epoch);
  void check_unanswered(engine& e, std::uint64_t epoch);
  /// False (after raising the fault) if `m` comes from a graph other than this rank's `epoch`.
  bool same_graph(engine& e, int src, const request_msg& m);
  /// Raises the fault if a rank that ended never created `epoch`, which waits for it.
  void check_left(engine& e, std::uint64_t epoch, int owner);
};

/// This rank's graph service, made (with its request receive posted) on first use.
graph_service& service(engine& e);
/// "locus::mpi::dist_graph on rank R", the start of the module's graph errors.
[[nodiscard]] std::string graph_where(const engine& e);
/// dist_create's part on the creating thread: the epoch, the sequence hash, and the op that
/// tells the worker (graph_order.cpp).
void graph_open(dist_state& s);

}  // namespace locus::mpi::detail
