// locus/ext/sockets.hpp — the workers grouped by socket, as the locality schedulers see them:
// LAWS's sockets (docs/design/0017) and CAB's squads (docs/design/0018) are the same groups.
//
// One group per socket (package) that has workers, in package order; its head is its
// lowest-numbered worker; each group has one shared pool the scheduler gives a meaning to
// (LAWS: the CF pool; CAB: the inter-socket pool). Built once, by the scheduler's idle-domain
// function (before any worker starts); read-only afterwards but for the pools.
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <vector>

#include "locus/ext/pool.hpp"
#include "locus/ext/scheduler.hpp"
#include "locus/topology.hpp"

namespace locus::ext {

struct socket_group {
  unsigned package = 0;  ///< the topology's package id
  unsigned head = 0;     ///< its lowest-numbered worker
  std::vector<unsigned> workers;
  shared_pool pool;
};

struct socket_layout {
  std::vector<unsigned> socket_of;  ///< per worker: its group (an index into sockets)
  std::vector<std::unique_ptr<socket_group>> sockets;
};

/// The groups of the workers whose cores are `core_of` (indices into topo.cores()).
[[nodiscard]] inline socket_layout make_socket_layout(const topology& topo,
                                                      const std::vector<std::size_t>& core_of) {
  socket_layout out;
  std::vector<unsigned> packages;
  packages.reserve(core_of.size());
  for (std::size_t c : core_of)
    packages.push_back(topo.cores()[c].package);
  std::vector<unsigned> used = packages;
  std::sort(used.begin(), used.end());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  out.sockets.reserve(used.size());
  for (unsigned p : used) {
    auto s = std::make_unique<socket_group>();
    s->package = p;
    out.sockets.push_back(std::move(s));
  }
  out.socket_of.reserve(packages.size());
  for (unsigned w = 0; w < packages.size(); ++w) {
    const auto i = static_cast<unsigned>(std::lower_bound(used.begin(), used.end(), packages[w]) -
                                         used.begin());
    out.socket_of.push_back(i);
    if (out.sockets[i]->workers.empty()) out.sockets[i]->head = w;
    out.sockets[i]->workers.push_back(w);
  }
  return out;
}

/// One socket's L3 in bytes (S_c of both papers): the topology's L3 group size times the L3
/// groups per socket.
[[nodiscard]] inline std::size_t socket_cache_bytes(const topology& topo) noexcept {
  const std::size_t groups_per_socket =
      std::max<std::size_t>(1, topo.num_l3_groups() / std::max(1u, topo.num_packages()));
  return topo.l3_bytes() * groups_per_socket;
}

/// The scheduler of a strategy whose one object `impl` is its acquisition, spawn rule and
/// iteration hooks, with one idle domain per socket from impl->domains(topo, core_of) (LAWS and
/// CAB). The parts share impl's ownership.
template <class Impl>
[[nodiscard]] std::shared_ptr<const scheduler> make_socket_scheduler(std::string_view name,
                                                                     std::shared_ptr<Impl> impl) {
  auto s = std::make_shared<scheduler>();
  s->name = name;
  s->acquire = std::shared_ptr<acquisition>(impl, impl.get());
  s->spawn = std::shared_ptr<spawn_rule>(impl, impl.get());
  s->iterations = std::shared_ptr<iteration_hooks>(impl, impl.get());
  s->idle_domains = [impl](const topology& topo, const std::vector<std::size_t>& core_of,
                           const std::vector<unsigned>& /*place_of*/) {
    return impl->domains(topo, core_of);
  };
  return s;
}

}  // namespace locus::ext
