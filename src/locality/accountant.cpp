// locality/accountant.cpp — classing declared accesses by distance, and the cache models.
#include <locus/locality/accountant.hpp>

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>

#include <locus/config.hpp>

namespace locus {
namespace {

template <class Counts>
distance_counts from_classes(const Counts& v) {
  return {v[0], v[1], v[2], v[3], v[4], v[5]};
}

}  // namespace

/// The private model's miss sink: appends each run of missed lines to the worker's buffer.
struct accountant::feed {
  worker_state* w;
  distance_class cls;
  static void sink(void* context, std::uint64_t first, std::uint64_t lines) {
    auto* f = static_cast<feed*>(context);
    f->w->buffer.push_back(run{first, lines, f->cls});
  }
};

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
  // Checked even with the model off, so that turning it on cannot surface a bad option. Lines
  // no larger than a page keep every line inside one page, hence of one distance class.
  if (options.line_bytes < 8 || options.line_bytes > home_map::page_bytes ||
      !std::has_single_bit(options.line_bytes)) {
    throw make_config_error("line_bytes", std::to_string(options.line_bytes),
                            "a power of two from 8 to 4096 (the line of the cache model)");
  }
  m_line_bytes = options.line_bytes;
  m_line_shift = static_cast<unsigned>(std::countr_zero(m_line_bytes));
  const std::size_t l3 = options.l3_bytes != 0 ? options.l3_bytes : m_topo.l3_bytes();
  m_cache_model = options.cache_model && l3 != 0;
  m_l3_ways = options.l3_ways != 0 ? options.l3_ways : m_topo.l3_ways();
  m_private_bytes = !m_cache_model || !options.private_level ? 0
                    : options.private_bytes != 0             ? options.private_bytes
                                                             : m_topo.l2_bytes();
  m_workers = std::make_unique<worker_state[]>(m_worker_core.size());
  m_groups = std::make_unique<l3_group[]>(m_topo.num_l3_groups());
  if (m_cache_model) {
    // Models allocate as lines are touched (cache_model.hpp): nothing here grows with l3.
    for (unsigned g = 0; g < m_topo.num_l3_groups(); ++g)
      m_groups[g].model = std::make_unique<cache_model>(l3, m_line_bytes, m_l3_ways);
    for (std::size_t w = 0; w < m_worker_core.size(); ++w) {
      if (m_private_bytes != 0)
        m_workers[w].private_model = std::make_unique<cache_model>(m_private_bytes, m_line_bytes);
      m_workers[w].buffer.reserve(k_buffer_runs + 64);
    }
  }
  // Nodes nest in packages, so any core of a node gives the node's package.
  m_package_of_numa.assign(m_topo.num_numa_nodes(), ~0U);
  for (const core_info& c : m_topo.cores())
    if (c.numa < m_package_of_numa.size()) m_package_of_numa[c.numa] = c.package;
  m_numa_class = m_topo.num_numa_nodes() > m_topo.num_packages();
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
          return m_numa_class ? k_numa : k_socket;
        case distance::same_package:
          return k_socket;
        case distance::remote:
          return k_remote;
      }
      return k_remote;
    case home::kind::numa:
      if (h.index() == c.numa) return m_numa_class ? k_numa : k_socket;
      // Another node of the worker's package is still "same socket", as for a core home.
      return h.index() < m_package_of_numa.size() && m_package_of_numa[h.index()] == c.package
                 ? k_socket
                 : k_remote;
    case home::kind::package:
      return c.package == h.index() ? k_socket : k_remote;
  }
  return k_remote;
}

void accountant::model_run(worker_state& w, std::size_t core, std::uintptr_t begin,
                           std::uintptr_t end, distance_class cls) {
  // begin..end lies in pages of one class; lines never straddle pages (line_bytes <= 4096).
  const std::uint64_t first = begin >> m_line_shift;
  const std::uint64_t lines = ((end - 1) >> m_line_shift) - first + 1;
  if (w.private_model != nullptr) {
    feed f{&w, cls};
    const cache_counts c = w.private_model->access_lines(first, lines, &feed::sink, &f);
    w.private_counts.lines += c;
    w.private_counts.misses[cls] += c.misses;
  } else {
    w.buffer.push_back(run{first, lines, cls});
  }
  if (w.buffer.size() >= k_buffer_runs) drain(w, core);
}

void accountant::drain(worker_state& w, std::size_t core) const {
  if (w.buffer.empty()) return;
  l3_group& g = m_groups[m_topo.cores()[core].l3];
  {
    std::lock_guard lock(g.mutex);
    for (const run& r : w.buffer) {
      const cache_counts c = g.model->access_lines(r.first, r.lines);
      w.l3_counts.lines += c;
      w.l3_counts.misses[r.cls] += c.misses;
    }
  }
  w.buffer.clear();
}

void accountant::check_worker(unsigned worker) const {
  if (worker >= m_worker_core.size()) {
    throw std::out_of_range("accountant::record worker=" + std::to_string(worker) +
                            " names no worker; expected 0 to " +
                            std::to_string(m_worker_core.size() - 1));
  }
}

template <class HomeOf>
std::uint64_t accountant::record_pages(unsigned worker, const void* p, std::size_t bytes,
                                       HomeOf home_of) {
  const std::size_t core = m_worker_core[worker];
  worker_state& w = m_workers[worker];
  // Uncontended but for a reader (see the header): never held while waiting for a worker.
  std::lock_guard lock(w.mutex);
  const std::uint64_t missed_before = w.private_counts.lines.misses;
  // Pages of one class in a row make one run for the models.
  auto at = reinterpret_cast<std::uintptr_t>(p);
  std::uintptr_t run_begin = at;
  distance_class run_cls = k_classes;
  std::size_t left = bytes;
  while (left > 0) {
    const std::size_t in_page = std::min(left, home_map::page_bytes - at % home_map::page_bytes);
    const distance_class cls = classify(core, home_of(reinterpret_cast<const void*>(at)));
    w.bytes[cls] += in_page;
    if (cls != run_cls) {
      if (m_cache_model && run_cls != k_classes) model_run(w, core, run_begin, at, run_cls);
      run_begin = at;
      run_cls = cls;
    }
    at += in_page;
    left -= in_page;
  }
  if (m_cache_model) model_run(w, core, run_begin, at, run_cls);
  return w.private_counts.lines.misses - missed_before;  // only grows under the lock
}

void accountant::record(unsigned worker, const void* p, std::size_t bytes, access mode) {
  (void)record_missed(worker, data_range{static_cast<const std::byte*>(p), bytes, mode});
}

std::uint64_t accountant::record_missed(unsigned worker, const data_range& r) {
  check_worker(worker);
  if (r.bytes == 0) return 0;
  std::uint64_t lines = 0;
  if (writes(r.mode)) {
    const home mine = home::on_core(static_cast<unsigned>(m_worker_core[worker]));
    lines = record_pages(worker, r.begin, r.bytes,
                         [&](const void* page) { return m_homes.claim(page, mine); });
  } else {
    lines = record_pages(worker, r.begin, r.bytes,
                         [&](const void* page) { return m_homes.home_of(page); });
  }
  return lines * m_line_bytes;
}

void accountant::record_homed(unsigned worker, const void* p, std::size_t bytes, home h) {
  check_worker(worker);
  if (bytes == 0) return;
  record_pages(worker, p, bytes, [h](const void*) { return h; });
}

std::size_t accountant::model_bytes() const {
  std::size_t sum = 0;
  for (std::size_t w = 0; w < m_worker_core.size(); ++w) {
    std::lock_guard lock(m_workers[w].mutex);
    if (m_workers[w].private_model != nullptr) sum += m_workers[w].private_model->memory_bytes();
  }
  for (unsigned g = 0; g < m_topo.num_l3_groups(); ++g) {
    std::lock_guard lock(m_groups[g].mutex);
    if (m_groups[g].model != nullptr) sum += m_groups[g].model->memory_bytes();
  }
  return sum;
}

locality_stats accountant::snapshot() const {
  locality_stats s;
  s.cache_modelled = m_cache_model;
  s.line_bytes = m_cache_model ? m_line_bytes : 0;
  s.l3_ways = m_cache_model ? m_l3_ways : 0;
  s.private_bytes = m_private_bytes;
  const std::size_t n = m_worker_core.size();
  s.per_worker.resize(n);
  s.private_per_worker.resize(n);
  s.l3_per_worker.resize(n);
  s.per_socket.resize(m_topo.num_packages());
  s.private_per_socket.resize(m_topo.num_packages());
  s.l3_per_socket.resize(m_topo.num_packages());
  s.l3_per_group.resize(m_topo.num_l3_groups());
  for (std::size_t i = 0; i < n; ++i) {
    worker_state& w = m_workers[i];
    const core_info& c = m_topo.cores()[m_worker_core[i]];
    {
      std::lock_guard lock(w.mutex);
      if (m_cache_model) drain(w, m_worker_core[i]);
      s.per_worker[i] = from_classes(w.bytes);
      s.private_per_worker[i] = {w.private_counts.lines, from_classes(w.private_counts.misses)};
      s.l3_per_worker[i] = {w.l3_counts.lines, from_classes(w.l3_counts.misses)};
    }
    // Groups and sockets are sums of their workers' counts: one path for each quantity.
    s.per_socket[c.package] += s.per_worker[i];
    s.private_per_socket[c.package] += s.private_per_worker[i];
    s.l3_per_socket[c.package] += s.l3_per_worker[i];
    s.l3_per_group[c.l3] += s.l3_per_worker[i];
    s.total += s.per_worker[i];
    s.private_total += s.private_per_worker[i];
    s.l3_total += s.l3_per_worker[i];
  }
  return s;
}

void accountant::reset() {
  for (std::size_t i = 0; i < m_worker_core.size(); ++i) {
    worker_state& w = m_workers[i];
    std::lock_guard lock(w.mutex);
    if (m_cache_model) drain(w, m_worker_core[i]);  // the old accesses warm the model, uncounted
    std::fill(std::begin(w.bytes), std::end(w.bytes), 0);
    w.private_counts = {};
    w.l3_counts = {};
  }
}

}  // namespace locus
