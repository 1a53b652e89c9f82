// Helpers of the steal-tree recording and replay tests: a runtime with the replay scheduler,
// and a spawn tree whose continuations report the worker that ran them.
#pragma once

#include <locus/locus.hpp>
#include <locus/schedule/replay.hpp>

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace replay_test {

inline locus::config cfg(unsigned workers) {
  locus::config c;
  c.workers = workers;
  c.pin = false;
  c.topology = "sockets=2,cores=2";
  c.places = "none";
  return c;
}

/// A runtime whose scheduler is a replay scheduler (kept alive beside it).
struct replay_runtime {
  std::shared_ptr<locus::schedule::replay_scheduler> sched;
  std::unique_ptr<locus::runtime> rt;
  explicit replay_runtime(unsigned workers, locus::schedule::replay_options o = {})
      : sched(locus::schedule::make_replay_scheduler(o)) {
    locus::config c = cfg(workers);
    c.custom_scheduler = sched->scheduler();
    rt = std::make_unique<locus::runtime>(c);
  }
};

/// Where each continuation ran, and how often each node ran.
struct observed {
  explicit observed(std::size_t nodes) : after0(nodes), after1(nodes), runs(nodes) {
    for (std::size_t i = 0; i < nodes; ++i) {
      after0[i].store(-1);
      after1[i].store(-1);
      runs[i].store(0);
    }
  }
  std::vector<std::atomic<int>> after0, after1;  ///< worker of the continuation after spawn 0/1
  std::vector<std::atomic<int>> runs;            ///< times node ran (must be 1)
  [[nodiscard]] std::vector<int> continuation_workers() const {
    std::vector<int> out;
    for (std::size_t i = 0; i < after0.size(); ++i) {
      out.push_back(after0[i].load());
      out.push_back(after1[i].load());
    }
    return out;
  }
  [[nodiscard]] bool every_node_once() const {
    for (std::size_t i = 1; i < runs.size(); ++i)  // ids start at 1
      if (runs[i].load() != 1) return false;
    return true;
  }
};

inline void leaf_work(unsigned spin) {
  volatile unsigned sink = 0;
  for (unsigned i = 0; i < spin; ++i)
    sink = sink + i;
}

/// A complete binary spawn tree of `depth` (heap numbering from `id` = 1): each inner node
/// spawns two children and notes the worker of the continuation after each spawn, before
/// its sync (after a sync the frame runs where its last child finished, which no schedule
/// fixes). Returns the number of leaves.
inline locus::task<long> tree(int depth, std::size_t id, observed* obs, unsigned spin) {
  obs->runs[id].fetch_add(1, std::memory_order_relaxed);
  if (depth == 0) {
    leaf_work(spin);
    co_return 1;
  }
  auto a = co_await locus::spawn(tree(depth - 1, 2 * id, obs, spin));
  obs->after0[id].store(locus::this_worker::index(), std::memory_order_relaxed);
  auto b = co_await locus::spawn(tree(depth - 1, 2 * id + 1, obs, spin));
  obs->after1[id].store(locus::this_worker::index(), std::memory_order_relaxed);
  co_await locus::sync();
  co_return a.get() + b.get();
}

inline std::size_t tree_nodes(int depth) {
  return std::size_t{2} << depth;  // ids 1 .. 2^(depth+1) - 1, index 0 unused
}

/// An n-ary spawn tree (a different fan-out than tree()).
inline locus::task<long> wide(int depth, int fan, unsigned spin, std::atomic<long>* leaves) {
  if (depth == 0) {
    leaf_work(spin);
    leaves->fetch_add(1, std::memory_order_relaxed);
    co_return 1;
  }
  std::vector<locus::future<long>> kids;
  for (int i = 0; i < fan; ++i)
    kids.push_back(co_await locus::spawn(wide(depth - 1, fan, spin, leaves)));
  co_await locus::sync();
  long s = 0;
  for (auto& k : kids)
    s += k.get();
  co_return s;
}

}  // namespace replay_test
