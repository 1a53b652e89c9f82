// locality/memory.cpp — placed allocation: OS binding through hwloc where the machine has
// several NUMA nodes, recorded homes everywhere, one warning and first touch where binding fails.
//
// Memory comes from mmap and is bound with hwloc_set_area_membind rather than allocated with
// hwloc_alloc_membind: every allocation is then freed the same way (munmap) whether binding
// worked or not, and register_memory() shares the binding code.
#include <locus/locality/memory.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <new>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include <locus/config.hpp>

#ifdef LOCUS_HAVE_HWLOC
#include <hwloc.h>
#endif

namespace locus {
namespace {

std::size_t os_page_bytes() noexcept {
  static const std::size_t bytes = [] {
    const long v = ::sysconf(_SC_PAGESIZE);
    return v > 0 ? static_cast<std::size_t>(v) : home_map::page_bytes;
  }();
  return bytes;
}

/// [p, p + bytes) widened to whole OS pages (what the OS binds).
struct page_span {
  void* begin;
  std::size_t bytes;
};
page_span whole_pages(const void* p, std::size_t bytes) noexcept {
  const std::size_t page = os_page_bytes();
  const auto a = reinterpret_cast<std::uintptr_t>(p) / page * page;
  const auto z = (reinterpret_cast<std::uintptr_t>(p) + bytes + page - 1) / page * page;
  return {reinterpret_cast<void*>(a), z - a};
}

std::string count_of(unsigned n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

/// Does this topology ask for OS binding? Only a real machine with several NUMA nodes: on a
/// virtual one the sockets are fiction, on one node every page is local anyway.
bool wants_os_binding(const topology& topo) noexcept {
  return !topo.is_virtual() && topo.num_numa_nodes() > 1;
}

#ifdef LOCUS_HAVE_HWLOC
/// The process's hwloc topology for binding, loaded once (thread-safe static init) and kept.
struct binder {
  hwloc_topology_t topo = nullptr;
  std::string unsupported;  ///< why binding cannot work here; empty if it may
  binder() {
    if (hwloc_topology_init(&topo) != 0 || hwloc_topology_load(topo) != 0) {
      unsupported = "hwloc could not load the topology";
      return;
    }
    const hwloc_topology_support* s = hwloc_topology_get_support(topo);
    if (s == nullptr || s->membind == nullptr || s->membind->set_area_membind == 0) {
      unsupported = "hwloc reports no set_area_membind";
    }
  }
  ~binder() {
    if (topo != nullptr) hwloc_topology_destroy(topo);
  }
  binder(const binder&) = delete;
  binder& operator=(const binder&) = delete;
};

/// Binds the OS pages of [p, p + bytes) per `pl`; on failure returns false and says why.
bool bind(const void* p, std::size_t bytes, placement pl, const topology& topo, bool migrate,
          std::string& why) {
  static binder b;
  if (!b.unsupported.empty()) {
    why = b.unsupported;
    return false;
  }
  hwloc_bitmap_t cpus = hwloc_bitmap_alloc();
  if (cpus == nullptr) {
    why = "hwloc_bitmap_alloc failed";
    return false;
  }
  for (const core_info& c : topo.cores()) {
    const bool in = pl.how == placement::kind::interleave ||
                    (pl.how == placement::kind::on_socket && c.package == pl.index) ||
                    (pl.how == placement::kind::on_numa && c.numa == pl.index);
    if (in) hwloc_bitmap_set(cpus, c.os_cpu);
  }
  const auto policy =
      pl.how == placement::kind::interleave ? HWLOC_MEMBIND_INTERLEAVE : HWLOC_MEMBIND_BIND;
  // STRICT: fail rather than bind to something else silently; MIGRATE moves touched pages.
  int flags = HWLOC_MEMBIND_STRICT;
  if (migrate) flags |= HWLOC_MEMBIND_MIGRATE;
  const page_span span = whole_pages(p, bytes);
  const int rc = hwloc_set_area_membind(b.topo, span.begin, span.bytes, cpus, policy, flags);
  const int err = errno;
  hwloc_bitmap_free(cpus);
  if (rc != 0) {
    // The error_category message, not strerror: thread-safe (memory may be bound from workers).
    why = "hwloc_set_area_membind: ";
    why += std::generic_category().message(err);
    return false;
  }
  return true;
}
#else
bool bind(const void*, std::size_t, placement, const topology&, bool, std::string& why) {
  why = "locus was built without hwloc";
  return false;
}
#endif

void record_homes(const void* p, std::size_t bytes, placement pl, const topology& topo,
                  home_map& homes) {
  switch (pl.how) {
    case placement::kind::first_touch:
      homes.clear(p, bytes);
      return;
    case placement::kind::interleave: {
      std::vector<home> nodes;
      for (unsigned n = 0; n < topo.num_numa_nodes(); ++n)
        nodes.push_back(home::on_numa(n));
      if (nodes.empty()) nodes.push_back(home::on_numa(0));
      homes.interleave(p, bytes, nodes);
      return;
    }
    case placement::kind::on_socket:
      homes.place(p, bytes, home::on_package(pl.index));
      return;
    case placement::kind::on_numa:
      homes.place(p, bytes, home::on_numa(pl.index));
      return;
  }
}

/// Binds (where wanted and possible) and records. A binding failure leaves first touch.
void apply(const void* p, std::size_t bytes, placement pl, const topology& topo, home_map* homes,
           bool migrate) {
  if (pl.how != placement::kind::first_touch && wants_os_binding(topo)) {
    std::string why;
    if (!bind(p, bytes, pl, topo, migrate, why)) {
      locality::detail::warn_binding_unsupported(why);
      pl = placement::first_touch();
    }
  }
  if (homes != nullptr) record_homes(p, bytes, pl, topo, *homes);
}

void require_bytes(std::size_t bytes, const char* who) {
  if (bytes == 0) {
    throw make_config_error(std::string(who) + " bytes", "0", "at least 1 byte");
  }
}

}  // namespace

std::span<const detail::enum_name<placement::kind>> names_of(placement::kind) noexcept {
  static constexpr std::array<detail::enum_name<placement::kind>, 4> names{{
      {placement::kind::first_touch, "first_touch"},
      {placement::kind::interleave, "interleave"},
      {placement::kind::on_socket, "on_socket"},
      {placement::kind::on_numa, "on_numa"},
  }};
  return names;
}

std::string to_string(placement p) {
  std::string s(detail::name_of(p.how, "?"));
  if (p.how == placement::kind::on_socket || p.how == placement::kind::on_numa)
    s.append("(").append(std::to_string(p.index)).append(")");
  return s;
}

void check_placement(placement p, const topology& topo, const char* who) {
  unsigned have = 0;
  const char *form = nullptr, *one = nullptr, *many = nullptr;
  if (p.how == placement::kind::on_socket) {
    have = topo.num_packages(), form = "on_socket", one = "socket", many = "sockets";
  } else if (p.how == placement::kind::on_numa) {
    have = topo.num_numa_nodes(), form = "on_numa", one = "NUMA node", many = "NUMA nodes";
  } else {
    return;
  }
  if (p.index < have) return;
  std::string msg = std::string(who) + ": " + to_string(p) + " names no " + one + "; expected ";
  if (have == 0) {
    msg += "none (this topology has no " + std::string(many) + ")";
  } else {
    msg += std::string(form) + "(0)";
    if (have > 1) msg += " to " + std::string(form) + "(" + std::to_string(have - 1) + ")";
    msg += " (this topology has " + count_of(have, one, many) + ")";
  }
  throw std::out_of_range(msg);
}

void* allocate(std::size_t bytes, placement p, const topology& topo, home_map* homes) {
  require_bytes(bytes, "allocate");
  check_placement(p, topo, "allocate");
  const std::size_t page = os_page_bytes();
  if (bytes > SIZE_MAX - page) throw std::bad_alloc();
  const std::size_t len = (bytes + page - 1) / page * page;
  // mmap, not malloc: page aligned, and untouched, so that first touch and binding both apply.
  void* mem = ::mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) throw std::bad_alloc();
  try {
    apply(mem, len, p, topo, homes, false);
  } catch (...) {
    ::munmap(mem, len);
    throw;
  }
  return mem;
}

void deallocate(void* ptr, std::size_t bytes, home_map* homes) noexcept {
  if (ptr == nullptr || bytes == 0) return;
  const std::size_t page = os_page_bytes();
  const std::size_t len = (bytes + page - 1) / page * page;
  if (homes != nullptr) homes->clear(ptr, len);
  ::munmap(ptr, len);
}

void register_memory(const void* ptr, std::size_t bytes, placement p, const topology& topo,
                     home_map& homes) {
  require_bytes(bytes, "register_memory");
  check_placement(p, topo, "register_memory");
  apply(ptr, bytes, p, topo, &homes, true);
}

namespace locality::detail {

bool bind_pages(const void* p, std::size_t bytes, placement pl, const topology& topo, bool migrate,
                std::string& why) {
  if (pl.how == placement::kind::first_touch) return true;
  check_placement(pl, topo, "bind_pages");
  return bind(p, bytes, pl, topo, migrate, why);
}

bool warn_binding_unsupported(const std::string& why) {
  static std::atomic<bool> warned{false};
  // exchange: of racing callers exactly one prints. Relaxed: it guards nothing else.
  if (warned.exchange(true, std::memory_order_relaxed)) return false;
  std::fprintf(stderr,
               "locus: memory binding is not supported here (%s); falling back to first touch\n",
               why.c_str());
  return true;
}

}  // namespace locality::detail
}  // namespace locus
