// tests/bench_json_test.cpp — the JSON locus-bench writes and reads: the line a child sends its
// parent, one result, and the --json document whose schema tools/bench-report and tools/plot
// read (see docs/benchmarks-data/*.json).
#ifdef LOCUS_TEST_KERNELS

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "harness/child_process.hpp"
#include "harness/execute.hpp"
#include "harness/json.hpp"
#include "harness/report.hpp"
#include "harness/results.hpp"
#include "harness/scheduler_stats.hpp"
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

TEST(bench_json, runtime_stats_pass_through_unparsed_with_the_added_members_after_them) {
  // The child splices the runtime's own JSON text into its report (it does not parse and
  // rewrite it); the parent must read the runtime's members and the harness's, in order.
  bench::run_report rep;
  rep.result = {0.5, true, "ok"};
  rep.runtime_stats = "{\"z\":1,\"m\":{\"y\":[2,3]}}\n";
  rep.stats = json::parse(R"({"flow":{"steals":4},"cab":{}})");
  auto r = bench::interpret_child(clean_child(bench::encode_report(rep)), 0);
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.seconds, 0.5);
  EXPECT_EQ(bench::dump(r.stats), R"({"z":1,"m":{"y":[2,3]},"flow":{"steals":4},"cab":{}})");
  rep.stats = json::object();  // nothing added: the runtime's text alone
  EXPECT_EQ(bench::dump(bench::interpret_child(clean_child(bench::encode_report(rep)), 0).stats),
            R"({"z":1,"m":{"y":[2,3]}})");
  rep.runtime_stats = "{ }";  // an empty object, then members added
  rep.stats = json::parse(R"({"a":1})");
  EXPECT_EQ(bench::dump(bench::interpret_child(clean_child(bench::encode_report(rep)), 0).stats),
            R"({"a":1})");
  rep.runtime_stats = "[1]";
  EXPECT_THROW((void)bench::encode_report(rep), std::runtime_error);
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

/// Sets an environment variable for a scope and puts the old value back (locus-bench passes
/// --topology and --accounting to its children this way).
class scoped_env {
 public:
  scoped_env(const char* name, const char* value) : m_name(name) {
    if (const char* old = std::getenv(name)) m_old = old;
    ::setenv(name, value, 1);
  }
  ~scoped_env() {
    if (m_old)
      ::setenv(m_name, m_old->c_str(), 1);
    else
      ::unsetenv(m_name);
  }
  scoped_env(const scoped_env&) = delete;
  scoped_env& operator=(const scoped_env&) = delete;

 private:
  const char* m_name;
  std::optional<std::string> m_old;
};

/// A locus run of `kernel` at `size` on 2 workers of a virtual 2-socket machine with
/// accounting on, as a child makes it, read back as the parent does.
bench::rep_result accounted_run(const char* kernel, const char* size) {
  const scoped_env topo("LOCUS_TOPOLOGY", "sockets=2,cores=1,l3=1MiB,l2=64KiB");
  const scoped_env acct("LOCUS_ACCOUNTING", "1");
  bench::bench_config c;
  c.kernel = bench::find_kernel(kernel);
  c.size = size;
  c.runtime = runtime_kind::locus;
  c.workers = 2;
  return bench::interpret_child(clean_child(bench::encode_report(bench::execute(c))), 0);
}

// An iterative kernel runs through locus::iterate: its run's stats carry one record per
// iteration of the timed run (heat 64x64x6: 6 time steps; the setup's first touch is not one),
// each with its locality measured; and a result's JSON keeps them under stats.
TEST(bench_json, an_iterative_run_reports_one_record_per_iteration) {
  const bench::rep_result r = accounted_run("heat", "64x64x6");
  ASSERT_TRUE(r.ok) << r.detail;
  ASSERT_TRUE(r.verified) << r.detail;
  const json* it = bench::member(r.stats, "iterations");
  ASSERT_NE(it, nullptr) << bench::dump(r.stats);
  ASSERT_TRUE(it->is_array());
  ASSERT_EQ(it->size(), 6u) << bench::dump(*it);
  std::uint64_t bytes = 0;
  for (std::size_t i = 0; i < it->size(); ++i) {
    const json& rec = (*it)[i];
    EXPECT_EQ(rec["index"].get<std::size_t>(), i);
    EXPECT_EQ(rec["scheduler"].get<std::string>(), "slaw");
    EXPECT_GT(rec["bytes"].get<std::uint64_t>(), 0u) << bench::dump(rec);
    EXPECT_EQ(rec["bytes_per_socket"].size(), 2u) << bench::dump(rec);
    for (const char* key : {"time_ns", "l3_misses", "private_misses", "cross_socket_takes",
                            "cf_roots", "cf_level", "packing_offset", "local_share", "stage"})
      EXPECT_NE(bench::member(rec, key), nullptr) << key << ": " << bench::dump(rec);
    bytes += rec["bytes"].get<std::uint64_t>();
  }
  // The records partition the run: their bytes add up to the run's locality total (bytes by
  // distance to their home, unplaced included).
  std::uint64_t total = 0;
  for (const auto& [distance, n] : r.stats["locality"]["bytes"].items())
    total += n.get<std::uint64_t>();
  EXPECT_EQ(bytes, total) << bench::dump(r.stats["locality"]);
  bench::bench_config c;
  c.kernel = bench::find_kernel("heat");
  const json res = json::parse(bench::dump(bench::result_json(bench::summarize(c, {r}))));
  EXPECT_EQ(res["stats"]["iterations"].size(), 6u);
}

// Every field of locus::cab::stats, with what writes it: the one list the cab_json test
// checks the writer against.
struct cab_field {
  const char* name;
  void (*set)(locus::cab::stats&, std::uint64_t);
};

constexpr cab_field cab_fields[] = {
    {"boundary_level",
     [](locus::cab::stats& s, std::uint64_t v) { s.boundary_level = static_cast<int>(v); }},
    {"root_depth",
     [](locus::cab::stats& s, std::uint64_t v) { s.root_depth = static_cast<int>(v); }},
    {"leaf_depth",
     [](locus::cab::stats& s, std::uint64_t v) { s.leaf_depth = static_cast<int>(v); }},
    {"branching",
     [](locus::cab::stats& s, std::uint64_t v) { s.branching = static_cast<unsigned>(v); }},
    {"data_bytes", [](locus::cab::stats& s, std::uint64_t v) { s.data_bytes = v; }},
    {"cache_bytes", [](locus::cab::stats& s, std::uint64_t v) { s.cache_bytes = v; }},
    {"squads", [](locus::cab::stats& s, std::uint64_t v) { s.squads = static_cast<unsigned>(v); }},
    {"inter_spawns", [](locus::cab::stats& s, std::uint64_t v) { s.inter_spawns = v; }},
    {"leaf_spawns", [](locus::cab::stats& s, std::uint64_t v) { s.leaf_spawns = v; }},
    {"pool_takes", [](locus::cab::stats& s, std::uint64_t v) { s.pool_takes = v; }},
    {"cross_squad_takes", [](locus::cab::stats& s, std::uint64_t v) { s.cross_squad_takes = v; }},
    {"manual_spawns", [](locus::cab::stats& s, std::uint64_t v) { s.manual_spawns = v; }},
    {"sent_home", [](locus::cab::stats& s, std::uint64_t v) { s.sent_home = v; }},
};

// The number of fields of an aggregate of scalars: the longest brace list it accepts.
struct any_scalar {
  template <class T>
  operator T() const;  // never called: only the brace-init checks below use it
};
template <class T, class... Fields>
constexpr std::size_t field_count() {
  if constexpr (requires { T{Fields{}..., any_scalar{}}; })
    return field_count<T, Fields..., any_scalar>();
  else
    return sizeof...(Fields);
}

// A field added to cab::stats must be added to cab_fields (and so be checked below).
static_assert(field_count<locus::cab::stats>() == std::size(cab_fields),
              "locus::cab::stats changed: list its fields in cab_fields");

// cab's own counts (cab::stats_of): every field under its own name, in the table's order, and
// nothing else. The values are distinct, so a field left out, written under another's name or
// written from another field fails.
TEST(bench_json, cab_stats_have_every_field_under_its_name) {
  locus::cab::stats s;
  for (std::size_t i = 0; i < std::size(cab_fields); ++i)
    cab_fields[i].set(s, 101 + i);
  const json v = json::parse(bench::dump(bench::cab_json(s)));
  std::vector<std::string> keys;
  for (const auto& item : v.items())
    keys.push_back(item.key());
  std::vector<std::string> names;
  for (std::size_t i = 0; i < std::size(cab_fields); ++i) {
    const cab_field& f = cab_fields[i];
    names.emplace_back(f.name);
    ASSERT_TRUE(v.contains(f.name)) << f.name << " is missing: " << bench::dump(v);
    EXPECT_TRUE(v[f.name].is_number_integer()) << f.name << ": " << bench::dump(v);
    EXPECT_EQ(v[f.name].get<std::uint64_t>(), 101 + i) << f.name << ": " << bench::dump(v);
  }
  EXPECT_EQ(keys, names) << bench::dump(v);
  // Undecided (-1) stays signed.
  EXPECT_EQ(bench::cab_json(locus::cab::stats{})["boundary_level"].get<int>(), -1);
}

// A run under cab carries stats.cab with what Eq. 4 decided, into the result's JSON: heat
// 64x64x6 on 2 sockets of 1 MiB: M = 2, S_d the grid a step reads (64 x 64 doubles, 32 KiB:
// fits), B = 2, so BL = 1 + log2 2 = 2 with the split at depth 1 and the leaf inter-socket
// tasks at depth 2; each run (the first touch, then 6 steps) spawns one of them (the other
// half is called). A slaw run has no stats.cab.
TEST(bench_json, a_cab_run_reports_its_decision_under_stats_cab) {
  bench::rep_result r;
  {
    const scoped_env sched("LOCUS_SCHEDULER", "cab");
    r = accounted_run("heat", "64x64x6");
  }
  ASSERT_TRUE(r.ok) << r.detail;
  ASSERT_TRUE(r.verified) << r.detail;
  const json* cab = bench::member(r.stats, "cab");
  ASSERT_NE(cab, nullptr) << bench::dump(r.stats);
  EXPECT_EQ((*cab)["squads"].get<unsigned>(), 2u);
  EXPECT_EQ((*cab)["cache_bytes"].get<std::size_t>(), std::size_t{1} << 20);
  EXPECT_EQ((*cab)["data_bytes"].get<std::size_t>(), std::size_t{64} * 64 * sizeof(double));
  EXPECT_EQ((*cab)["branching"].get<unsigned>(), 2u);
  EXPECT_EQ((*cab)["boundary_level"].get<int>(), 2);
  EXPECT_EQ((*cab)["root_depth"].get<int>(), 1);
  EXPECT_EQ((*cab)["leaf_depth"].get<int>(), 2);
  EXPECT_EQ((*cab)["inter_spawns"].get<std::uint64_t>(), 7u) << bench::dump(*cab);
  EXPECT_EQ((*cab)["leaf_spawns"].get<std::uint64_t>(), 7u) << bench::dump(*cab);
  EXPECT_EQ((*cab)["manual_spawns"].get<std::uint64_t>(), 0u);
  for (const json& rec : r.stats["iterations"])
    EXPECT_EQ(rec["scheduler"].get<std::string>(), "cab");
  bench::bench_config c;
  c.kernel = bench::find_kernel("heat");
  const json res = json::parse(bench::dump(bench::result_json(bench::summarize(c, {r}))));
  EXPECT_EQ(res["stats"]["cab"], *cab);
  const bench::rep_result plain = accounted_run("heat", "64x64x6");
  ASSERT_TRUE(plain.ok) << plain.detail;
  EXPECT_EQ(bench::member(plain.stats, "cab"), nullptr) << bench::dump(plain.stats);
}

TEST(bench_json, a_kernel_that_does_not_iterate_reports_no_iterations) {
  const bench::rep_result r = accounted_run("fib", "15");
  ASSERT_TRUE(r.ok) << r.detail;
  EXPECT_EQ(bench::member(r.stats, "iterations"), nullptr) << bench::dump(r.stats);
  EXPECT_NE(bench::member(r.stats, "workers"), nullptr);
}

}  // namespace

#endif  // LOCUS_TEST_KERNELS
