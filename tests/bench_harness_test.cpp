// tests/bench_harness_test.cpp — locus-bench's harness: command line, sizes, grid, schedule,
// JSON, child processes, and every registered kernel verified at its small size on every
// runtime built into this binary.
//
// Built only when the bench targets exist (tests/CMakeLists.txt defines LOCUS_TEST_KERNELS
// when it links locus_kernels).
#ifdef LOCUS_TEST_KERNELS

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "harness/child_process.hpp"
#include "harness/cli.hpp"
#include "harness/execute.hpp"
#include "harness/grid.hpp"
#include "harness/json.hpp"
#include "harness/progress.hpp"
#include "harness/report.hpp"
#include "harness/results.hpp"
#include "harness/table.hpp"
#include "registry.hpp"

namespace {

using bench::cli_error;
using bench::runtime_kind;

bench::options parse(std::vector<std::string> args) {
  bench::cli_defaults d;
  d.runtimes = {runtime_kind::serial, runtime_kind::locus};
  d.workers = {1, 2};
  d.reps = 5;
  return bench::parse_cli(args, d);
}

// A kernel for grid and schedule tests whose implementations are chosen by the test.
bench::outcome fake_ok(const bench::args&) {
  return {0.5, true, "ok"};
}
bench::kernel_info fake_kernel(bench::kernel_fn serial, bench::kernel_fn locus) {
  bench::kernel_info k{"fake", "fake", "1", "2", "test kernel", serial, locus, nullptr, nullptr};
  return k;
}

// ---------------------------------------------------------------------------------- CLI

TEST(bench_cli, parses_lists_in_both_option_forms) {
  auto o = parse({"fib,nqueens", "--size", "small,30", "--runtime=serial,locus,tbb,omp", "--policy",
                  "work-first,help_first,adaptive", "--victims=random,hierarchical", "--workers",
                  "1,2,4", "--reps", "3", "--json", "out.json", "--timeout=2.5"});
  ASSERT_EQ(o.kernels.size(), 2u);
  EXPECT_EQ(o.kernels[0]->name, "fib");
  EXPECT_EQ(o.kernels[1]->name, "nqueens");
  EXPECT_EQ(o.sizes, (std::vector<std::string>{"small", "30"}));
  EXPECT_EQ(o.runtimes, (std::vector<runtime_kind>{runtime_kind::serial, runtime_kind::locus,
                                                   runtime_kind::tbb, runtime_kind::omp}));
  EXPECT_EQ(o.policies, (std::vector<locus::spawn_policy>{locus::spawn_policy::work_first,
                                                          locus::spawn_policy::help_first,
                                                          locus::spawn_policy::adaptive}));
  EXPECT_EQ(o.victims, (std::vector<locus::victim_policy>{locus::victim_policy::random,
                                                          locus::victim_policy::hierarchical}));
  EXPECT_EQ(o.workers, (std::vector<unsigned>{1, 2, 4}));
  EXPECT_EQ(o.reps, 3u);
  EXPECT_EQ(o.json_path, "out.json");
  EXPECT_DOUBLE_EQ(o.timeout_s, 2.5);
  EXPECT_FALSE(o.child);
}

TEST(bench_cli, fills_defaults_for_options_left_out) {
  auto o = parse({"fib"});
  EXPECT_EQ(o.sizes, (std::vector<std::string>{"default"}));
  EXPECT_EQ(o.runtimes, (std::vector<runtime_kind>{runtime_kind::serial, runtime_kind::locus}));
  EXPECT_EQ(o.workers, (std::vector<unsigned>{1, 2}));
  EXPECT_EQ(o.reps, 5u);
  EXPECT_EQ(o.policies.size(), 1u);
  EXPECT_EQ(o.victims.size(), 1u);
  EXPECT_TRUE(o.json_path.empty());
}

TEST(bench_cli, all_means_every_registered_kernel_and_repeats_are_dropped) {
  auto o = parse({"all,fib", "--workers", "2,1,2"});
  ASSERT_EQ(o.kernels.size(), bench::registry().size());
  for (std::size_t i = 0; i < o.kernels.size(); ++i) {
    EXPECT_EQ(o.kernels[i], &bench::registry()[i]);
  }
  EXPECT_EQ(o.workers, (std::vector<unsigned>{2, 1}));
}

TEST(bench_cli, rejects_unknown_kernel_and_names_the_known_ones) {
  try {
    (void)parse({"fibonacci"});
    FAIL() << "accepted an unknown kernel";
  } catch (const cli_error& e) {
    EXPECT_NE(std::string(e.what()).find("fibonacci"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("nqueens"), std::string::npos);
  }
  EXPECT_THROW((void)parse({"fib,nope"}), cli_error);
}

TEST(bench_cli, rejects_bad_runtime_policy_and_victims_names) {
  EXPECT_THROW((void)parse({"fib", "--runtime", "serial,cilk"}), cli_error);
  EXPECT_THROW((void)parse({"fib", "--runtime", "Serial"}), cli_error);
  EXPECT_THROW((void)parse({"fib", "--policy", "greedy"}), cli_error);
  EXPECT_THROW((void)parse({"fib", "--victims", "nearest"}), cli_error);
}

TEST(bench_cli, rejects_bad_workers_lists) {
  for (const char* bad : {"0", "x", "1,,2", ",1", "1,", "-1", "2.5", "5000", "", "1 2"}) {
    EXPECT_THROW((void)parse({"fib", "--workers", bad}), cli_error) << "--workers '" << bad << "'";
  }
}

TEST(bench_cli, rejects_zero_or_malformed_reps_and_timeout) {
  EXPECT_THROW((void)parse({"fib", "--reps", "0"}), cli_error);
  EXPECT_THROW((void)parse({"fib", "--reps", "three"}), cli_error);
  EXPECT_THROW((void)parse({"fib", "--timeout", "-1"}), cli_error);
  EXPECT_THROW((void)parse({"fib", "--timeout", "soon"}), cli_error);
}

TEST(bench_cli, rejects_malformed_command_lines) {
  EXPECT_THROW((void)parse({}), cli_error);                       // no kernel
  EXPECT_THROW((void)parse({"fib", "nqueens"}), cli_error);       // two positionals
  EXPECT_THROW((void)parse({"fib", "--frobnicate"}), cli_error);  // unknown option
  EXPECT_THROW((void)parse({"fib", "-x"}), cli_error);            // unknown short option
  EXPECT_THROW((void)parse({"fib", "--size"}), cli_error);        // missing value
  EXPECT_THROW((void)parse({"fib", "--size", "small,"}), cli_error);
  EXPECT_THROW((void)parse({"fib", "--json="}), cli_error);
}

TEST(bench_cli, help_and_list_need_no_kernel) {
  EXPECT_TRUE(parse({"--help"}).help);
  EXPECT_TRUE(parse({"-h", "--bogus"}).help);
  EXPECT_TRUE(parse({"--list"}).list);
  EXPECT_NE(bench::usage().find("--workers"), std::string::npos);
}

TEST(bench_cli, child_mode_needs_one_configuration_and_a_result_fd) {
  auto o = parse({"--child", "--result-fd=3", "fib", "--size=25", "--runtime=locus",
                  "--policy=adaptive", "--victims=random", "--workers=2"});
  EXPECT_TRUE(o.child);
  EXPECT_EQ(o.result_fd, 3);
  EXPECT_THROW((void)parse({"--child", "fib", "--size=25"}), cli_error);
  EXPECT_THROW((void)parse({"--child", "--result-fd=3", "fib", "--workers=1,2"}), cli_error);
}

TEST(bench_cli, names_round_trip) {
  for (auto p : {locus::spawn_policy::work_first, locus::spawn_policy::help_first,
                 locus::spawn_policy::adaptive}) {
    EXPECT_EQ(bench::parse_policy_name(bench::policy_name(p)), p);
  }
  for (auto v : {locus::victim_policy::random, locus::victim_policy::hierarchical}) {
    EXPECT_EQ(bench::parse_victims_name(bench::victims_name(v)), v);
  }
  for (auto rt :
       {runtime_kind::serial, runtime_kind::locus, runtime_kind::tbb, runtime_kind::omp}) {
    EXPECT_EQ(bench::parse_runtime_name(bench::to_string(rt)), rt);
  }
}

// ----------------------------------------------------------------------- registry, sizes

TEST(bench_registry, names_are_unique_and_ids_follow_the_symbol_rule) {
  std::set<std::string_view> names;
  for (const auto& k : bench::registry()) {
    EXPECT_TRUE(names.insert(k.name).second) << k.name;
    std::string id(k.name);
    std::replace(id.begin(), id.end(), '-', '_');
    EXPECT_EQ(k.id, id);
    EXPECT_FALSE(k.small_size.empty()) << k.name;
    EXPECT_FALSE(k.default_size.empty()) << k.name;
    EXPECT_EQ(bench::find_kernel(k.name), &k);
  }
  EXPECT_EQ(bench::find_kernel("no-such-kernel"), nullptr);
  for (const char* expected : {"fib", "fj", "fj-rec", "nqueens", "uts", "matmul", "cilksort", "lu",
                               "heat", "sor", "pdfs", "cg", "floyd", "fdtd", "scan"}) {
    EXPECT_NE(bench::find_kernel(expected), nullptr) << expected;
  }
}

TEST(bench_registry, resolve_size_maps_small_and_default_and_passes_others_through) {
  const auto* fib = bench::find_kernel("fib");
  ASSERT_NE(fib, nullptr);
  EXPECT_EQ(bench::resolve_size(*fib, "small"), fib->small_size);
  EXPECT_EQ(bench::resolve_size(*fib, "default"), fib->default_size);
  EXPECT_EQ(bench::resolve_size(*fib, "30"), "30");
  const auto* cg = bench::find_kernel("cg");
  ASSERT_NE(cg, nullptr);
  EXPECT_EQ(bench::resolve_size(*cg, "small"), "S");
  EXPECT_EQ(bench::resolve_size(*cg, "A"), "A");
}

// ---------------------------------------------------------------------- grid, schedule

TEST(bench_grid, serial_once_per_size_peers_per_workers_locus_per_policy_victims_workers) {
  auto o =
      parse({"fib", "--size", "small,default,small", "--runtime", "serial,locus,tbb", "--policy",
             "work-first,help-first", "--victims", "random,hierarchical", "--workers", "1,2"});
  auto grid = bench::expand_grid(o);
  const auto* fib = bench::find_kernel("fib");
  // per size: 1 serial + 2*2*2 locus + 2 tbb
  ASSERT_EQ(grid.size(), 2u * (1 + 8 + 2));
  EXPECT_EQ(grid[0].runtime, runtime_kind::serial);
  EXPECT_EQ(grid[0].workers, 1u);
  EXPECT_EQ(grid[0].size, fib->small_size);
  EXPECT_EQ(grid[0].policy_text(), "-");
  EXPECT_EQ(grid[0].victims_text(), "-");
  EXPECT_EQ(grid[1].runtime, runtime_kind::locus);
  EXPECT_EQ(grid[1].policy_text(), "work-first");
  EXPECT_EQ(grid[1].victims_text(), "random");
  EXPECT_EQ(grid[1].label(),
            "fib " + std::string(fib->small_size) + " locus work-first random w=1");
  EXPECT_EQ(grid[9].runtime, runtime_kind::tbb);
  EXPECT_EQ(grid[9].label(), "fib " + std::string(fib->small_size) + " tbb w=1");
  EXPECT_EQ(grid[11].size, fib->default_size);
}

TEST(bench_grid, sizes_that_resolve_alike_run_once) {
  const auto* fj = bench::find_kernel("fj");
  ASSERT_NE(fj, nullptr);
  auto o = parse(
      {"fj", "--size", "small,default," + std::string(fj->small_size), "--runtime", "serial"});
  auto grid = bench::expand_grid(o);
  std::set<std::string> sizes;
  for (const auto& c : grid)
    sizes.insert(c.size);
  EXPECT_EQ(grid.size(), sizes.size());
}

TEST(bench_grid, schedule_interleaves_configurations_rep_by_rep_and_skips_missing_ones) {
  auto k = fake_kernel(&fake_ok, nullptr);
  std::vector<bench::bench_config> grid(3);
  for (auto& c : grid)
    c.kernel = &k;
  grid[0].runtime = runtime_kind::serial;
  grid[1].runtime = runtime_kind::locus;  // not implemented
  grid[2].runtime = runtime_kind::serial;
  grid[2].size = "2";
  auto plan = bench::schedule(grid, 3);
  ASSERT_EQ(plan.size(), 6u);
  for (std::size_t i = 0; i < plan.size(); ++i) {
    EXPECT_EQ(plan[i].rep, i / 2 + 1);
    EXPECT_EQ(plan[i].config, i % 2 == 0 ? 0u : 2u);
  }
}

// ------------------------------------------------------------------------------- JSON

TEST(bench_json, quote_escapes_quotes_backslashes_and_control_characters) {
  EXPECT_EQ(bench::json::quote("plain"), "\"plain\"");
  EXPECT_EQ(bench::json::quote("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(bench::json::quote("l1\nl2\tx\r"), "\"l1\\nl2\\tx\\r\"");
  EXPECT_EQ(bench::json::quote(std::string("\x01\x1f", 2)), "\"\\u0001\\u001f\"");
  EXPECT_EQ(bench::json::quote(std::string("nul\0x", 5)), "\"nul\\u0000x\"");
  EXPECT_EQ(bench::json::quote("caf\xc3\xa9"), "\"caf\xc3\xa9\"");  // UTF-8 passes through
}

TEST(bench_json, numbers_are_exact_and_non_finite_becomes_null) {
  EXPECT_EQ(bench::json::number(0.1), "0.1");
  EXPECT_EQ(bench::json::number(3), "3");
  EXPECT_EQ(bench::json::number(std::numeric_limits<double>::quiet_NaN()), "null");
  EXPECT_EQ(bench::json::number(std::numeric_limits<double>::infinity()), "null");
  double x = 0.000123456789012345;
  EXPECT_EQ(bench::json::parse(bench::json::number(x)).as_number(), x);
}

TEST(bench_json, parse_round_trips_and_keeps_member_order) {
  const std::string text =
      R"({"b":1,"a":[true,false,null,"s\"\\\n\u00e9"],"o":{"x":-2.5e3},"e":{},"f":[]})";
  auto v = bench::json::parse(text);
  ASSERT_TRUE(v.is_object());
  EXPECT_EQ(v.as_object().front().first, "b");
  EXPECT_EQ(v.find("a")->as_array()[3].as_string(), "s\"\\\n\xc3\xa9");
  EXPECT_EQ(v.find("o")->find("x")->as_number(), -2500.0);
  EXPECT_EQ(bench::json::parse(v.dump()).dump(), v.dump());
  EXPECT_EQ(v.find("missing"), nullptr);
}

TEST(bench_json, parse_rejects_malformed_documents) {
  for (const char* bad : {"", "{", "{\"a\":}", "{\"a\":1,}", "[1 2]", "\"unterminated", "nan",
                          "{\"a\":1} x", "{a:1}", "\"\\q\"", "01x"}) {
    EXPECT_THROW((void)bench::json::parse(bad), bench::json::parse_error) << bad;
  }
}

TEST(bench_json, result_has_exactly_the_documented_fields) {
  auto k = fake_kernel(&fake_ok, nullptr);
  bench::bench_config c;
  c.kernel = &k;
  c.size = "1";
  c.runtime = runtime_kind::locus;
  auto s = bench::summarize(c, {});  // not implemented
  auto v = bench::json::parse(bench::result_json(s));
  std::vector<std::string> keys;
  for (const auto& [key, val] : v.as_object())
    keys.push_back(key);
  EXPECT_EQ(keys, (std::vector<std::string>{"kernel", "size", "runtime", "policy", "victims",
                                            "workers", "reps", "median_s", "min_s", "max_s",
                                            "verified", "peak_rss_kib", "stats", "detail"}));
  EXPECT_TRUE(v.find("median_s")->is_null());
  EXPECT_FALSE(v.find("verified")->as_bool());
  EXPECT_EQ(v.find("detail")->as_string().rfind("n/a (not implemented)", 0), 0u);
  EXPECT_TRUE(v.find("stats")->is_object());
}

TEST(bench_json, report_document_parses_with_machine_command_and_results) {
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
  std::string doc = bench::report_json(bench::machine_json(),
                                       bench::command_line({"locus-bench", "fib", "a b"}), {s});
  auto v = bench::json::parse(doc);
  EXPECT_GE(v.find("machine")->find("nproc")->as_number(), 1.0);
  EXPECT_TRUE(v.find("machine")->find("cpu_model")->is_string());
  EXPECT_TRUE(v.find("machine")->find("hostname")->is_string());
  EXPECT_EQ(v.find("command")->as_string(), "locus-bench fib 'a b'");
  ASSERT_EQ(v.find("results")->as_array().size(), 1u);
  const auto& res = v.find("results")->as_array()[0];
  EXPECT_EQ(res.find("detail")->as_string(), r.detail);
  EXPECT_EQ(res.find("median_s")->as_number(), 0.25);
  EXPECT_EQ(res.find("policy")->as_string(), "-");
}

// ------------------------------------------------------------------ results, summaries

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

TEST(bench_results, child_report_encoding_round_trips_through_interpretation) {
  bench::run_report rep;
  rep.result = {1.25, true, "fib(25)=75025 \"ok\""};
  rep.stats_json = R"({"spawns_work_first":10,"workers":[{"place":0}]})";
  bench::child_outcome ch;
  ch.started = true;
  ch.exit_code = 0;
  ch.line = bench::encode_report(rep);
  auto r = bench::interpret_child(ch, 0);
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.seconds, 1.25);
  EXPECT_EQ(r.detail, rep.result.detail);
  EXPECT_EQ(*bench::find_counter(r.stats, {"spawns_work_first"}), 10.0);
  ch.exit_code = 1;
  ch.line = bench::encode_error("line\nbreak");
  EXPECT_EQ(bench::interpret_child(ch, 0).detail, "error: line\nbreak");
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
  EXPECT_FALSE(bench::find_counter(bench::json::value(), {"a"}).has_value());
}

TEST(bench_progress, text_has_the_documented_shape_and_is_silent_when_disabled) {
  EXPECT_EQ(bench::progress_line::text(12, 48, "fib 35 locus adaptive hierarchical w=2", 3, 5),
            "[12/48] fib 35 locus adaptive hierarchical w=2 rep 3/5");
  bench::progress_line off(-1, false);
  off.show(1, 2, "x", 1, 1);  // would fail loudly on fd -1 if it wrote
  EXPECT_FALSE(off.enabled());
}

// ------------------------------------------------------------------- child processes

TEST(bench_child, reads_the_result_pipe_and_the_exit_status) {
  auto ch = bench::run_child("/bin/sh", {"sh", "-c", "echo '{\"x\":1}' >&3; exit 4"}, 3, 0);
  ASSERT_TRUE(ch.started);
  EXPECT_EQ(ch.line, "{\"x\":1}");
  EXPECT_EQ(ch.exit_code, 4);
  EXPECT_EQ(ch.signal, 0);
  EXPECT_FALSE(ch.clean_exit());
  EXPECT_GT(ch.peak_rss_kib, 0);
  EXPECT_EQ(ch.describe_failure(0), "exit status 4");
}

TEST(bench_child, reports_death_by_signal) {
  auto ch = bench::run_child("/bin/sh", {"sh", "-c", "kill -SEGV $$"}, 3, 0);
  ASSERT_TRUE(ch.started);
  EXPECT_EQ(ch.signal, 11);
  EXPECT_EQ(ch.describe_failure(0).rfind("killed by signal 11", 0), 0u);
}

TEST(bench_child, kills_a_child_that_outlives_the_timeout) {
  auto ch = bench::run_child("/bin/sh", {"sh", "-c", "exec sleep 30"}, 3, 0.2);
  ASSERT_TRUE(ch.started);
  EXPECT_TRUE(ch.timed_out);
  EXPECT_FALSE(ch.clean_exit());
}

TEST(bench_child, a_program_that_cannot_be_executed_is_not_a_clean_exit) {
  auto ch = bench::run_child("/nonexistent/program", {"x"}, 3, 0);
  EXPECT_FALSE(ch.clean_exit());
  EXPECT_EQ(ch.exit_code, 127);
}

// -------------------------------------------------- every kernel, every runtime built

struct kernel_case {
  const bench::kernel_info* kernel;
  runtime_kind runtime;
};

std::vector<kernel_case> kernel_cases() {
  std::vector<kernel_case> out;
  for (const auto& k : bench::registry()) {
    for (auto rt :
         {runtime_kind::serial, runtime_kind::locus, runtime_kind::tbb, runtime_kind::omp}) {
      if (bench::runtime_built(rt)) out.push_back({&k, rt});
    }
  }
  return out;
}

// Names the case in gtest's failure messages instead of dumping its bytes.
void PrintTo(const kernel_case& c, std::ostream* os) {
  *os << c.kernel->name << '/' << bench::to_string(c.runtime);
}

class bench_kernel_small : public testing::TestWithParam<kernel_case> {};

// A missing implementation fails here on purpose: every kernel must exist for every runtime
// that was built.
TEST_P(bench_kernel_small, is_implemented_and_verifies) {
  const auto& [kernel, runtime] = GetParam();
  bench::bench_config c;
  c.kernel = kernel;
  c.size = bench::resolve_size(*kernel, "small");
  c.runtime = runtime;
  c.workers = runtime == runtime_kind::serial ? 1 : 2;
  ASSERT_TRUE(c.implemented()) << bench::not_implemented_detail(c);
  bench::run_report r = bench::execute(c);  // locus: locus::runtime rt{cfg}, cfg.workers = 2
  EXPECT_TRUE(r.result.verified) << c.label() << ": " << r.result.detail;
  EXPECT_GE(r.result.seconds, 0.0);
  EXPECT_NO_THROW((void)bench::json::parse(r.stats_json)) << r.stats_json;
}

INSTANTIATE_TEST_SUITE_P(all, bench_kernel_small, testing::ValuesIn(kernel_cases()),
                         [](const testing::TestParamInfo<kernel_case>& info) {
                           std::string name(info.param.kernel->id);
                           return name + "_" + std::string(bench::to_string(info.param.runtime));
                         });

}  // namespace

#endif  // LOCUS_TEST_KERNELS
