// stats_summary_test.cpp — runtime_stats::summary() prints exactly the form that stats.hpp
// documents, on one line; the field table (stat_fields, counters::fields) drives the sums, the
// summary, the JSON and the workers' counters, each field once.
#include <locus/detail/counters.hpp>
#include <locus/stats.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <fstream>
#include <set>
#include <string>

namespace {

// The worker counters whose totals the example in stats.hpp shows.
locus::runtime_stats example_stats() {
  locus::worker_stats a, b;
  a.spawns_work_first = 100, b.spawns_work_first = 20;
  a.spawns_help_first = 8;
  b.spawns_remote = 1;
  a.stack_condition = 4;
  b.fresh_condition = 5;
  a.policy_switches = 2, b.policy_switches = 4;
  a.steals_succeeded = 3, b.steals_succeeded = 4;
  a.steals_attempted = 15, b.steals_attempted = 25;
  a.heavy_fences = 2;
  b.fence_episodes = 1;
  b.mailbox_takes = 9;
  a.syncs_suspended = 10;
  a.idle_ns = 5'000'000, b.idle_ns = 7'000'000;
  b.sleeps = 3;
  a.peak_stack_bytes = 6400, b.peak_stack_bytes = 6400;
  b.place = 1;
  return locus::runtime_stats{{a, b}};
}

// The example in the doc comment of summary(): the comment lines after "exactly in this form"
// that are indented as an example, joined with single spaces.
std::string documented_example() {
  // The source dir from CMake, not __FILE__: ccache with base_dir makes __FILE__ relative.
  std::string path = LOCUS_TEST_SOURCE_DIR "/";
  path = path.substr(0, path.rfind('/')) + "/../include/locus/stats.hpp";
  std::ifstream in(path);
  if (!in) return {};
  std::string line, example;
  bool in_example = false;
  while (std::getline(in, line)) {
    if (line.find("exactly in this form") != std::string::npos) {
      in_example = true;
      continue;
    }
    if (!in_example) continue;
    const auto at = line.find("///   ");
    if (at == std::string::npos) break;
    std::string part = line.substr(at + 6);
    while (!part.empty() && part.back() == ' ')
      part.pop_back();
    example += (example.empty() ? "" : " ") + part;
  }
  return example;
}

TEST(stats_summary, prints_the_documented_form_on_one_line) {
  const std::string s = example_stats().summary();
  EXPECT_EQ(s,
            "workers=2 | spawns wf=120 hf=8 remote=1 | adaptive S=4 F=5 switches=6 | steals "
            "tried=40 took=7 membarrier=2 | mailbox takes=9 | syncs waited=10 | idle sleeps=3 "
            "time=0.012s | stack peak=12.5KiB | pop fenced=1");
  EXPECT_EQ(s.find('\n'), std::string::npos);
}

TEST(stats_summary, matches_the_example_in_stats_hpp) {
  const std::string doc = documented_example();
  if (doc.empty()) FAIL() << "stats.hpp not found from " LOCUS_TEST_SOURCE_DIR;
  EXPECT_EQ(example_stats().summary(), doc);
}

TEST(stats_summary, empty_stats_print_zeros) {
  EXPECT_EQ(locus::runtime_stats{}.summary(),
            "workers=0 | spawns wf=0 hf=0 remote=0 | adaptive S=0 F=0 switches=0 | steals "
            "tried=0 took=0 membarrier=0 | mailbox takes=0 | syncs waited=0 | idle sleeps=0 "
            "time=0.000s | stack peak=0.0KiB | pop fenced=0");
}

// Every field of the table, set to a distinct value, is summed, printed once in the summary
// and once in the JSON under its own name.
TEST(stats_table, every_field_is_summed_printed_and_written_once) {
  locus::worker_stats a, b;
  std::uint64_t v = 1;
  for (const auto& f : locus::stat_fields) {
    a.*f.member = v;
    b.*f.member = 1000 * v;
    ++v;
  }
  locus::worker_stats sum = a;
  sum += b;
  v = 1;
  for (const auto& f : locus::stat_fields) {
    EXPECT_EQ(sum.*f.member, 1001 * v) << f.name;
    ++v;
  }
  const locus::runtime_stats rs{{a, b}};
  const std::string json = rs.to_json();
  const std::string line = rs.summary();
  std::set<std::string> names;
  for (const auto& f : locus::stat_fields) {
    EXPECT_TRUE(names.insert(std::string(f.name)).second) << "field twice: " << f.name;
    const std::string key = "\"" + std::string(f.name) + "\":";
    std::size_t n = 0;
    for (auto at = json.find(key); at != std::string::npos; at = json.find(key, at + 1))
      ++n;
    EXPECT_EQ(n, 3U) << f.name << " in " << json;  // the totals and each worker
    EXPECT_NE(line.find(" " + std::string(f.label) + "="), std::string::npos) << f.name;
  }
  // The table covers every counter of the struct: its 64-bit fields come first, in order.
  EXPECT_EQ(static_cast<const void*>(&(a.*locus::stat_fields.front().member)),
            static_cast<const void*>(&a));
  EXPECT_EQ(offsetof(locus::worker_stats, place),
            locus::stat_fields.size() * sizeof(std::uint64_t));
}

// The workers' atomic counters map one to one onto the fields they are reported in.
TEST(stats_table, each_atomic_counter_reaches_its_own_field) {
  using locus::detail::counters;
  for (std::size_t i = 0; i < counters::fields.size(); ++i) {
    counters c;
    c.reset();
    counters::bump(c.*counters::fields[i].atomic, 7);
    const locus::worker_stats s = c.snapshot();
    for (std::size_t j = 0; j < counters::fields.size(); ++j) {
      EXPECT_EQ(s.*counters::fields[j].stat, i == j ? 7U : 0U) << i << " " << j;
      if (j != i) EXPECT_NE(counters::fields[i].stat, counters::fields[j].stat);
    }
  }
}

}  // namespace
