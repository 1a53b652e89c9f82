// topology.cpp — the machine model: discovery with hwloc, virtual specs, places and pinning.
//
// Invariant kept by every constructor here: ids are dense, 0-based, numbered in order of first
// appearance over cores(), and nested (an L3 group lies in one NUMA node, a NUMA node in one
// package). between() relies on the nesting: equal l3 ids imply equal numa and package ids.
#include <locus/topology.hpp>

#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>
#include <tuple>
#include <utility>

#include <locus/config.hpp>
#include <locus/detail/strings.hpp>

#ifdef LOCUS_HAVE_HWLOC
#include <hwloc.h>
#endif

namespace locus {

namespace {

using detail::leading_uint;
using detail::lowercase;
using detail::trim;

constexpr std::size_t kib = std::size_t{1} << 10;
constexpr std::size_t mib = std::size_t{1} << 20;
constexpr std::size_t gib = std::size_t{1} << 30;

// Largest OS cpu index we are prepared to build a cpu_set_t for; far above any NR_CPUS.
constexpr unsigned max_os_cpus = 1U << 16;

constexpr std::string_view spec_forms =
    "comma-separated key=value pairs, each key at most once: sockets, numa (per socket), "
    "l3groups (per NUMA node), cores (per L3 group), smt (threads per core), l3ways (ways of "
    "the modelled L3) as positive integers up to 4096; l3, l2, l1 as positive sizes with an "
    "optional unit "
    "B, K, KiB, M, MiB, G, GiB, or KB, MB, GB (any case; all binary: K = 1024) "
    "(e.g. sockets=4,cores=4,l3=6MiB)";
constexpr std::uint64_t max_count = 4096;
constexpr std::uint64_t max_virtual_threads = 65536;

// A size such as "6MiB", "512k", "32 KB" or "100". Units in any case, all binary: cache sizes
// are quoted in binary multiples whatever the suffix ("6 MB L3" means 6 MiB). nullopt on a bad
// unit, zero or overflow.
std::optional<std::size_t> parse_size(std::string_view s) {
  std::string_view tail;
  auto n = leading_uint(s, tail);
  if (!n || *n == 0) return std::nullopt;
  const std::string unit = lowercase(trim(tail));
  std::size_t mult = 0;
  if (unit.empty() || unit == "b") {
    mult = 1;
  } else if (unit == "k" || unit == "kb" || unit == "kib") {
    mult = kib;
  } else if (unit == "m" || unit == "mb" || unit == "mib") {
    mult = mib;
  } else if (unit == "g" || unit == "gb" || unit == "gib") {
    mult = gib;
  } else {
    return std::nullopt;
  }
  if (*n > std::numeric_limits<std::size_t>::max() / mult) return std::nullopt;
  return static_cast<std::size_t>(*n) * mult;
}

std::string format_size(std::size_t bytes) {
  if (bytes >= gib && bytes % gib == 0) return std::to_string(bytes / gib) + " GiB";
  if (bytes >= mib && bytes % mib == 0) return std::to_string(bytes / mib) + " MiB";
  if (bytes >= kib && bytes % kib == 0) return std::to_string(bytes / kib) + " KiB";
  return std::to_string(bytes) + " B";
}

std::string count_of(std::size_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

// The OS processors this thread may run on, ascending; never empty.
std::vector<unsigned> allowed_cpus() {
  std::vector<unsigned> cpus;
  for (unsigned n = 1024; n <= max_os_cpus && cpus.empty(); n *= 2) {
    cpu_set_t* set = CPU_ALLOC(n);
    if (set == nullptr) break;
    const std::size_t bytes = CPU_ALLOC_SIZE(n);
    CPU_ZERO_S(bytes, set);
    if (sched_getaffinity(0, bytes, set) == 0) {
      for (unsigned c = 0; c < n; ++c) {
        if (CPU_ISSET_S(c, bytes, set)) cpus.push_back(c);
      }
      CPU_FREE(set);
      break;
    }
    CPU_FREE(set);  // EINVAL: the kernel's mask is wider than n; retry larger
  }
  if (cpus.empty()) {
    const unsigned hc = std::max(1U, std::thread::hardware_concurrency());
    for (unsigned c = 0; c < hc; ++c)
      cpus.push_back(c);
  }
  return cpus;
}

// Dense ids in order of first appearance.
template <class Key>
unsigned dense_id(std::map<Key, unsigned>& ids, const Key& key) {
  return ids.try_emplace(key, static_cast<unsigned>(ids.size())).first->second;
}

}  // namespace

struct topology::builder {
  // One package, one NUMA node, one L3 group: used when hwloc is absent or fails.
  static topology flat(std::string note) {
    topology t;
    const auto cpus = allowed_cpus();
    for (unsigned i = 0; i < cpus.size(); ++i)
      t.m_cores.push_back(core_info{i, 0, 0, 0, cpus[i], 1});
    t.m_packages = t.m_numa = t.m_l3 = 1;
    t.m_hw_threads = static_cast<unsigned>(cpus.size());
    // glibc reports cache sizes from CPUID; 0 (unknown) where it cannot.
    auto sc = [](int name) { return static_cast<std::size_t>(std::max(0L, sysconf(name))); };
    t.m_l3_bytes = sc(_SC_LEVEL3_CACHE_SIZE);
    t.m_l2_bytes = sc(_SC_LEVEL2_CACHE_SIZE);
    t.m_l1_bytes = sc(_SC_LEVEL1_DCACHE_SIZE);
    t.m_note = std::move(note);
    return t;
  }

#ifdef LOCUS_HAVE_HWLOC
  // Owns an hwloc topology for the length of one discovery.
  struct hwloc_handle {
    hwloc_topology_t topo = nullptr;
    hwloc_handle() = default;
    hwloc_handle(const hwloc_handle&) = delete;
    hwloc_handle& operator=(const hwloc_handle&) = delete;
    ~hwloc_handle() {
      if (topo != nullptr) hwloc_topology_destroy(topo);
    }
  };

  // The machine's hwloc tree, loaded once per process and then copied for each discovery.
  //
  // Loading reads sysfs: over a hundred files on a 2-CPU machine, some 5 ms. Creating a runtime
  // cost that much while it was loaded each time: 10,000 runtimes of 2 workers, each running
  // fib(5), took 57 s, and take 2.9 to 4.1 s with the tree kept (six runs of the test
  // Runtime.ManyCreateRunDestroyCyclesDoNotHang, release build, 2-vCPU VM).
  // What is kept is only what describes the hardware, and the hardware outlives the
  // process (a loaded hwloc tree does not follow CPU hotplug either). What may change while the
  // process runs is its CPU binding (taskset, sched_setaffinity), so each discovery restricts
  // a fresh copy to the binding read at that moment.
  //
  // The mutex orders the one load before every copy, and no copy runs alongside the load.
  // hwloc_topology_dup only reads the source. A failed load is not kept: the next discovery
  // tries again. The object is never destroyed, so a runtime made during static destruction
  // still finds it (the tree stays reachable from it, which leak checkers accept).
  class machine_tree {
   public:
    static machine_tree& instance() {
      static auto* tree = new machine_tree;  // never destroyed; see above
      return *tree;
    }

    // A private copy into `out`; false with `why` set if the tree cannot be loaded or copied.
    bool copy(hwloc_handle& out, std::string& why) {
      const std::lock_guard lock(m_mutex);
      if (m_loaded.topo == nullptr && !load(why)) return false;
      if (hwloc_topology_dup(&out.topo, m_loaded.topo) != 0) {
        out.topo = nullptr;
        why = "hwloc_topology_dup failed";
        return false;
      }
      return true;
    }

   private:
    bool load(std::string& why) {
      hwloc_handle h;
      if (hwloc_topology_init(&h.topo) != 0) {
        h.topo = nullptr;
        why = "hwloc_topology_init failed";
        return false;
      }
      if (hwloc_topology_load(h.topo) != 0) {
        why = "hwloc_topology_load failed";
        return false;
      }
      std::swap(m_loaded.topo, h.topo);
      return true;
    }

    std::mutex m_mutex;
    hwloc_handle m_loaded;  ///< the unrestricted tree; null until the first load succeeds
  };

  // Restricts the tree to the processors the process may use (e.g. under taskset), so workers
  // are never pinned outside that set. Returns whether anything was removed.
  static bool restrict_to_binding(hwloc_topology_t topo) {
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (set == nullptr) return false;
    bool restricted = false;
    if (hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) == 0) {
      hwloc_const_cpuset_t all = hwloc_topology_get_topology_cpuset(topo);
      hwloc_bitmap_and(set, set, all);
      if (!hwloc_bitmap_iszero(set) && !hwloc_bitmap_isequal(set, all)) {
        restricted = hwloc_topology_restrict(topo, set, 0) == 0;
      }
    }
    hwloc_bitmap_free(set);
    return restricted;
  }

  // The group of cores sharing a last-level cache: the L3, else the highest data cache above
  // the core (L2 clusters on some ARM parts), else none.
  static hwloc_obj_t last_level_cache(hwloc_topology_t topo, hwloc_obj_t core) {
    if (auto* l3 = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_L3CACHE, core)) return l3;
    hwloc_obj_t best = nullptr;
    for (hwloc_obj_t o = core->parent; o != nullptr; o = o->parent) {
      if (hwloc_obj_type_is_dcache(o->type)) best = o;
    }
    return best;
  }

  static std::size_t cache_size(hwloc_topology_t topo, hwloc_obj_type_t type, hwloc_obj_t core) {
    auto* c = hwloc_get_ancestor_obj_by_type(topo, type, core);
    return c != nullptr ? static_cast<std::size_t>(c->attr->cache.size) : 0;
  }

  static std::optional<topology> from_hwloc(std::string& why) {
    hwloc_handle h;
    if (!machine_tree::instance().copy(h, why)) return std::nullopt;
    const bool restricted = restrict_to_binding(h.topo);
    // Some platforms expose PUs without Core objects; then each PU is a core.
    hwloc_obj_type_t core_type = HWLOC_OBJ_CORE;
    int ncores = hwloc_get_nbobjs_by_type(h.topo, core_type);
    if (ncores <= 0) {
      core_type = HWLOC_OBJ_PU;
      ncores = hwloc_get_nbobjs_by_type(h.topo, core_type);
    }
    if (ncores <= 0) {
      why = "hwloc found no cores";
      return std::nullopt;
    }

    topology t;
    using obj = hwloc_obj_t;
    std::map<obj, unsigned> packages;
    std::map<std::pair<obj, obj>, unsigned> nodes;
    std::map<std::tuple<obj, obj, obj>, unsigned> groups;
    unsigned threads_total = 0;
    for (int i = 0; i < ncores; ++i) {
      obj core = hwloc_get_obj_by_type(h.topo, core_type, static_cast<unsigned>(i));
      obj first_pu =
          hwloc_get_next_obj_inside_cpuset_by_type(h.topo, core->cpuset, HWLOC_OBJ_PU, nullptr);
      if (first_pu == nullptr) continue;  // a core with no usable PU cannot host a worker
      const int nthreads =
          hwloc_get_nbobjs_inside_cpuset_by_type(h.topo, core->cpuset, HWLOC_OBJ_PU);
      obj pkg = hwloc_get_ancestor_obj_by_type(h.topo, HWLOC_OBJ_PACKAGE, core);
      // NUMA nodes hang off the tree as memory children; pick the first whose CPUs cover ours.
      obj node = hwloc_get_next_obj_covering_cpuset_by_type(h.topo, core->cpuset,
                                                            HWLOC_OBJ_NUMANODE, nullptr);
      obj llc = last_level_cache(h.topo, core);
      // Keys include the enclosing levels so ids stay nested even on odd machines
      // (an L3 spanning two NUMA nodes becomes two groups).
      core_info ci;
      ci.core = static_cast<unsigned>(t.m_cores.size());
      ci.package = dense_id(packages, pkg);
      ci.numa = dense_id(nodes, std::pair{pkg, node});
      ci.l3 = dense_id(groups, std::tuple{pkg, node, llc});
      ci.os_cpu = first_pu->os_index;
      ci.threads = static_cast<unsigned>(std::max(1, nthreads));
      threads_total += ci.threads;
      if (t.m_cores.empty()) {
        t.m_l3_bytes = llc != nullptr ? static_cast<std::size_t>(llc->attr->cache.size) : 0;
        t.m_l2_bytes = cache_size(h.topo, HWLOC_OBJ_L2CACHE, core);
        t.m_l1_bytes = cache_size(h.topo, HWLOC_OBJ_L1CACHE, core);
      }
      t.m_cores.push_back(ci);
    }
    if (t.m_cores.empty()) {
      why = "hwloc found no usable processing units";
      return std::nullopt;
    }
    t.m_packages = static_cast<unsigned>(packages.size());
    t.m_numa = static_cast<unsigned>(nodes.size());
    t.m_l3 = static_cast<unsigned>(groups.size());
    t.m_hw_threads = threads_total;
    t.m_note = restricted ? "hwloc, restricted to the process CPU binding" : "hwloc";
    return t;
  }
#endif

  struct spec_values {
    std::uint64_t sockets = 1, numa = 1, l3groups = 1, cores = 2, smt = 1;
    std::uint64_t l3ways = 0;  ///< 0: the L3 model is fully associative
    std::size_t l3 = 8 * mib, l2 = 1 * mib, l1 = 32 * kib;
  };

  static spec_values parse_spec(std::string_view spec, std::string_view what) {
    auto fail = [&](const std::string& reason) {
      return make_config_error(what, spec, spec_forms, reason);
    };
    spec_values v;
    if (trim(spec).empty()) throw fail("empty spec");
    std::map<std::string, bool> seen;
    std::string_view rest = spec;
    while (true) {
      const auto comma = rest.find(',');
      const auto item = trim(rest.substr(0, comma));
      if (item.empty()) throw fail("empty item");
      const auto eq = item.find('=');
      if (eq == std::string_view::npos) throw fail("missing '=' in \"" + std::string(item) + "\"");
      const std::string key = lowercase(trim(item.substr(0, eq)));
      const auto value = trim(item.substr(eq + 1));
      if (seen[key]) throw fail("key \"" + key + "\" given twice");
      seen[key] = true;
      std::uint64_t* count = key == "sockets"    ? &v.sockets
                             : key == "numa"     ? &v.numa
                             : key == "l3groups" ? &v.l3groups
                             : key == "cores"    ? &v.cores
                             : key == "smt"      ? &v.smt
                             : key == "l3ways"   ? &v.l3ways
                                                 : nullptr;
      std::size_t* size = key == "l3" ? &v.l3 : key == "l2" ? &v.l2 : key == "l1" ? &v.l1 : nullptr;
      if (count != nullptr) {
        std::string_view tail;
        auto n = leading_uint(value, tail);
        if (!n || !tail.empty() || *n == 0 || *n > max_count) {
          throw fail(key + " must be a positive integer up to 4096");
        }
        *count = *n;
      } else if (size != nullptr) {
        auto n = parse_size(value);
        if (!n) throw fail(key + " must be a positive size such as 512KiB or 6MiB");
        *size = *n;
      } else {
        throw fail("unknown key \"" + key + "\"");
      }
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
    const std::uint64_t threads = v.sockets * v.numa * v.l3groups * v.cores * v.smt;
    if (threads > max_virtual_threads) {
      throw fail(std::to_string(threads) + " hardware threads; at most 65536");
    }
    return v;
  }

  static topology virtual_machine(const spec_values& v) {
    topology t;
    const auto cpus = allowed_cpus();
    for (unsigned s = 0; s < v.sockets; ++s) {
      for (unsigned n = 0; n < v.numa; ++n) {
        for (unsigned g = 0; g < v.l3groups; ++g) {
          for (unsigned c = 0; c < v.cores; ++c) {
            core_info ci;
            ci.core = static_cast<unsigned>(t.m_cores.size());
            ci.package = s;
            ci.numa = static_cast<unsigned>(s * v.numa + n);
            ci.l3 = static_cast<unsigned>(ci.numa * v.l3groups + g);
            ci.os_cpu = cpus[ci.core % cpus.size()];  // round-robin: oversubscribe if need be
            ci.threads = static_cast<unsigned>(v.smt);
            t.m_cores.push_back(ci);
          }
        }
      }
    }
    t.m_packages = static_cast<unsigned>(v.sockets);
    t.m_numa = static_cast<unsigned>(v.sockets * v.numa);
    t.m_l3 = static_cast<unsigned>(v.sockets * v.numa * v.l3groups);
    t.m_hw_threads = static_cast<unsigned>(t.m_cores.size() * v.smt);
    t.m_l3_bytes = v.l3;
    t.m_l2_bytes = v.l2;
    t.m_l1_bytes = v.l1;
    t.m_l3_ways = static_cast<unsigned>(v.l3ways);
    t.m_virtual = true;
    return t;
  }
};

topology topology::discover() {
#ifdef LOCUS_HAVE_HWLOC
  std::string why;
  try {
    if (auto t = builder::from_hwloc(why)) return std::move(*t);
  } catch (const std::exception& e) {  // bad_alloc from the maps: still never throw
    why = e.what();
  }
  return builder::flat("flat model: " + why);
#else
  return builder::flat("flat model: built without hwloc");
#endif
}

topology topology::from_spec(std::string_view spec, std::string_view what) {
  return builder::virtual_machine(builder::parse_spec(spec, what));
}

topology topology::make(std::string_view spec, std::string_view what) {
  return spec.empty() ? discover() : from_spec(spec, what);
}

distance topology::between(std::size_t a, std::size_t b) const noexcept {
  if (a >= m_cores.size() || b >= m_cores.size()) return distance::remote;
  const auto& x = m_cores[a];
  const auto& y = m_cores[b];
  if (x.core == y.core) return distance::same_core;
  if (x.l3 == y.l3) return distance::same_l3;
  if (x.numa == y.numa) return distance::same_numa;
  if (x.package == y.package) return distance::same_package;
  return distance::remote;
}

std::string topology::describe() const {
  std::string s = m_virtual ? "virtual" : (m_note.empty() ? "empty" : m_note);
  s += ": " + count_of(m_packages, "package", "packages");
  s += ", " + count_of(m_numa, "NUMA node", "NUMA nodes");
  s += ", " + count_of(m_l3, "L3 group", "L3 groups");
  if (m_l3_bytes != 0) {
    s += " (" + format_size(m_l3_bytes);
    if (m_l3_ways != 0) s += ", " + std::to_string(m_l3_ways) + "-way";
    s += ")";
  }
  s += ", " + count_of(m_cores.size(), "core", "cores");
  if (m_virtual) {
    if (m_hw_threads != m_cores.size()) {
      s += " (" + count_of(m_hw_threads, "hardware thread", "hardware threads") + ")";
    }
    std::vector<unsigned> cpus;
    for (const auto& c : m_cores)
      cpus.push_back(c.os_cpu);
    std::sort(cpus.begin(), cpus.end());
    const auto distinct = std::unique(cpus.begin(), cpus.end()) - cpus.begin();
    s += " on " + count_of(static_cast<std::size_t>(distinct), "CPU", "CPUs");
  } else {
    s += ", " + count_of(m_hw_threads, "hardware thread", "hardware threads");
  }
  return s;
}

std::vector<unsigned> assign_places(const topology& topo,
                                    const std::vector<std::size_t>& worker_core,
                                    std::string_view spec, std::string_view what) {
  validate_places(spec, what);
  const std::string form = lowercase(trim(spec));
  const auto& cores = topo.cores();
  for (std::size_t w = 0; w < worker_core.size(); ++w) {
    if (worker_core[w] >= cores.size()) {
      throw std::out_of_range("assign_places: worker " + std::to_string(w) + " is on core " +
                              std::to_string(worker_core[w]) + " but the topology has " +
                              std::to_string(cores.size()) + " cores");
    }
  }
  const std::size_t nworkers = worker_core.size();
  std::vector<unsigned> place(nworkers, 0);
  if (form == "none") return place;
  if (form == "socket" || form == "numa" || form == "l3") {
    // Renumber the level's ids densely in order of first appearance: empty places vanish.
    std::map<unsigned, unsigned> ids;
    for (std::size_t w = 0; w < nworkers; ++w) {
      const auto& c = cores[worker_core[w]];
      const unsigned key = form == "socket" ? c.package : form == "numa" ? c.numa : c.l3;
      place[w] = dense_id(ids, key);
    }
    return place;
  }
  // validate_places accepted it, so it is a number in [1, 4096].
  const std::size_t groups = std::stoul(form);
  if (groups > nworkers) {
    throw make_config_error(
        what, spec,
        "one of: socket, numa, l3, none (any case), or a positive integer N no larger "
        "than the number of workers (" +
            std::to_string(nworkers) + ")",
        "more places than workers");
  }
  // Worker w goes to floor(w * N / W): contiguous groups whose sizes differ by at most one.
  for (std::size_t w = 0; w < nworkers; ++w)
    place[w] = static_cast<unsigned>(w * groups / nworkers);
  return place;
}

bool pin_this_thread(unsigned os_cpu) noexcept {
  if (os_cpu >= max_os_cpus) return false;
  cpu_set_t* set = CPU_ALLOC(os_cpu + 1);
  if (set == nullptr) return false;
  const std::size_t bytes = CPU_ALLOC_SIZE(os_cpu + 1);
  CPU_ZERO_S(bytes, set);
  CPU_SET_S(os_cpu, bytes, set);
  // The kernel rejects a mask with no usable CPU and then leaves the old mask in place.
  const bool ok = pthread_setaffinity_np(pthread_self(), bytes, set) == 0;
  CPU_FREE(set);
  return ok;
}

}  // namespace locus
