// The runtime's worker bound names the input it came from (issue 23, item 7: "workers=65536 is
// not valid" named neither LOCUS_TOPOLOGY nor LOCUS_WORKERS when the count came from a large
// topology).
#include <gtest/gtest.h>
#include <locus/locus.hpp>

#include <string>

namespace {

std::string error_of(const locus::config& c) {
  try {
    locus::runtime rt(c);
  } catch (const locus::config_error& e) {
    return e.what();
  }
  return "no error";
}

TEST(runtime_limits, too_many_cores_without_a_worker_count_names_both_variables) {
  locus::config c;
  c.topology = "sockets=16,cores=512";
  EXPECT_EQ(error_of(c),
            "the topology \"sockets=16,cores=512\" (LOCUS_TOPOLOGY or config::topology) has 8192 "
            "cores and no worker count was set, so the runtime would have 8192 workers; a "
            "runtime has at most 4096: set LOCUS_WORKERS (or config::workers) to 1..4096");
  c.workers = 2;  // the fix the message names
  EXPECT_EQ(error_of(c), "no error");
}

TEST(runtime_limits, too_many_workers_names_the_worker_count) {
  locus::config c;
  c.topology = "cores=2";
  c.workers = 5000;
  EXPECT_EQ(error_of(c),
            "workers=5000 is not valid (config::workers or LOCUS_WORKERS); expected 1..4096");
}

}  // namespace
