// locus::iterate's per-iteration records in runtime::stats() (issue 18, item 1): the runtime
// keeps the same records iterate returns, across loops, cleared by reset_stats(), bounded, with
// the locality fields measured under accounting and the scheduler's (LAWS's) fields filled in,
// and written into runtime_stats::to_json() by the one JSON writer.
#include <gtest/gtest.h>

#include <atomic>
#include <cstddef>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "laws_support.hpp"
#include "locus/iterate.hpp"
#include "locus/laws.hpp"
#include "locus/locus.hpp"

namespace {

using laws_test::accounted;

locus::task<void> nothing() {
  co_return;
}

TEST(iterate_stats, the_runtime_keeps_every_record_iterate_returns_with_accounting_measured) {
  locus::runtime rt(accounted("sockets=2,cores=1,l3=1MiB,l2=64KiB", 2));
  laws_test::sweep sw(16384, 256);
  const auto recs = locus::iterate(rt, 3, [&](std::size_t) { return sw.root(); });
  const locus::runtime_stats s = rt.stats();
  ASSERT_EQ(s.iterations.size(), 3u);
  EXPECT_EQ(s.iterations_dropped, 0u);
  for (std::size_t i = 0; i < 3; ++i) {
    const locus::iteration_stats& r = s.iterations[i];
    EXPECT_EQ(r.index, i);
    EXPECT_EQ(r.time_ns, recs[i].time_ns) << "the same record, not a second measurement";
    EXPECT_TRUE(r.accounting);
    // Each iteration reads and writes the whole array once (declared bytes = touched bytes);
    // the first one misses every line in the model (nothing was cached before it).
    EXPECT_EQ(r.bytes, sw.a.size() * sizeof(double));
    EXPECT_EQ(r.bytes, recs[i].bytes);
    EXPECT_EQ(
        std::accumulate(r.bytes_per_socket.begin(), r.bytes_per_socket.end(), std::uint64_t{0}),
        r.bytes);
    EXPECT_EQ(r.bytes_per_socket.size(), 2u);
    EXPECT_TRUE(r.local_share.has_value());
    EXPECT_EQ(r.scheduler, "slaw");
  }
  EXPECT_GT(s.iterations[0].l3_misses, 0u);
  EXPECT_GT(s.iterations[0].private_misses, 0u);
}

TEST(iterate_stats, without_accounting_only_time_and_the_schedulers_fields_are_recorded) {
  locus::config cfg;
  cfg.workers = 2;
  cfg.pin = false;
  locus::runtime rt(cfg);
  laws_test::sweep sw(4096, 256);
  (void)locus::iterate(rt, 2, [&](std::size_t) { return sw.root(); });
  const locus::runtime_stats s = rt.stats();
  ASSERT_EQ(s.iterations.size(), 2u);
  EXPECT_FALSE(s.iterations[1].accounting);
  EXPECT_EQ(s.iterations[1].bytes, 0u);
  EXPECT_FALSE(s.iterations[1].local_share.has_value());
  EXPECT_GT(s.iterations[0].time_ns + s.iterations[1].time_ns, 0u);
}

TEST(iterate_stats, loops_append_in_order_and_reset_stats_clears_them) {
  locus::config cfg;
  cfg.workers = 1;
  locus::runtime rt(cfg);
  (void)locus::iterate(rt, 2, [](std::size_t) { return nothing(); });
  (void)locus::iterate(rt, 3, [](std::size_t) { return nothing(); });
  locus::runtime_stats s = rt.stats();
  ASSERT_EQ(s.iterations.size(), 5u);
  const std::vector<std::size_t> expected{0, 1, 0, 1, 2};  // index restarts with each loop
  for (std::size_t i = 0; i < 5; ++i)
    EXPECT_EQ(s.iterations[i].index, expected[i]) << i;
  // Plain runs are not iterations.
  rt.run(nothing());
  EXPECT_EQ(rt.stats().iterations.size(), 5u);
  rt.reset_stats();
  s = rt.stats();
  EXPECT_TRUE(s.iterations.empty());
  EXPECT_EQ(s.to_json().find("\"iterations\""), std::string::npos) << s.to_json();
  (void)locus::iterate(rt, 1, [](std::size_t) { return nothing(); });
  EXPECT_EQ(rt.stats().iterations.size(), 1u);
}

TEST(iterate_stats, the_runtime_keeps_the_latest_records_and_counts_the_dropped) {
  locus::config cfg;
  cfg.workers = 1;
  locus::runtime rt(cfg);
  const std::size_t n = locus::k_iteration_records_kept + 3;
  (void)locus::iterate(rt, n, [](std::size_t) { return nothing(); });
  const locus::runtime_stats s = rt.stats();
  ASSERT_EQ(s.iterations.size(), locus::k_iteration_records_kept);
  EXPECT_EQ(s.iterations_dropped, 3u);
  EXPECT_EQ(s.iterations.front().index, 3u);
  EXPECT_EQ(s.iterations.back().index, n - 1);
  EXPECT_NE(s.to_json().find("\"iterations_dropped\":3"), std::string::npos);
  rt.reset_stats();
  EXPECT_EQ(rt.stats().iterations_dropped, 0u);
}

// stats() may be called from any thread while iterate() runs: the records it sees only grow
// (each is added whole, under the runtime's lock, after its iteration ended) and each one it
// returns is complete. Run under TSan (the tsan preset) this is the race check.
TEST(iterate_stats, a_reader_on_another_thread_sees_whole_records_that_only_grow) {
  locus::config cfg;
  cfg.workers = 2;
  cfg.pin = false;
  locus::runtime rt(cfg);
  std::atomic<bool> done{false};
  std::size_t seen = 0;
  bool shrank = false, torn = false;
  std::thread reader([&] {
    while (!done.load(std::memory_order_acquire)) {
      const locus::runtime_stats s = rt.stats();
      if (s.iterations.size() < seen) shrank = true;
      seen = s.iterations.size();
      for (std::size_t i = 0; i < s.iterations.size(); ++i)
        if (s.iterations[i].index != i || s.iterations[i].scheduler != "slaw") torn = true;
    }
  });
  laws_test::sweep sw(2048, 256);
  (void)locus::iterate(rt, 200, [&](std::size_t) { return sw.root(); });
  done.store(true, std::memory_order_release);
  reader.join();
  EXPECT_FALSE(shrank);
  EXPECT_FALSE(torn);
  EXPECT_EQ(rt.stats().iterations.size(), 200u);
}

// LAWS fills the scheduler's fields: stage first-touch then packed stages, the workload judged
// after the first iteration, CF roots taken from CF pools from the second iteration on.
TEST(iterate_stats, laws_records_its_stage_workload_and_cf_roots) {
  std::optional<locus::runtime_stats> kept;
  {
    locus::config cfg = accounted("sockets=2,cores=2,l3=64KiB,l2=16KiB", 4);
    cfg.scheduler = locus::scheduler_kind::laws;
    locus::runtime rt(cfg);
    laws_test::sweep sw(
        65536, 256);  // 512 KiB: each socket's half does not fit its L3, CF roots lie below
    (void)locus::iterate(rt, 3, [&](std::size_t) { return sw.root(); });
    kept = rt.stats();
  }
  // The records own their strings: they outlive the runtime and its scheduler.
  const std::vector<locus::iteration_stats>& it = kept->iterations;
  ASSERT_EQ(it.size(), 3u);
  EXPECT_EQ(it[0].scheduler, "laws");
  EXPECT_EQ(it[0].stage, "first-touch");
  EXPECT_EQ(it[0].workload, "memory-bound");
  EXPECT_EQ(it[0].cf_level, -1);
  for (std::size_t i = 1; i < 3; ++i) {
    EXPECT_TRUE(it[i].stage == "searching" || it[i].stage == "tuned") << it[i].stage;
    EXPECT_GE(it[i].cf_level, 1) << i;
    EXPECT_GT(it[i].cf_roots, 0u) << i;
    EXPECT_GT(it[i].bytes, 0u) << i;
  }
  const std::string j = kept->to_json();
  EXPECT_NE(j.find("\"iterations\":[{\"index\":0,"), std::string::npos) << j;
  EXPECT_NE(j.find("\"stage\":\"first-touch\""), std::string::npos) << j;
  EXPECT_NE(j.find("\"bytes_per_socket\":["), std::string::npos) << j;
  // The same writer as locus::to_json(records): each record's text appears verbatim.
  const std::string one = locus::to_json({it[2]});
  EXPECT_NE(j.find(one.substr(1, one.size() - 2)), std::string::npos) << one << "\n" << j;
}

}  // namespace
