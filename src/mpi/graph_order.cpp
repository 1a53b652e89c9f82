// src/mpi/graph_order.cpp — the ranks create their dist_graphs in the same order, or learn
// that they did not (dist_graph.hpp, Rules; docs/design/0014-mpi.md).
//
// A graph's identity is its call site or name; its epoch is its rank in the creation order, and
// its sequence hash chains the identities of every graph created so far on this rank. Three
// checks, all on the communication worker, each a fault (every rank is told):
//   * a request carries the asker's hash of its epoch: the owner compares it with its own, at
//     once or when it creates that epoch (requests that come first wait in graph_service::early);
//   * the fence of a graph reduces every rank's {hash, ~hash} by max (dist_graph.cpp): if two
//     ranks' hashes differ, the result differs from every rank's own pair (were it equal to a
//     rank's pair, that hash would be both the largest and the smallest: all equal);
//   * a rank's goodbye says how many graphs it created: a graph of this rank with a later epoch
//     that waits for it (an import from it, or a fence) would wait forever.
#include <cstring>
#include <mutex>
#include <string_view>

#include "graph_service.hpp"

namespace locus::mpi::detail {

namespace {

/// A graph was created on this rank: its identity, and the requests that came before it.
struct open_op final : op {
  int start(engine& e) override {
    graph_service& g = service(e);
    g.epochs[epoch] = epoch_id{sequence, identity};
    if (auto it = g.early.find(epoch); it != g.early.end()) {
      auto waiting = std::move(it->second);
      g.early.erase(it);
      for (auto& [src, m] : waiting)
        g.on_request(e, src, m);  // checks the asker's hash first
    }
    return MPI_SUCCESS;
  }
  bool complete(engine&, const MPI_Status&, int) override { return false; }
  void fail(engine&, const std::string&, int) override {}
  std::uint64_t epoch = 0, sequence = 0;
  std::string identity;
};

}  // namespace

void graph_open(dist_state& s) {
  {
    // The epoch and the sequence hash are taken together: two threads creating graphs at once
    // get consecutive epochs whose hashes chain in that order.
    std::lock_guard lk(s.e->graph_seq_mx);
    s.epoch = s.e->graph_epochs.load(std::memory_order_relaxed);
    s.e->graph_seq_hash =
        (s.e->graph_seq_hash ^ hash_name(s.identity.c_str())) * 1099511628211ull + s.epoch;
    s.sequence = s.e->graph_seq_hash;
    s.e->graph_epochs.store(s.epoch + 1, std::memory_order_relaxed);
  }
  auto* open = new open_op();
  open->epoch = s.epoch;
  open->sequence = s.sequence;
  open->identity = s.identity;
  s.e->submit(open);
}

bool graph_service::same_graph(engine& e, int src, const request_msg& m) {
  const auto it = epochs.find(m.epoch);
  if (it == epochs.end() || it->second.sequence == m.sequence) return true;
  const std::string theirs(m.site, strnlen(m.site, sizeof m.site));
  e.raise_fault(graph_where(e) +
                    ": the ranks created their dist_graphs in different orders: graph #" +
                    std::to_string(m.epoch) + " is " + it->second.identity + " on this rank and " +
                    theirs + " on rank " + std::to_string(src) +
                    " (or an earlier graph differs; graphs are matched by creation order: create "
                    "them in the same order on every rank)",
                e.rank(), true);
  return false;
}

void graph_service::check_left(engine& e, std::uint64_t epoch, int owner) {
  const auto it = left.find(owner);
  if (it == left.end() || it->second > epoch) return;
  const auto id = epochs.find(epoch);
  e.raise_fault(graph_where(e) + ": rank " + std::to_string(owner) + " ended after creating " +
                    std::to_string(it->second) + " dist_graphs, while this rank's graph #" +
                    std::to_string(epoch) + " (" +
                    (id != epochs.end() ? id->second.identity : std::string("?")) +
                    ") waits for it: the ranks created different numbers of dist_graphs",
                e.rank(), true);
}

void graph_peer_left(engine& e, int from, std::uint64_t graphs) {
  if (!e.graphs) return;
  graph_service& g = *e.graphs;
  g.left[from] = graphs;
  for (const auto& [k, n] : g.importing)
    if (k.second == from && k.first >= graphs) return g.check_left(e, k.first, from);
  for (const auto& [epoch, started] : g.fencing)
    if (started && epoch >= graphs) return g.check_left(e, epoch, from);
}

std::string site_of(const char* file, unsigned line) {
  // The file's last component: ranks built from the same sources in different directories (or
  // with different -ffile-prefix-map) still agree.
  std::string_view f = file;
  if (const auto slash = f.find_last_of('/'); slash != std::string_view::npos)
    f.remove_prefix(slash + 1);
  return std::string(f) + ":" + std::to_string(line);
}

}  // namespace locus::mpi::detail
