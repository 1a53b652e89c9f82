// tests/bench_input_test.cpp — locus-bench input that was unclear or undefined (issue 23):
// --timeout past the deadline's range (UBSan: signed overflow in child_process.cpp), an
// option value that looks like an option, LOCUS_BENCH_LOOP_FIXED parsed like every LOCUS_*
// variable.
//
// Built only when the bench targets exist (LOCUS_TEST_KERNELS).
#ifdef LOCUS_TEST_KERNELS

#include <gtest/gtest.h>
#include <stdlib.h>

#include <string>
#include <vector>

#include "bench_support.hpp"
#include "harness/child_process.hpp"
#include "kernels/locus_replay.hpp"

namespace {

using bench::cli_error;
using bench_test::parse;

std::string error_of(std::vector<std::string> args) {
  try {
    (void)parse(std::move(args));
  } catch (const cli_error& e) {
    return e.what();
  }
  return "accepted";
}

TEST(bench_input, a_timeout_past_a_year_is_refused) {
  EXPECT_EQ(error_of({"fib", "--timeout", "1e10"}),
            "--timeout: '1e10' is more than 31536000 seconds (a year); use 0 for no limit");
  EXPECT_EQ(error_of({"fib", "--timeout=31536001"}),
            "--timeout: '31536001' is more than 31536000 seconds (a year); use 0 for no limit");
  EXPECT_DOUBLE_EQ(parse({"fib", "--timeout", "31536000"}).timeout_s, bench::max_timeout_s);
}

// run_child itself never computes an overflowing deadline: a timeout past its limit means no
// limit (UBSan checks the arithmetic in the asan preset).
TEST(bench_input, run_child_treats_a_huge_timeout_as_no_limit) {
  const bench::child_outcome c = bench::run_child("/bin/true", {"true"}, 3, 1e300);
  EXPECT_TRUE(c.clean_exit());
}

TEST(bench_input, an_option_value_that_looks_like_an_option_is_an_error) {
  EXPECT_EQ(error_of({"fib", "--json", "--timeout=5"}),
            "--json: expected a value, got '--timeout=5', which looks like an option (a file "
            "named so can be written ./--timeout=5)");
  EXPECT_EQ(error_of({"fib", "--size", "--reps", "3"}),
            "--size: expected a value, got '--reps', which looks like an option (a file named so "
            "can be written ./--reps)");
  EXPECT_EQ(error_of({"fib", "--workers=-w"}),
            "--workers: expected a value, got '-w', which looks like an option (a file named so "
            "can be written ./-w)");
  // A negative number is still the option's own error.
  EXPECT_EQ(error_of({"fib", "--timeout", "-1"}),
            "--timeout: '-1' is not a number of seconds >= 0");
  EXPECT_EQ(parse({"fib", "--json", "./--timeout=5"}).json_path, "./--timeout=5");
}

/// loop_options() with LOCUS_BENCH_LOOP_FIXED set to `v`; the message of its config_error,
/// or "ok <iterations>".
std::string loop_fixed(const char* v) {
  ::setenv("LOCUS_BENCH_LOOP_FIXED", v, 1);
  std::string out;
  try {
    out = "ok " + std::to_string(bench::loop_options().max_iterations);
  } catch (const locus::config_error& e) {
    out = e.what();
  }
  ::unsetenv("LOCUS_BENCH_LOOP_FIXED");
  return out;
}

TEST(bench_input, loop_fixed_is_parsed_like_every_locus_variable) {
  EXPECT_EQ(loop_fixed("3"), "ok 3");
  const unsigned def = locus::schedule::locality_loop_options{}.max_iterations;
  EXPECT_EQ(loop_fixed(""), "ok " + std::to_string(def));
  for (const char* bad : {"abc", "-1", "2x", "0", "1001", " 2"})
    EXPECT_EQ(loop_fixed(bad), "LOCUS_BENCH_LOOP_FIXED=\"" + std::string(bad) +
                                   "\" is not valid; expected an integer from 1 to 1000")
        << bad;
}

}  // namespace

#endif  // LOCUS_TEST_KERNELS
