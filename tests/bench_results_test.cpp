// tests/bench_results_test.cpp — what locus-bench makes of its runs: reading a child's report,
// summaries over repetitions, the results table, the runtime's counters, the progress line.
#ifdef LOCUS_TEST_KERNELS

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "harness/child_process.hpp"
#include "harness/json.hpp"
#include "harness/progress.hpp"
#include "harness/results.hpp"
#include "harness/table.hpp"

namespace {

using bench::runtime_kind;
using bench_test::fake_kernel;
using bench_test::fake_ok;

TEST(bench_results, summary_takes_median_extremes_max_rss_and_first_failure) {
  auto k = fake_kernel(&fake_ok, nullptr);
  bench::bench_config c;
  c.kernel = &k;
  std::vector<bench::rep_result> reps(4);
  double times[] = {3.0, 1.0, 2.0, 10.0};
  long rss[] = {100, 400, 200, 300};
  for (int i = 0; i < 4; ++i) {
    reps[i].ok = true;
    reps[i].verified = true;
    reps[i].seconds = times[i];
    reps[i].peak_rss_kib = rss[i];
  }
  auto s = bench::summarize(c, reps);
  EXPECT_EQ(s.status, bench::run_status::ok);
  EXPECT_DOUBLE_EQ(*s.median_s, 2.5);
  EXPECT_DOUBLE_EQ(*s.min_s, 1.0);
  EXPECT_DOUBLE_EQ(*s.max_s, 10.0);
  EXPECT_DOUBLE_EQ(*s.spread_percent(), 360.0);
  EXPECT_EQ(s.peak_rss_kib, 400);
  EXPECT_EQ(s.reps, 4u);

  reps[1].verified = false;
  reps[1].detail = "wrong answer";
  reps[2].ok = false;
  reps[2].detail = "killed by signal 11";
  s = bench::summarize(c, reps);
  EXPECT_EQ(s.status, bench::run_status::failed);
  EXPECT_FALSE(s.verified);
  EXPECT_EQ(s.detail, "verification failed: wrong answer");
  EXPECT_DOUBLE_EQ(*s.median_s, 3.0);  // over the three clean runs
}

TEST(bench_results, interpret_child_reports_crashes_errors_and_bad_reports) {
  bench::child_outcome ch;
  ch.started = true;
  ch.exit_code = 0;
  ch.peak_rss_kib = 1234;
  ch.line =
      R"({"ok":true,"seconds":0.5,"verified":true,"detail":"d","stats":{"steals_succeeded":3}})";
  auto r = bench::interpret_child(ch, 0);
  EXPECT_TRUE(r.ok);
  EXPECT_TRUE(r.verified);
  EXPECT_EQ(r.seconds, 0.5);
  EXPECT_EQ(r.peak_rss_kib, 1234);
  EXPECT_EQ(*bench::find_counter(r.stats, {"steals_succeeded"}), 3.0);

  ch.exit_code = 1;
  ch.line = R"({"ok":false,"error":"bad size"})";
  r = bench::interpret_child(ch, 0);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.detail, "error: bad size");

  ch.exit_code = -1;
  ch.signal = 11;
  ch.line.clear();
  r = bench::interpret_child(ch, 0);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.detail.rfind("killed by signal 11", 0), 0u);

  ch.signal = 0;
  ch.exit_code = 0;
  ch.line = "{\"ok\":true";
  EXPECT_FALSE(bench::interpret_child(ch, 0).ok);
  ch.line = R"({"ok":true,"verified":true})";
  EXPECT_FALSE(bench::interpret_child(ch, 0).ok);
}

TEST(bench_results, table_marks_failures_and_missing_implementations) {
  auto k = fake_kernel(&fake_ok, nullptr);
  bench::bench_config serial;
  serial.kernel = &k;
  serial.size = "1";
  bench::bench_config locus = serial;
  locus.runtime = runtime_kind::locus;
  bench::rep_result bad;
  bad.ok = false;
  bad.detail = "exit status 3";
  std::vector<bench::config_summary> rows = {bench::summarize(serial, {bad}),
                                             bench::summarize(locus, {})};
  std::ostringstream out;
  bench::print_table(out, rows);
  const std::string text = out.str();
  EXPECT_NE(text.find("FAILED fake 1 serial w=1: exit status 3"), std::string::npos) << text;
  EXPECT_NE(text.find("n/a (not implemented)"), std::string::npos) << text;
  EXPECT_NE(text.find("speedup"), std::string::npos);
}

TEST(bench_results, find_counter_looks_at_top_level_then_totals) {
  auto v = bench::json::parse(R"({"a":1,"total":{"b":2},"c":"text"})");
  EXPECT_EQ(*bench::find_counter(v, {"a"}), 1.0);
  EXPECT_EQ(*bench::find_counter(v, {"zz", "b"}), 2.0);
  EXPECT_FALSE(bench::find_counter(v, {"c"}).has_value());
  EXPECT_FALSE(bench::find_counter(bench::json(), {"a"}).has_value());
}

TEST(bench_progress, text_has_the_documented_shape_and_is_silent_when_disabled) {
  EXPECT_EQ(bench::progress_line::text(12, 48, "fib 35 locus adaptive hierarchical w=2", 3, 5),
            "[12/48] fib 35 locus adaptive hierarchical w=2 rep 3/5");
  bench::progress_line off(-1, false);
  off.show(1, 2, "x", 1, 1);  // would fail loudly on fd -1 if it wrote
  EXPECT_FALSE(off.enabled());
}

}  // namespace

#endif  // LOCUS_TEST_KERNELS
