// tests/bench_support.hpp — helpers shared by the tests of locus-bench (tests/bench_*_test.cpp).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "harness/cli.hpp"
#include "registry.hpp"

namespace bench {

/// Names a runtime in gtest's messages and ctest's test names instead of dumping its bytes.
inline void PrintTo(runtime_kind rt, std::ostream* os) {
  *os << to_string(rt);
}

}  // namespace bench

namespace bench_test {

/// Parses a command line with fixed defaults: runtimes serial and locus, workers 1 and 2,
/// 5 reps.
inline bench::options parse(std::vector<std::string> args) {
  bench::cli_defaults d;
  d.runtimes = {bench::runtime_kind::serial, bench::runtime_kind::locus};
  d.workers = {1, 2};
  d.reps = 5;
  return bench::parse_cli(args, d);
}

/// A serial implementation that "runs" in half a second and verifies.
inline bench::outcome fake_ok(const bench::args&) {
  return {0.5, true, "ok"};
}

/// A kernel for grid, schedule and report tests whose implementations the test chooses.
inline bench::kernel_info fake_kernel(bench::kernel_fn serial, bench::kernel_fn locus) {
  return bench::kernel_info{"fake", "fake", "1",     "2",    "test kernel",
                            serial, locus,  nullptr, nullptr};
}

}  // namespace bench_test
