// main of locus-mpi-tests: one context and one runtime per rank for every test. Run it under
// mpirun (ctest does: -np 2 and -np 4 --oversubscribe). Every rank runs every test in the same
// order, so the tests may use collectives.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "mpi_support.hpp"

namespace locus_mpi_test {
namespace {
std::unique_ptr<locus::mpi::context> g_ctx;
std::unique_ptr<locus::runtime> g_rt;
}  // namespace
locus::mpi::context& ctx() {
  return *g_ctx;
}
locus::runtime& rt() {
  return *g_rt;
}

/// Prints a failed assertion, and the test it failed in, on a rank other than 0. The test's
/// name is kept from OnTestStart: asking UnitTest::current_test_info() here deadlocks (gtest
/// holds its mutex while it reports a part result).
class failure_printer final : public ::testing::EmptyTestEventListener {
 public:
  explicit failure_printer(int rank) : m_rank(rank) {}
  void OnTestStart(const ::testing::TestInfo& t) override {
    m_test = std::string(t.test_suite_name()) + "." + t.name();
  }
  void OnTestPartResult(const ::testing::TestPartResult& r) override {
    if (!r.failed()) return;
    std::fprintf(stderr, "rank %d: %s: %s:%d: Failure\n%s\n", m_rank, m_test.c_str(),
                 r.file_name() != nullptr ? r.file_name() : "?", r.line_number(), r.message());
  }

 private:
  int m_rank;
  std::string m_test = "?";
};
}  // namespace locus_mpi_test

int main(int argc, char** argv) {
  using namespace locus_mpi_test;
  // LOCUS_MPI_DIRECT=0: every operation through the communication worker (options::direct).
  locus::mpi::options o;
  if (const char* d = std::getenv("LOCUS_MPI_DIRECT"); d != nullptr && std::string(d) == "0")
    o.direct = false;
  g_ctx = std::make_unique<locus::mpi::context>(argc, argv, o);
  ::testing::InitGoogleTest(&argc, argv);
  // Several ranks share the machine: unpinned workers (pinned ones would all sit on core 0).
  locus::config cfg = locus::config::from_env();
  cfg.pin = false;
  if (cfg.workers == 0) cfg.workers = 2;
  g_rt = std::make_unique<locus::runtime>(cfg);
  if (g_ctx->rank() != 0) {
    // Only rank 0 prints gtest's progress; a failure on another rank still prints (below, with
    // its rank: removing the default printer alone hid it, and the job only said that a rank
    // exited with 1) and fails.
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new failure_printer(g_ctx->rank()));
  }
  const int rc = RUN_ALL_TESTS();
  g_rt.reset();
  g_ctx.reset();
  return rc;
}
