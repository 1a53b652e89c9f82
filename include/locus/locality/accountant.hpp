// locus/locality/accountant.hpp — counts every declared access by the distance between the
// worker that made it and the home of the data, and feeds a model of each shared L3.
//
// Threads: record(w, ...) is called by worker w's thread only. Per-worker counters are written
// by that owner with a relaxed load and store (no read-modify-write: nobody else writes them)
// and read by anyone with relaxed loads. snapshot() and reset() are readers: they never write
// an owner's counters; reset() records a baseline (the raw values at that moment) and
// snapshot() reports raw minus baseline, serialized by a reader mutex (the technique of
// locus::detail::counters; a reset that stored zeros could be lost under the owner's
// load-add-store). A snapshot taken while workers record sees each counter at some recent
// value; after the workers' threads are joined it is exact.
//
// Each L3 group's cache model has a mutex; record() holds it while it feeds its range, so the
// model sees each worker's accesses in its order and different workers' interleaved at the
// grain of record() calls. Its counts are written only under that mutex, so reset() zeroes them.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "locus/locality/cache_model.hpp"
#include "locus/locality/data_range.hpp"
#include "locus/locality/home_map.hpp"
#include "locus/locality/stats.hpp"
#include "locus/topology.hpp"

namespace locus {

struct accountant_options {
  /// Model each L3 group's LRU: with 64-byte lines about 0.3 ms per MiB recorded (without,
  /// the per-page classing costs about 0.002 ms per MiB); see cache_model.hpp.
  bool cache_model = true;
  std::size_t line_bytes = cache_model::default_line_bytes;  ///< block of the model (power of 2)
  std::size_t l3_bytes = 0;  ///< capacity per L3 group; 0: the topology's (model off if unknown)
};

class accountant {
 public:
  /// `worker_core[i]` is the index in topo.cores() of worker i. Throws std::out_of_range for a
  /// core index that topo does not have, std::invalid_argument (config_error) for no workers
  /// or a line_bytes that is not a power of two.
  accountant(const topology& topo, std::vector<std::size_t> worker_core,
             accountant_options options = {});
  accountant(const accountant&) = delete;
  accountant& operator=(const accountant&) = delete;
  ~accountant();

  /// Worker `worker` (its own thread only) accessed [p, p + bytes) with `mode`. Page by page: a
  /// write to a page without a home gives it the worker's core (first touch); a read of such a
  /// page counts as unplaced and leaves it homeless. The bytes are classed by the distance from
  /// the worker's core to the home (a NUMA or package home: same_socket if it is, or lies in,
  /// the core's package; else remote), then the range is fed to the model of the worker's L3
  /// group. bytes == 0 records nothing. This is also the explicit touch(ptr, bytes,
  /// mode) for accesses a task's range does not describe. Throws std::out_of_range for a worker
  /// index without a core.
  void record(unsigned worker, const void* p, std::size_t bytes, access mode);
  void record(unsigned worker, const data_range& r) { record(worker, r.begin, r.bytes, r.mode); }

  /// Counts since the last reset(). Any thread.
  [[nodiscard]] locality_stats snapshot() const;
  /// Restarts the counts from zero. Homes and cache contents are kept. Any thread.
  void reset();

  /// The page homes this accountant reads and first-touches: register or place memory here.
  [[nodiscard]] home_map& homes() noexcept { return m_homes; }
  [[nodiscard]] const home_map& homes() const noexcept { return m_homes; }
  [[nodiscard]] const topology& topo() const noexcept { return m_topo; }
  [[nodiscard]] std::size_t num_workers() const noexcept { return m_worker_core.size(); }

 private:
  enum distance_class : unsigned { k_core, k_l3, k_socket, k_remote, k_unplaced, k_classes };
  struct alignas(64) worker_counters {  ///< one cache line per worker: no false sharing
    std::atomic<std::uint64_t> bytes[k_classes]{};
  };
  struct l3_group {
    std::mutex mutex;
    std::unique_ptr<cache_model> model;  ///< null when the model is off
    cache_counts counts;                 ///< under `mutex`
  };

  [[nodiscard]] distance_class classify(std::size_t core, home h) const noexcept;

  topology m_topo;
  std::vector<std::size_t> m_worker_core;
  std::vector<unsigned> m_package_of_numa;  ///< by NUMA node id
  home_map m_homes;
  std::unique_ptr<worker_counters[]> m_counters;
  std::unique_ptr<l3_group[]> m_groups;
  std::size_t m_line_bytes = 0;
  bool m_cache_model = false;

  mutable std::mutex m_reader_mutex;       ///< serializes snapshot() and reset()
  std::vector<locality_bytes> m_baseline;  ///< readers: raw values at the last reset
};

}  // namespace locus
