// tests/bench_json_test.cpp — the JSON locus-bench writes and reads: the line a child sends its
// parent, one result, and the --json document whose schema tools/bench-report and tools/plot
// read (see docs/benchmarks-data/*.json).
#ifdef LOCUS_TEST_KERNELS

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "harness/child_process.hpp"
#include "harness/execute.hpp"
#include "harness/json.hpp"
#include "harness/report.hpp"
#include "harness/results.hpp"
#include "harness/table.hpp"

namespace {

using bench::json;
using bench::runtime_kind;
using bench_test::fake_kernel;
using bench_test::fake_ok;

// A child that exited cleanly after writing `line`.
bench::child_outcome clean_child(std::string line) {
  bench::child_outcome ch;
  ch.started = true;
  ch.exit_code = 0;
  ch.line = std::move(line);
  return ch;
}

TEST(bench_json, child_report_round_trips_through_interpretation) {
  bench::run_report rep;
  rep.result = {1.25, true, "fib(25)=75025 \"ok\""};
  rep.stats = json::parse(R"({"spawns_work_first":10,"workers":[{"place":0}]})");
  auto r = bench::interpret_child(clean_child(bench::encode_report(rep)), 0);
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.seconds, 1.25);
  EXPECT_EQ(r.detail, rep.result.detail);
  EXPECT_EQ(*bench::find_counter(r.stats, {"spawns_work_first"}), 10.0);
  auto failed = clean_child(bench::encode_error("line\nbreak"));
  failed.exit_code = 1;
  EXPECT_EQ(bench::interpret_child(failed, 0).detail, "error: line\nbreak");
}

TEST(bench_json, strings_keep_quotes_backslashes_control_characters_and_utf8) {
  const std::string tricky =
      std::string("a\"b\\c l1\nl2\tx\r \x01\x1f nul") + '\0' + "x caf\xc3\xa9";
  bench::run_report rep;
  rep.result = {0.5, true, tricky};
  const std::string line = bench::encode_report(rep);
  EXPECT_EQ(line.find('\n'), std::string::npos) << "a report is one line";
  EXPECT_NE(line.find("\\u0001"), std::string::npos) << line;
  EXPECT_NE(line.find("caf\xc3\xa9"), std::string::npos) << "UTF-8 passes through: " << line;
  EXPECT_EQ(bench::interpret_child(clean_child(line), 0).detail, tricky);
}

TEST(bench_json, bytes_that_are_not_utf8_are_replaced_rather_than_thrown) {
  bench::run_report rep;
  rep.result = {0.5, true, "bad \xff byte"};
  std::string line;
  ASSERT_NO_THROW(line = bench::encode_report(rep));
  EXPECT_EQ(bench::interpret_child(clean_child(line), 0).detail, "bad \xef\xbf\xbd byte");
}

TEST(bench_json, numbers_read_back_exactly_and_non_finite_becomes_null) {
  EXPECT_EQ(bench::dump(json(0.1)), "0.1");
  EXPECT_EQ(bench::dump(json(3)), "3");
  EXPECT_EQ(bench::dump(json(std::numeric_limits<double>::quiet_NaN())), "null");
  EXPECT_EQ(bench::dump(json(std::numeric_limits<double>::infinity())), "null");
  const double x = 0.000123456789012345;
  EXPECT_EQ(json::parse(bench::dump(json(x))).get<double>(), x);
}

TEST(bench_json, counters_keep_the_runtimes_member_order) {
  bench::run_report rep;
  rep.stats = json::parse(R"({"z":1,"a":2,"m":{"y":3,"b":4}})");
  auto r = bench::interpret_child(clean_child(bench::encode_report(rep)), 0);
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(bench::dump(r.stats), R"({"z":1,"a":2,"m":{"y":3,"b":4}})");
}

TEST(bench_json, malformed_child_reports_are_failures_not_crashes) {
  for (const char* bad : {"{", "{\"ok\":true", "{\"a\":}", "{\"a\":1,}", "[1 2]", "\"unterminated",
                          "nan", "{\"a\":1} x", "{a:1}", "\"\\q\"", "01x", "[]", "3"}) {
    auto r = bench::interpret_child(clean_child(bad), 0);
    EXPECT_FALSE(r.ok) << bad;
    EXPECT_EQ(r.detail.rfind("malformed report from child: ", 0), 0u) << bad << ": " << r.detail;
  }
}

TEST(bench_json, result_has_exactly_the_documented_fields) {
  auto k = fake_kernel(&fake_ok, nullptr);
  bench::bench_config c;
  c.kernel = &k;
  c.size = "1";
  c.runtime = runtime_kind::locus;
  auto s = bench::summarize(c, {});  // not implemented
  const json v = json::parse(bench::dump(bench::result_json(s)));
  std::vector<std::string> keys;
  for (const auto& item : v.items())
    keys.push_back(item.key());
  EXPECT_EQ(keys,
            (std::vector<std::string>{"kernel", "size", "runtime", "policy", "victims", "schedule",
                                      "flow", "workers", "reps", "median_s", "min_s", "max_s",
                                      "verified", "peak_rss_kib", "stats", "detail"}));
  EXPECT_EQ(v["flow"].get<std::string>(), "off");
  EXPECT_TRUE(v["median_s"].is_null());
  EXPECT_FALSE(v["verified"].get<bool>());
  EXPECT_EQ(v["detail"].get<std::string>().rfind("n/a (not implemented)", 0), 0u);
  EXPECT_TRUE(v["stats"].is_object());
  EXPECT_TRUE(v["workers"].is_number_integer());
  EXPECT_TRUE(v["reps"].is_number_integer());
  EXPECT_TRUE(v["peak_rss_kib"].is_number_integer());
}

TEST(bench_json, report_document_has_machine_command_and_one_result_per_line) {
  auto k = fake_kernel(&fake_ok, nullptr);
  bench::bench_config c;
  c.kernel = &k;
  c.size = "1";
  bench::rep_result r;
  r.ok = true;
  r.seconds = 0.25;
  r.verified = true;
  r.detail = "line1\nline2 \"q\"";
  auto s = bench::summarize(c, {r});
  const std::string doc = bench::report_json(
      bench::machine_json(), bench::command_line({"locus-bench", "fib", "a b"}), {s, s});
  const json v = json::parse(doc);
  EXPECT_GE(v["machine"]["nproc"].get<double>(), 1.0);
  EXPECT_TRUE(v["machine"]["cpu_model"].is_string());
  EXPECT_TRUE(v["machine"]["hostname"].is_string());
  EXPECT_TRUE(v["machine"]["peers"]["tbb"].is_boolean());
  EXPECT_TRUE(v["machine"]["peers"]["starpu"].is_boolean());
  EXPECT_TRUE(v["machine"]["peers"]["blas"].is_boolean());
  EXPECT_EQ(v["command"].get<std::string>(), "locus-bench fib 'a b'");
  ASSERT_EQ(v["results"].size(), 2u);
  const json& res = v["results"][0];
  EXPECT_EQ(res["detail"].get<std::string>(), r.detail);
  EXPECT_EQ(res["median_s"].get<double>(), 0.25);
  EXPECT_EQ(res["policy"].get<std::string>(), "-");
  EXPECT_EQ(res["flow"].get<std::string>(), "-");
  // The layout of docs/benchmarks-data/*.json: machine, command, "results":[ and each result
  // on a line of its own, then ]}.
  std::vector<std::string> lines;
  for (std::size_t at = 0, nl; (nl = doc.find('\n', at)) != std::string::npos; at = nl + 1)
    lines.push_back(doc.substr(at, nl - at));
  ASSERT_EQ(lines.size(), 6u) << doc;
  EXPECT_EQ(lines[0].rfind("{\"machine\":{", 0), 0u);
  EXPECT_EQ(lines[1].rfind("\"command\":", 0), 0u);
  EXPECT_EQ(lines[2], "\"results\":[");
  EXPECT_EQ(lines[3].rfind("{\"kernel\":\"fake\"", 0), 0u);
  EXPECT_EQ(lines[4].rfind("{\"kernel\":\"fake\"", 0), 0u);
  EXPECT_EQ(lines[5], "]}");
}

}  // namespace

#endif  // LOCUS_TEST_KERNELS
