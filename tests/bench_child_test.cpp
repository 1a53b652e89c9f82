// tests/bench_child_test.cpp — running a program in a child process: the result pipe, the exit
// status, death by a signal, the time limit.
#ifdef LOCUS_TEST_KERNELS

#include <gtest/gtest.h>

#include "harness/child_process.hpp"

namespace {

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

}  // namespace

#endif  // LOCUS_TEST_KERNELS
