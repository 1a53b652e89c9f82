// src/cab/impl.hpp — CAB's state for one runtime: the squads, the decision in force (BL and
// where level 1 is) and the counts (docs/design/0018-cab.md). An extension: built from
// locus/ext/ and public headers only (tests/include_boundary.cmake).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string_view>
#include <vector>

#include "locus/cab.hpp"
#include "locus/ext/data.hpp"
#include "locus/ext/pool.hpp"
#include "locus/ext/scheduler.hpp"
#include "locus/ext/sockets.hpp"

namespace locus::cab {

/// How the scheduler runs.
enum class mode : std::uint8_t {
  undecided,  ///< no spawn has decided yet: plain stealing (nothing is tiered yet)
  plain,      ///< BL = 0: random stealing over every worker, every spawn inline
  tiered,     ///< BL >= 1: the inter-socket tier down to the leaf depth, squads below
  manual      ///< LOCUS_CAB=manual: squads only; the inter-socket tier is cab::spawn_inter's
};
[[nodiscard]] std::string_view to_string(mode m) noexcept;

/// One decision: immutable once published (cab_impl::m_now, release), so a spawn that reads
/// it (acquire) while another spawn replaces it still reads a whole one. Replaced decisions
/// stay alive until the runtime's end (m_decisions; equal ones are reused).
struct decision {
  mode m = mode::undecided;
  bool fixed = false;  ///< one squad, bl=0 or manual: never re-decided
  std::vector<data_range> root;
  int root_depth = -1;  ///< spawn depth of the paper's level 1
  int leaf_depth = -1;  ///< spawn depth of the leaf inter-socket tasks (-1: no tier)
  int bl = -1;
  unsigned branching = 0;
  std::size_t data_bytes = 0;
  ext::workload workload = ext::workload::undecided;
  [[nodiscard]] bool holds(const data_range& r) const noexcept {
    for (const data_range& k : root)
      if (r.begin >= k.begin && r.end() <= k.end()) return true;
    return false;
  }
};

class cab_impl final : public ext::spawn_rule,
                       public ext::acquisition,
                       public ext::iteration_hooks {
 public:
  explicit cab_impl(cab_options o);

  /// The idle domains: one per squad (called once, by the runtime's constructor).
  std::vector<unsigned> domains(const topology& topo, const std::vector<std::size_t>& core_of);

  [[nodiscard]] unsigned squads() const noexcept {
    return static_cast<unsigned>(m_layout.sockets.size());
  }
  [[nodiscard]] unsigned squad_of(unsigned w) const { return m_layout.socket_of.at(w); }
  [[nodiscard]] unsigned head_of(unsigned squad) const { return m_layout.sockets[squad]->head; }
  void count_manual() noexcept { m_manual.fetch_add(1, std::memory_order_relaxed); }
  [[nodiscard]] stats snapshot() const;

  // ext::spawn_rule (cab.cpp)
  bool work_first(ext::worker_ref /*w*/, std::uint32_t, std::uint32_t) override { return true; }
  void place(ext::worker_ref w, ext::spawn_site& s) override;
  // ext::acquisition (cab.cpp)
  bool acquire(ext::worker_ref w, ext::work_item& out) override;
  [[nodiscard]] bool may_sleep(ext::worker_ref w) noexcept override;
  [[nodiscard]] std::string_view name() const noexcept override { return "cab"; }
  // ext::iteration_hooks (decide.cpp)
  void begin(ext::core_ref core, std::size_t index) override;
  void end(ext::core_ref core, ext::iteration_record& r) override;

 private:
  /// The decision before anything is learned (under m_mutex).
  const decision* initial_locked();
  /// Decide from spawn `s` if the decision in force is still `seen` (else another spawn did):
  /// the root (the paper's level 1), S_d, B, then BL from the options or Eq. 4.
  const decision* decide(const decision* seen, const ext::spawn_site& s,
                         const ext::declared_data& cd, const ext::declared_data& pd);
  const decision* publish_locked(std::unique_ptr<decision> d);
  [[nodiscard]] unsigned owner_in_root(const decision& d, const data_range& r,
                                       unsigned fallback) const;
  bool plain(ext::worker_ref w, ext::work_item& out);

  cab_options m_opt;
  std::atomic<bool> m_made{false};
  ext::socket_layout m_layout;
  std::size_t m_cache = 0;
  std::once_flag m_bound;
  std::atomic<const decision*> m_now{nullptr};  ///< set by domains(), never null after
  mutable std::mutex m_mutex;                   ///< decisions are made and kept under it
  std::vector<std::unique_ptr<decision>> m_decisions;
  /// Between locus::iterate's begin and end (written between runs, read relaxed by spawns).
  std::atomic<bool> m_iterating{false};
  std::atomic<bool> m_counting{false};  ///< the first iteration counts tasks
  std::atomic<std::uint64_t> m_tasks{0};
  // Counts (relaxed: read between runs, after run()'s synchronisation).
  std::atomic<std::uint64_t> m_inter{0}, m_leaf{0}, m_pool_takes{0}, m_cross{0}, m_manual{0},
      m_sent_home{0};
  stats m_at_begin;
};

}  // namespace locus::cab
