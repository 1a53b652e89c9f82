// locus-steal-tree (tools/steal-tree/cli.cpp) run in process: it reads every tree the library
// writes (issue 23, defect 4: traces of programs that call, fib's, failed the strict rule and
// nothing asked for the other), and `-o -` means standard output for every command (item 9:
// prune and remap wrote a file named "-").
//
// Built when the tool is (LOCUS_BUILD_BENCH): LOCUS_TEST_STEAL_TREE_TOOL.
#ifdef LOCUS_TEST_STEAL_TREE_TOOL

#include <gtest/gtest.h>
#include <locus/locus.hpp>
#include <locus/schedule/replay.hpp>
#include <locus/schedule/steal_tree_io.hpp>

#include <cstddef>
#include <filesystem>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "replay_support.hpp"
#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;
namespace ls = locus::schedule;

struct result {
  int status;
  std::string out, err;
};

result tool(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  const int s = locus_tool::steal_tree_main(args, out, err);
  return {s, out.str(), err.str()};
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

fs::path temp(const std::string& name) {
  return fs::temp_directory_path() / ("locus_tool_test_" + name);
}

/// A tree the paper's rule refuses and the with-calls rule accepts: a continuation stolen two
/// levels below the root's phase with no steal at the level between (a phase that descended
/// into a called frame, as fib's do).
ls::steal_tree calls_tree() {
  ls::steal_tree t(2, 0, 0, 0, "cores=2");
  t.add_steal(0, 2, 0, 1, 0);
  return t;
}

TEST(ReplayTool, ReadsATreeOfAProgramThatCallsByDefault) {
  const fs::path f = temp("calls.st");
  ls::save(calls_tree(), f);
  const result strict = tool({"info", f.string(), "--rule", "strict"});
  EXPECT_EQ(strict.status, 1);
  EXPECT_TRUE(contains(strict.err, "locus-steal-tree: ")) << strict.err;
  const result info = tool({"info", f.string()});
  EXPECT_EQ(info.status, 0) << info.err;
  EXPECT_TRUE(contains(info.out, "2 nodes (1 steals), 2 workers")) << info.out;
  EXPECT_TRUE(contains(info.out,
                       "validity rule: with-calls (the program calls); the strict rule "
                       "refuses it: "))
      << info.out;
  EXPECT_EQ(tool({"info", f.string(), "--rule", "with-calls"}).status, 0);
  EXPECT_EQ(tool({"dot", f.string()}).status, 0);
  const fs::path pruned = temp("calls-pruned.st"), remapped = temp("calls-remapped.st");
  EXPECT_EQ(tool({"prune", f.string(), "50", "-o", pruned.string()}).status, 0);
  EXPECT_EQ(tool({"remap", f.string(), "1", "-o", remapped.string()}).status, 0);
  EXPECT_EQ(tool({"info", remapped.string()}).status, 0);
  const result bad_rule = tool({"info", f.string(), "--rule", "loose"});
  EXPECT_EQ(bad_rule.status, 2);
  fs::remove(f);
  fs::remove(pruned);
  fs::remove(remapped);
}

TEST(ReplayTool, AStrictTreeIsReportedStrict) {
  const fs::path f = temp("strict.st");
  ls::steal_tree t(2, 0, 0, 0, "cores=2");
  t.add_steal(0, 0, 0, 1, 0);
  ls::save(t, f);
  const result info = tool({"info", f.string()});
  EXPECT_EQ(info.status, 0) << info.err;
  EXPECT_TRUE(contains(info.out, "validity rule: strict (spawns only)\n")) << info.out;
  fs::remove(f);
}

// A trace of fib kept in the fuzz corpus (4 workers, cilk: its node 3 is a continuation two
// levels below its parent's phase): main's tool refused it with every command.
TEST(ReplayTool, ReadsTheKeptTraceOfFib) {
  const std::string f = std::string(LOCUS_STEAL_TREE_CORPUS) + "/traced-fib-calls.st";
  const fs::path out = temp("kept-out.st");
  const result info = tool({"info", f});
  EXPECT_EQ(info.status, 0) << info.err;
  EXPECT_TRUE(contains(info.out, "7 nodes (6 steals), 4 workers")) << info.out;
  EXPECT_TRUE(contains(info.out, "validity rule: with-calls")) << info.out;
  EXPECT_EQ(tool({"dot", f, "-o", "-"}).status, 0);
  EXPECT_EQ(tool({"prune", f, "50", "-o", out.string()}).status, 0);
  EXPECT_EQ(tool({"remap", f, "2", "-o", out.string()}).status, 0);
  EXPECT_EQ(tool({"info", f, "--rule", "strict"}).status, 1);
  fs::remove(out);
}

// Every tree a traced fib writes (it spawns and calls) is read by every command.
TEST(ReplayTool, ReadsTracesOfFib) {
  locus::config c = replay_test::cfg(4);
  c.scheduler = locus::scheduler_kind::cilk;
  locus::runtime rt{c};
  const fs::path f = temp("fib.st"), out = temp("fib-out.st");
  for (int i = 0; i < 8; ++i) {
    const auto r = ls::run_traced(rt, locus_test::fib(20));
    ls::save(r.tree, f);
    for (const auto& args :
         std::vector<std::vector<std::string>>{{"info", f.string()},
                                               {"dot", f.string(), "-o", out.string()},
                                               {"prune", f.string(), "30", "-o", out.string()},
                                               {"remap", f.string(), "2", "-o", out.string()}}) {
      const result r2 = tool(args);
      EXPECT_EQ(r2.status, 0) << args[0] << ": " << r2.err;
    }
  }
  fs::remove(f);
  fs::remove(out);
}

// "-o -": standard output for dot (text) and for prune and remap (the file's bytes); no file
// named "-" appears.
TEST(ReplayTool, DashIsStandardOutputForEveryCommand) {
  const fs::path f = temp("dash.st");
  const ls::steal_tree t = calls_tree();
  ls::save(t, f);
  const bool had_dash = fs::exists("-");
  const result dot = tool({"dot", f.string(), "-o", "-"});
  EXPECT_EQ(dot.status, 0);
  EXPECT_TRUE(contains(dot.out, "digraph")) << dot.out;
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"prune", f.string(), "0", "-o", "-"}, {"remap", f.string(), "2", "--output", "-"}}) {
    const result r = tool(args);
    ASSERT_EQ(r.status, 0) << r.err;
    ls::load_options o;
    o.validity = ls::validity_rule::with_calls;
    const auto bytes = std::as_bytes(std::span(r.out.data(), r.out.size()));
    const ls::steal_tree back = ls::deserialize(bytes, "stdout", o);
    EXPECT_EQ(back.size(), t.size()) << args[0];
  }
  EXPECT_EQ(fs::exists("-"), had_dash);
  fs::remove(f);
}

}  // namespace

#endif  // LOCUS_TEST_STEAL_TREE_TOOL
