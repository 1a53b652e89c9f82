// stats_summary_test.cpp — runtime_stats::summary() prints exactly the form that stats.hpp
// documents, on one line.
#include <locus/stats.hpp>

#include <gtest/gtest.h>

#include <fstream>
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
  std::string path = __FILE__;
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
            "workers=2 | spawns wf=120 hf=8 remote=1 | adaptive S=4 F=5 switches=6 | steals 7/40 "
            "| mailbox 9 | syncs-waited 10 | idle 0.012s sleeps 3 | peak-stack 12.5 KiB");
  EXPECT_EQ(s.find('\n'), std::string::npos);
}

TEST(stats_summary, matches_the_example_in_stats_hpp) {
  const std::string doc = documented_example();
  if (doc.empty()) GTEST_SKIP() << "stats.hpp not found beside " << __FILE__;
  EXPECT_EQ(example_stats().summary(), doc);
}

TEST(stats_summary, empty_stats_print_zeros) {
  EXPECT_EQ(locus::runtime_stats{}.summary(),
            "workers=0 | spawns wf=0 hf=0 remote=0 | adaptive S=0 F=0 switches=0 | steals 0/0 | "
            "mailbox 0 | syncs-waited 0 | idle 0.000s sleeps 0 | peak-stack 0.0 KiB");
}

}  // namespace
