// locus/locality/accountant.hpp — counts every declared access by the distance between the
// worker that made it and the home of the data, and feeds it through a model of the worker's
// private cache level and of its L3 group.
//
// Threads and order (docs/design/0007, "Cost"). Each worker has its own state: byte counters,
// its private-level model, and a buffer of the private level's misses not yet given to the
// L3, all under the worker's own mutex, which record(w, ...) takes on worker w's thread. Only
// a reader (snapshot(), reset()) ever takes it from another thread, so on the recording path
// it is uncontended: a worker never waits for another worker. A worker's buffer is drained
// into its L3 group's model under the group's mutex when it holds k_buffer_runs runs, and by
// every reader (workers in index order) before it reads. So:
//   - bytes by distance and the private level are exact, in each worker's own order;
//   - the L3 model of a group sees each worker's misses in that worker's order, and the
//     streams of the workers sharing it interleaved by buffer (up to k_buffer_runs runs of
//     consecutive lines at a time), in the order their drains take the group's mutex; with one
//     worker per L3 group it is exact.
// Lock order: a worker's mutex, then its group's mutex; never the other way.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "locus/ext/accounting.hpp"
#include "locus/locality/cache_model.hpp"
#include "locus/locality/data_range.hpp"
#include "locus/locality/home_map.hpp"
#include "locus/locality/stats.hpp"
#include "locus/topology.hpp"

namespace locus {

struct accountant_options {
  /// Model the caches; false: homes only (bytes by distance, no misses; the cheapest mode).
  bool cache_model = true;
  /// Line of the models: a power of two from 8 to 4096 (the page); config::line_bytes.
  std::size_t line_bytes = cache_model::default_line_bytes;
  std::size_t l3_bytes = 0;  ///< capacity per L3 group; 0: the topology's (no L3 model if unknown)
  /// Ways of the L3 model; 0: the topology's l3_ways() (0 there: fully associative).
  unsigned l3_ways = 0;
  /// Model a private level per worker in front of the L3 (sized by private_bytes, else the
  /// topology's l2_bytes(); none if both are 0).
  bool private_level = true;
  std::size_t private_bytes = 0;
};

class accountant {
 public:
  /// Runs of missed lines a worker buffers before it drains them into its L3 group's model.
  static constexpr std::size_t k_buffer_runs = 512;

  /// `worker_core[i]` is the index in topo.cores() of worker i. Throws std::out_of_range for a
  /// core index that topo does not have, config_error (std::invalid_argument) for no workers
  /// or a line_bytes that is not a power of two from 8 to 4096 (the message names line_bytes).
  accountant(const topology& topo, std::vector<std::size_t> worker_core,
             accountant_options options = {});
  accountant(const accountant&) = delete;
  accountant& operator=(const accountant&) = delete;
  ~accountant();

  /// Worker `worker` (its own thread only) accessed [p, p + bytes) with `mode`. Page by page: a
  /// write to a page without a home gives it the worker's core (first touch); a read of such a
  /// page counts as unplaced and leaves it homeless. The bytes are classed by the distance from
  /// the worker's core to the home (a NUMA or package home: same_numa / same_socket if it is,
  /// or lies in, the core's node / package; else remote); then the lines go through the
  /// worker's private-level model, and its misses on to the L3 group's. bytes == 0 records
  /// nothing. This is also touch(ptr, bytes, mode). Throws std::out_of_range for a worker
  /// index without a core.
  void record(unsigned worker, const void* p, std::size_t bytes, access mode);
  void record(unsigned worker, const data_range& r) { record(worker, r.begin, r.bytes, r.mode); }
  /// record(), returning the bytes of the lines it missed in the worker's private-level model
  /// (0 without one): a task's own M_alpha (ext::task_footprint).
  std::uint64_t record_missed(unsigned worker, const data_range& r);
  /// The private level's capacity per worker (0: none modelled).
  [[nodiscard]] std::size_t private_bytes() const noexcept { return m_private_bytes; }
  /// Where task footprints go (ext/accounting.hpp), or null (none: the default). Set between
  /// runs (release; completions read it with acquire); the sink must outlive its use.
  void set_footprint_sink(ext::footprint_sink* s) noexcept {
    m_footprints.store(s, std::memory_order_release);
  }
  [[nodiscard]] ext::footprint_sink* footprint_sink() const noexcept {
    return m_footprints.load(std::memory_order_acquire);
  }

  /// record() of an access whose home is known (a datablock's, which the datablock keeps): the
  /// bytes are classed by `h` (none: unplaced) whatever the page map says, and no page is
  /// first-touched; the models see the lines as usual.
  void record_homed(unsigned worker, const void* p, std::size_t bytes, home h);

  /// Counts since the last reset(), every buffer drained first. Any thread.
  [[nodiscard]] locality_stats snapshot() const;
  /// Restarts the counts from zero (buffers are drained first, into the old counts). Homes and
  /// cache contents are kept. Any thread.
  void reset();

  /// The page homes this accountant reads and first-touches: register or place memory here.
  [[nodiscard]] home_map& homes() noexcept { return m_homes; }
  [[nodiscard]] const home_map& homes() const noexcept { return m_homes; }
  [[nodiscard]] const topology& topo() const noexcept { return m_topo; }
  [[nodiscard]] std::size_t num_workers() const noexcept { return m_worker_core.size(); }
  /// Bytes the cache models hold now (they grow with the lines touched; cache_model.hpp).
  [[nodiscard]] std::size_t model_bytes() const;

 private:
  enum distance_class : unsigned {
    k_core,
    k_l3,
    k_numa,
    k_socket,
    k_remote,
    k_unplaced,
    k_classes
  };
  struct run {  ///< consecutive missed lines of one distance class, for the L3
    std::uint64_t first;
    std::uint64_t lines;
    distance_class cls;
  };
  struct level {  ///< counts of one level, by class
    cache_counts lines;
    std::uint64_t misses[k_classes]{};
  };
  struct alignas(64) worker_state {
    mutable std::mutex mutex;  ///< everything below; see the header comment
    std::uint64_t bytes[k_classes]{};
    level private_counts, l3_counts;
    std::unique_ptr<cache_model> private_model;  ///< null: no private level
    std::vector<run> buffer;                     ///< private misses not yet given to the L3
  };
  struct l3_group {
    std::mutex mutex;
    std::unique_ptr<cache_model> model;  ///< null when the model is off
  };
  struct feed;  ///< the miss sink's context (accountant.cpp)

  [[nodiscard]] distance_class classify(std::size_t core, home h) const noexcept;
  void check_worker(unsigned worker) const;
  /// Returns the private-level misses it caused, in lines.
  template <class HomeOf>
  std::uint64_t record_pages(unsigned worker, const void* p, std::size_t bytes, HomeOf home_of);
  void model_run(worker_state& w, std::size_t core, std::uintptr_t begin, std::uintptr_t end,
                 distance_class cls);
  /// Gives w's buffer to its L3 group's model. Caller holds w.mutex.
  void drain(worker_state& w, std::size_t core) const;

  topology m_topo;
  std::vector<std::size_t> m_worker_core;
  std::vector<unsigned> m_package_of_numa;  ///< by NUMA node id
  bool m_numa_class = false;                ///< some package has several NUMA nodes
  home_map m_homes;
  std::unique_ptr<worker_state[]> m_workers;
  std::unique_ptr<l3_group[]> m_groups;
  std::size_t m_line_bytes = 0;
  unsigned m_line_shift = 0;
  unsigned m_l3_ways = 0;
  std::size_t m_private_bytes = 0;
  bool m_cache_model = false;
  std::atomic<ext::footprint_sink*> m_footprints{nullptr};
};

}  // namespace locus
