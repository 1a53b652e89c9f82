// binding.cpp — which core and processor each worker takes (config::bind), and the printout of
// where the workers sit. The topology's ids are dense and nested (topology.cpp), which the
// ranks below rely on.
#include <algorithm>
#include <array>
#include <map>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "locus/topology.hpp"

namespace locus {

namespace {

/// Spread ranking of the cores (see bind_workers): per core, the key (rank of the core in its
/// L3 group, rank of the group in its NUMA node, rank of the node in its package, package);
/// cores sorted by key, ties (none in a well-formed tree) by index.
std::vector<std::size_t> spread_order(const std::vector<core_info>& cores) {
  std::map<unsigned, unsigned> in_l3, in_numa, in_package;  // children seen so far per parent
  std::map<unsigned, unsigned> l3_rank, numa_rank;          // a group's / node's rank
  std::vector<std::array<unsigned, 4>> key(cores.size());
  for (std::size_t c = 0; c < cores.size(); ++c) {
    const core_info& ci = cores[c];
    if (!numa_rank.contains(ci.numa)) numa_rank[ci.numa] = in_package[ci.package]++;
    if (!l3_rank.contains(ci.l3)) l3_rank[ci.l3] = in_numa[ci.numa]++;
    key[c] = {in_l3[ci.l3]++, l3_rank[ci.l3], numa_rank[ci.numa], ci.package};
  }
  std::vector<std::size_t> order(cores.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return key[a] < key[b]; });
  return order;
}

}  // namespace

worker_binding bind_workers(const topology& topo, std::size_t workers, bind_policy how) {
  const auto& cores = topo.cores();
  if (cores.empty()) throw std::invalid_argument("bind_workers: the topology has no cores");
  const std::size_t ncores = cores.size();
  worker_binding b;
  b.core.reserve(workers);
  for (std::size_t i = 0; i + ncores <= workers; i += ncores) {  // full rounds: every core
    for (std::size_t c = 0; c < ncores; ++c)
      b.core.push_back(c);
  }
  const std::size_t partial = workers % ncores;
  if (how == bind_policy::close) {
    for (std::size_t c = 0; c < partial; ++c)
      b.core.push_back(c);
  } else {
    std::vector<std::size_t> take = spread_order(cores);
    take.resize(partial);
    std::sort(take.begin(), take.end());  // numbered in core order
    b.core.insert(b.core.end(), take.begin(), take.end());
  }
  b.os_cpu.reserve(workers);
  if (topo.is_virtual()) {
    std::vector<unsigned> cpus;
    cpus.reserve(cores.size());
    for (const core_info& ci : cores)
      cpus.push_back(ci.os_cpu);
    std::sort(cpus.begin(), cpus.end());
    cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
    for (std::size_t i = 0; i < workers; ++i)
      b.os_cpu.push_back(cpus[i % cpus.size()]);
  } else {
    for (const std::size_t c : b.core)
      b.os_cpu.push_back(cores[c].os_cpu);
  }
  return b;
}

std::string describe_workers(const topology& topo, const worker_binding& binding,
                             const std::vector<unsigned>& place_of) {
  std::string s;
  for (std::size_t w = 0; w < binding.core.size(); ++w) {
    const core_info& ci = topo.cores().at(binding.core[w]);
    s += "worker " + std::to_string(w) + ": socket " + std::to_string(ci.package) + ", NUMA node " +
         std::to_string(ci.numa) + ", L3 group " + std::to_string(ci.l3) + ", core " +
         std::to_string(ci.core);
    if (w < binding.os_cpu.size()) s += ", cpu " + std::to_string(binding.os_cpu[w]);
    if (w < place_of.size()) s += ", place " + std::to_string(place_of[w]);
    s += '\n';
  }
  return s;
}

}  // namespace locus
