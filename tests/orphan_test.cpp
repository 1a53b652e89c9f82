// Futures dropped while their child runs (orphans, include/locus/detail/frame.hpp): the frame
// is freed by whichever of the drop and the child's completion comes second, so memory does
// not wait for the parent's sync, every frame is freed exactly once (ASan/LSan builds check
// it), and results written through pointers still arrive.
#include <locus/locus.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <vector>

namespace {

/// A deep path with `fan` help-first children per level, every future dropped at once, the
/// first child continuing the path (a narrow, deep tree like uts T3L). Each child's frame holds
/// `pad` bytes, so a frame kept to the parent's sync would show in the frame-stack peak.
locus::task<void> deep_path(int depth, int fan, std::int64_t* out) {
  std::array<char, 1024> pad{};
  pad[0] = 1;
  if (depth == 0) {
    *out = pad[0];
    co_return;
  }
  std::vector<std::int64_t> counts(static_cast<std::size_t>(fan), 0);
  co_await locus::spawn(deep_path(depth - 1, fan, &counts[0]), locus::help_first);
  for (int i = 1; i < fan; ++i)
    co_await locus::spawn(deep_path(0, fan, &counts[static_cast<std::size_t>(i)]),
                          locus::help_first);
  co_await locus::sync();
  std::int64_t total = 0;
  for (std::int64_t c : counts)
    total += c;
  *out = total + pad[0] - 1;
}

TEST(Orphans, ResultsArriveThroughPointersWhenEveryFutureIsDropped) {
  for (unsigned workers : {1u, 2u, 4u}) {
    locus::config cfg;
    cfg.workers = workers;
    cfg.pin = false;
    locus::runtime rt{cfg};
    std::int64_t r = 0;
    rt.run(deep_path(300, 5, &r));
    EXPECT_EQ(r, 300 * 4 + 1) << workers << " workers";
  }
}

// On one worker the order is fixed: each level pushes the path's child first, then its
// siblings, and syncs; the worker loop runs the siblings first (last pushed, first popped),
// then the path's child. Without orphans each finished sibling stayed allocated until its
// parent's sync, which comes only when the whole path below has returned: a peak of depth x
// fan padded frames. With orphans a finished sibling frees its frame at once, from the top of
// the frame stack, so the path's child and everything below it reuse that space: a peak of
// about one padded frame per level.
TEST(Orphans, FinishedSiblingsAreFreedBeforeTheParentSyncs) {
  locus::config cfg;
  cfg.workers = 1;
  cfg.pin = false;
  locus::runtime rt{cfg};
  constexpr int depth = 200;
  constexpr int fan = 5;
  std::int64_t r = 0;
  rt.reset_stats();
  rt.run(deep_path(depth, fan, &r));
  ASSERT_EQ(r, depth * (fan - 1) + 1);
  const std::uint64_t peak = rt.stats().total().peak_stack_bytes;
  // Holding every level's children (over 1 KiB each, their pad) would be at least this much;
  // freeing finished siblings keeps about a fifth of it.
  const std::uint64_t all_children = std::uint64_t{depth} * fan * 1024;
  EXPECT_GT(peak, std::uint64_t{depth} * 1024);
  EXPECT_LT(peak, all_children / 2) << "peak " << peak;
}

// Drops racing completions on other workers: many short children, futures dropped at once,
// under every policy; every result arrives and nothing leaks (checked by LeakSanitizer in
// the asan preset) or is freed twice (AddressSanitizer, ThreadSanitizer).
locus::task<void> leaf(std::atomic<std::int64_t>* sum, int v) {
  sum->fetch_add(v, std::memory_order_relaxed);
  co_return;
}

locus::task<void> drop_many(std::atomic<std::int64_t>* sum, int n, locus::spawn_options o) {
  for (int i = 1; i <= n; ++i)
    co_await locus::spawn(leaf(sum, i), o);
  co_await locus::sync();
}

TEST(Orphans, DroppedFuturesRacingCompletionsFreeEachFrameOnce) {
  for (locus::spawn_options o : {locus::work_first, locus::help_first, locus::adaptive}) {
    locus::config cfg;
    cfg.workers = 2;
    cfg.pin = false;
    locus::runtime rt{cfg};
    for (int round = 0; round < 20; ++round) {
      std::atomic<std::int64_t> sum{0};
      rt.run(drop_many(&sum, 2000, o));
      ASSERT_EQ(sum.load(), 2000 * 2001 / 2);
    }
  }
}

}  // namespace
