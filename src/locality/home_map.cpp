// home_map.cpp — the page table of homes (see home_map.hpp for the layout and the protocol).
#include <locus/locality/home_map.hpp>

#include <algorithm>
#include <array>
#include <string>

#include <locus/config.hpp>

namespace locus {
namespace {

constexpr std::uint64_t k_address_mask = (std::uint64_t{1} << 56) - 1;

std::uint64_t page_of(const void* p) noexcept {
  return (reinterpret_cast<std::uintptr_t>(p) & k_address_mask) / home_map::page_bytes;
}

constexpr std::array<detail::enum_name<home::kind>, 4> home_kind_names{{
    {home::kind::none, "none"},
    {home::kind::core, "core"},
    {home::kind::numa, "numa"},
    {home::kind::package, "package"},
}};

std::string kind_name(home::kind k) {
  return std::string(detail::name_of(k, "none"));
}

void require_home(home h, const char* who) {
  if (h.is_none()) {
    throw make_config_error(std::string(who) + " home", "none",
                            "a core, NUMA node or package (use clear() to remove homes)");
  }
}

/// Publishes a zeroed node in `slot` unless another thread got there first; returns the
/// node in the slot. Release on success so that the zeroed contents are visible to whoever
/// acquires the pointer; acquire on failure to see the winner's.
template <class Node>
Node& get_or_create(std::atomic<Node*>& slot, std::atomic<std::size_t>& table_bytes) {
  Node* node = slot.load(std::memory_order_acquire);
  if (node != nullptr) return *node;
  auto* fresh = new Node();
  if (slot.compare_exchange_strong(node, fresh, std::memory_order_release,
                                   std::memory_order_acquire)) {
    table_bytes.fetch_add(sizeof(Node), std::memory_order_relaxed);
    return *fresh;
  }
  delete fresh;
  return *node;
}

}  // namespace

std::span<const detail::enum_name<home::kind>> names_of(home::kind) noexcept {
  return home_kind_names;
}

home home::make(kind k, unsigned index) {
  if (index > k_index_mask) {
    throw make_config_error(std::string("home ") + kind_name(k), std::to_string(index),
                            "an index below 2^30");
  }
  return home((static_cast<std::uint32_t>(k) << 30) | index);
}

home home::on_core(unsigned core) {
  return make(kind::core, core);
}
home home::on_numa(unsigned node) {
  return make(kind::numa, node);
}
home home::on_package(unsigned package) {
  return make(kind::package, package);
}

home_map::~home_map() {
  for (auto& r : m_root) {
    upper* u = r.load(std::memory_order_relaxed);
    if (u == nullptr) continue;
    for (auto& m : u->child) {
      lower* l = m.load(std::memory_order_relaxed);
      if (l == nullptr) continue;
      for (auto& f : l->child)
        delete f.load(std::memory_order_relaxed);
      delete l;
    }
    delete u;
  }
}

home_map::leaf* home_map::find_leaf(std::uint64_t page) const noexcept {
  const upper* u = m_root[page >> (k_leaf_bits + 2 * k_mid_bits)].load(std::memory_order_acquire);
  if (u == nullptr) return nullptr;
  constexpr std::uint64_t mid_mask = (std::uint64_t{1} << k_mid_bits) - 1;
  const lower* l =
      u->child[(page >> (k_leaf_bits + k_mid_bits)) & mid_mask].load(std::memory_order_acquire);
  if (l == nullptr) return nullptr;
  return l->child[(page >> k_leaf_bits) & mid_mask].load(std::memory_order_acquire);
}

home_map::leaf& home_map::make_leaf(std::uint64_t page) {
  constexpr std::uint64_t mid_mask = (std::uint64_t{1} << k_mid_bits) - 1;
  upper& u = get_or_create(m_root[page >> (k_leaf_bits + 2 * k_mid_bits)], m_table_bytes);
  lower& l = get_or_create(u.child[(page >> (k_leaf_bits + k_mid_bits)) & mid_mask], m_table_bytes);
  return get_or_create(l.child[(page >> k_leaf_bits) & mid_mask], m_table_bytes);
}

template <class F>
void home_map::for_each_window(const void* p, std::size_t bytes, bool create, F&& f) {
  if (bytes == 0) return;
  const std::uint64_t first = page_of(p);
  // The last byte's page, computed without forming p + bytes (which may pass the mask).
  const std::uint64_t last =
      ((reinterpret_cast<std::uintptr_t>(p) & k_address_mask) + (bytes - 1)) / page_bytes;
  constexpr std::uint64_t leaf_pages = std::uint64_t{1} << k_leaf_bits;
  for (std::uint64_t page = first; page <= last;) {
    const std::uint64_t window_end = std::min(last + 1, (page | (leaf_pages - 1)) + 1);
    leaf* lf = create ? &make_leaf(page) : find_leaf(page);
    if (lf != nullptr) {
      f(*lf, static_cast<std::size_t>(page & (leaf_pages - 1)),
        static_cast<std::size_t>(((window_end - 1) & (leaf_pages - 1)) + 1),
        static_cast<std::size_t>(page - first));
    }
    page = window_end;
  }
}

home home_map::home_of(const void* p) const noexcept {
  const std::uint64_t page = page_of(p);
  const leaf* lf = find_leaf(page);
  if (lf == nullptr) return {};
  const auto slot = static_cast<std::size_t>(page & ((std::uint64_t{1} << k_leaf_bits) - 1));
  return home::from_bits(lf->slot[slot].load(std::memory_order_relaxed));
}

std::size_t home_map::first_touch(const void* p, std::size_t bytes, home h) {
  require_home(h, "home_map::first_touch");
  std::size_t set = 0;
  for_each_window(p, bytes, true, [&](leaf& lf, std::size_t b, std::size_t e, std::size_t) {
    for (std::size_t s = b; s < e; ++s) {
      std::uint32_t expected = 0;
      // Relaxed: the slot publishes nothing but its own value.
      if (lf.slot[s].compare_exchange_strong(expected, h.bits(), std::memory_order_relaxed)) ++set;
    }
  });
  return set;
}

home home_map::claim(const void* p, home h) {
  require_home(h, "home_map::claim");
  const std::uint64_t page = page_of(p);
  leaf* lf = find_leaf(page);
  if (lf == nullptr) lf = &make_leaf(page);
  auto& slot = lf->slot[static_cast<std::size_t>(page & ((std::uint64_t{1} << k_leaf_bits) - 1))];
  std::uint32_t seen = slot.load(std::memory_order_relaxed);
  if (seen != 0) return home::from_bits(seen);  // the common case: no read-modify-write
  if (slot.compare_exchange_strong(seen, h.bits(), std::memory_order_relaxed)) return h;
  return home::from_bits(seen);
}

void home_map::place(const void* p, std::size_t bytes, home h) {
  require_home(h, "home_map::place");
  for_each_window(p, bytes, true, [&](leaf& lf, std::size_t b, std::size_t e, std::size_t) {
    for (std::size_t s = b; s < e; ++s)
      lf.slot[s].store(h.bits(), std::memory_order_relaxed);
  });
}

void home_map::interleave(const void* p, std::size_t bytes, std::span<const home> homes) {
  if (homes.empty()) {
    throw make_config_error("home_map::interleave homes", "{}", "at least one home");
  }
  for (home h : homes)
    require_home(h, "home_map::interleave");
  const std::size_t n = homes.size();
  for_each_window(p, bytes, true, [&](leaf& lf, std::size_t b, std::size_t e, std::size_t k) {
    for (std::size_t s = b; s < e; ++s, ++k)
      lf.slot[s].store(homes[k % n].bits(), std::memory_order_relaxed);
  });
}

void home_map::clear(const void* p, std::size_t bytes) noexcept {
  for_each_window(p, bytes, false, [](leaf& lf, std::size_t b, std::size_t e, std::size_t) {
    for (std::size_t s = b; s < e; ++s)
      lf.slot[s].store(0, std::memory_order_relaxed);
  });
}

}  // namespace locus
