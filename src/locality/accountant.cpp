// locality/accountant.cpp — classing declared accesses by distance, and the L3 models.
#include <locus/locality/accountant.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>

#include <locus/config.hpp>

namespace locus {
namespace {

locality_bytes from_classes(const std::uint64_t (&v)[5]) {
  return {v[0], v[1], v[2], v[3], v[4]};
}

locality_bytes minus(const locality_bytes& a, const locality_bytes& b) {
  // Raw values only grow and the reader mutex orders a snapshot after the reset that took b,
  // so a >= b field by field (coherence of each counter): no wrap.
  return {a.same_core - b.same_core, a.same_l3 - b.same_l3, a.same_socket - b.same_socket,
          a.remote - b.remote, a.unplaced - b.unplaced};
}

}  // namespace

accountant::accountant(const topology& topo, std::vector<std::size_t> worker_core,
                       accountant_options options)
    : m_topo(topo), m_worker_core(std::move(worker_core)) {
  if (m_worker_core.empty()) {
    throw make_config_error("accountant worker_core", "{}", "the core index of each worker");
  }
  for (std::size_t w = 0; w < m_worker_core.size(); ++w) {
    if (m_worker_core[w] >= m_topo.num_cores()) {
      throw std::out_of_range(
          "accountant worker_core[" + std::to_string(w) + "]=" + std::to_string(m_worker_core[w]) +
          " names no core; expected 0 to " + std::to_string(m_topo.num_cores() - 1) +
          " (the topology has " + std::to_string(m_topo.num_cores()) + " cores)");
    }
  }
  const std::size_t l3 = options.l3_bytes != 0 ? options.l3_bytes : m_topo.l3_bytes();
  m_cache_model = options.cache_model && l3 != 0;
  m_line_bytes = options.line_bytes;
  m_counters = std::make_unique<worker_counters[]>(m_worker_core.size());
  m_groups = std::make_unique<l3_group[]>(m_topo.num_l3_groups());
  if (m_cache_model) {
    for (unsigned g = 0; g < m_topo.num_l3_groups(); ++g)
      m_groups[g].model = std::make_unique<cache_model>(l3, m_line_bytes);
  } else if (options.line_bytes == 0 || (options.line_bytes & (options.line_bytes - 1)) != 0) {
    // Checked even with the model off, so that turning it on cannot surface a bad option.
    (void)cache_model(0, options.line_bytes);
  }
  m_baseline.resize(m_worker_core.size());
  // Nodes nest in packages, so any core of a node gives the node's package.
  m_package_of_numa.assign(m_topo.num_numa_nodes(), ~0U);
  for (const core_info& c : m_topo.cores())
    if (c.numa < m_package_of_numa.size()) m_package_of_numa[c.numa] = c.package;
}

accountant::~accountant() = default;

accountant::distance_class accountant::classify(std::size_t core, home h) const noexcept {
  const core_info& c = m_topo.cores()[core];
  switch (h.where()) {
    case home::kind::none:
      return k_unplaced;
    case home::kind::core:
      switch (m_topo.between(core, h.index())) {
        case distance::same_core:
          return k_core;
        case distance::same_l3:
          return k_l3;
        case distance::same_numa:
        case distance::same_package:
          return k_socket;
        case distance::remote:
          return k_remote;
      }
      return k_remote;
    case home::kind::numa:
      // Another node of the worker's package is still "same socket", as for a core home.
      return h.index() < m_package_of_numa.size() && m_package_of_numa[h.index()] == c.package
                 ? k_socket
                 : k_remote;
    case home::kind::package:
      return c.package == h.index() ? k_socket : k_remote;
  }
  return k_remote;
}

void accountant::record(unsigned worker, const void* p, std::size_t bytes, access mode) {
  if (worker >= m_worker_core.size()) {
    throw std::out_of_range("accountant::record worker=" + std::to_string(worker) +
                            " names no worker; expected 0 to " +
                            std::to_string(m_worker_core.size() - 1));
  }
  if (bytes == 0) return;
  const std::size_t core = m_worker_core[worker];
  const home mine = home::on_core(static_cast<unsigned>(core));
  const bool write = writes(mode);

  std::uint64_t sums[k_classes] = {};
  auto at = reinterpret_cast<std::uintptr_t>(p);
  std::size_t left = bytes;
  while (left > 0) {
    const std::size_t in_page = std::min(left, home_map::page_bytes - at % home_map::page_bytes);
    const void* page = reinterpret_cast<const void*>(at);
    const home h = write ? m_homes.claim(page, mine) : m_homes.home_of(page);
    sums[classify(core, h)] += in_page;
    at += in_page;
    left -= in_page;
  }
  worker_counters& mine_counters = m_counters[worker];
  for (unsigned k = 0; k < k_classes; ++k) {
    if (sums[k] == 0) continue;
    // The owner is the only writer: a relaxed load and store, no read-modify-write.
    auto& c = mine_counters.bytes[k];
    c.store(c.load(std::memory_order_relaxed) + sums[k], std::memory_order_relaxed);
  }

  if (!m_cache_model) return;
  l3_group& g = m_groups[m_topo.cores()[core].l3];
  std::lock_guard lock(g.mutex);
  g.counts += g.model->access(p, bytes);
}

locality_stats accountant::snapshot() const {
  locality_stats s;
  s.cache_modelled = m_cache_model;
  s.line_bytes = m_cache_model ? m_line_bytes : 0;
  s.per_socket.resize(m_topo.num_packages());
  s.per_worker.resize(m_worker_core.size());
  s.l3_per_group.resize(m_topo.num_l3_groups());
  s.l3_per_socket.resize(m_topo.num_packages());

  std::lock_guard reader(m_reader_mutex);
  for (std::size_t w = 0; w < m_worker_core.size(); ++w) {
    std::uint64_t raw[k_classes];
    for (unsigned k = 0; k < k_classes; ++k)
      raw[k] = m_counters[w].bytes[k].load(std::memory_order_relaxed);
    s.per_worker[w] = minus(from_classes(raw), m_baseline[w]);
    s.per_socket[m_topo.cores()[m_worker_core[w]].package] += s.per_worker[w];
    s.total += s.per_worker[w];
  }
  for (unsigned g = 0; g < m_topo.num_l3_groups(); ++g) {
    std::lock_guard lock(m_groups[g].mutex);
    s.l3_per_group[g] = m_groups[g].counts;
  }
  // Each L3 group lies in one package (the topology nests them): take it from any core.
  std::vector<bool> counted(m_topo.num_l3_groups(), false);
  for (const core_info& c : m_topo.cores()) {
    if (counted[c.l3]) continue;
    counted[c.l3] = true;
    s.l3_per_socket[c.package] += s.l3_per_group[c.l3];
  }
  return s;
}

void accountant::reset() {
  std::lock_guard reader(m_reader_mutex);
  for (std::size_t w = 0; w < m_worker_core.size(); ++w) {
    std::uint64_t raw[k_classes];
    for (unsigned k = 0; k < k_classes; ++k)
      raw[k] = m_counters[w].bytes[k].load(std::memory_order_relaxed);
    m_baseline[w] = from_classes(raw);
  }
  for (unsigned g = 0; g < m_topo.num_l3_groups(); ++g) {
    std::lock_guard lock(m_groups[g].mutex);
    m_groups[g].counts = {};
  }
}

}  // namespace locus
