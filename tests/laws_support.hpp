// Shared helpers of the LAWS tests (tests/laws_*.cpp): the D&C sweep they iterate and the
// runtime configurations they run it under.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "locus/ext/core.hpp"
#include "locus/laws.hpp"
#include "locus/locus.hpp"
#include "split_support.hpp"

namespace laws_test {

/// A D&C sweep over `a` (Cilk's heat shape: first half spawned, second called) whose root
/// declares the whole array read-write, split by Eq. 1 (fanout 2, grain one double): each
/// iteration touches a.size() doubles; each leaf adds 1 to its elements and, when `rt` is set
/// and `record` is on, records the socket (package) of the worker that ran it.
struct sweep {
  std::vector<double> a;
  std::size_t leaf = 64;
  const locus::runtime* rt = nullptr;
  bool record = true;  ///< leaves record their socket (the iterations under test)
  std::vector<std::atomic<int>> leaf_socket;  ///< by leaf start / leaf (leaves are aligned)

  sweep(std::size_t n, std::size_t leaf_elems) : a(n, 0.0), leaf(leaf_elems), leaf_socket(n) {}

  locus::task<void> split(std::size_t lo, std::size_t hi) {
    if (hi - lo <= leaf) {
      for (std::size_t i = lo; i < hi; ++i)
        a[i] += 1.0;
      if (rt != nullptr && record) {
        const unsigned w = locus::ext::this_worker_index();
        leaf_socket[lo].store(static_cast<int>(rt->topo().cores()[rt->core_of(w)].package));
      }
      co_return;
    }
    const std::size_t mid = lo + (hi - lo) / 2;
    co_await locus::spawn(split(lo, mid));
    co_await split(mid, hi);
    co_await locus::sync();
  }
  locus::task<void> root() {
    const locus::data_range r =
        locus::data_range::of(a.data(), a.size(), locus::access::read_write);
    co_await locus::with_data(split(0, a.size()), r, {2, sizeof(double)});
  }
  /// The socket part (0..m-1) holding most of [lo, hi) when the array is cut in m equal parts
  /// (Eq. 1 in elements; ties go to the lower part).
  [[nodiscard]] unsigned owner(std::size_t lo, std::size_t hi, unsigned m) const {
    const std::size_t bytes = a.size() * sizeof(double);
    unsigned best = 0;
    std::size_t best_in = 0;
    for (unsigned i = 0; i < m; ++i) {
      const std::size_t plo = i * (bytes / m), phi = i + 1 == m ? bytes : (i + 1) * (bytes / m);
      const std::size_t l = std::max(lo * sizeof(double), plo);
      const std::size_t h = std::min(hi * sizeof(double), phi);
      if (h > l && h - l > best_in) {
        best_in = h - l;
        best = i;
      }
    }
    return best;
  }
  /// Leaves as [lo, hi) in order (the split above, replayed).
  void leaves(std::size_t lo, std::size_t hi,
              std::vector<std::pair<std::size_t, std::size_t>>& out) const {
    locus_test::halving_leaves(lo, hi, leaf, out);
  }
};

/// `workers` workers on the virtual topology `topo` under `scheduler` (a custom one, e.g.
/// make_laws_scheduler(options)), or under scheduler_kind::laws when it is null.
inline locus::config laws_config(const std::string& topo, unsigned workers,
                                 std::shared_ptr<const locus::ext::scheduler> scheduler = {}) {
  locus::config cfg;
  cfg.topology = topo;
  cfg.workers = workers;
  if (scheduler) {
    cfg.custom_scheduler = std::move(scheduler);
  } else {
    cfg.scheduler = locus::scheduler_kind::laws;
  }
  return cfg;
}

/// `workers` unpinned workers on `topology` with locality accounting on (any scheduler).
inline locus::config accounted(const char* topology, unsigned workers) {
  locus::config cfg;
  cfg.topology = topology;
  cfg.workers = workers;
  cfg.pin = false;
  cfg.accounting = true;
  return cfg;
}

}  // namespace laws_test
