// What a failure does to a graph, and what outlives a runtime (docs/design/0010-dataflow.md,
// "Failures" and "Lifetimes"): ready tasks after a failure are skipped and counted; a failure
// reaches wait() or co_await, or with nobody waiting, the error report on standard error; a
// satisfy after the runtime was destroyed skips the task it makes ready (issue 23, defect 2:
// it was a heap-use-after-free) and wait() then says why.
#include <gtest/gtest.h>

#include <atomic>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

#include "flow_support.hpp"

namespace df = locus::dataflow;
using flow_test::cfg;
using flow_test::error_of;

namespace {

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

TEST(FlowFailure, ReadyTasksAfterAFailureAreSkippedAndCounted) {
  locus::runtime rt(cfg(1));
  df::graph g(rt);
  std::atomic<int> ran{0};
  df::event<> go;
  constexpr int n = 50;
  auto bad = g.task(1, [] { throw std::runtime_error("boom"); });
  add_dependence(go, bad, 0);
  for (int i = 0; i < n; ++i) {
    auto t = g.task(1, [&] { ran.fetch_add(1); });
    add_dependence(go, t, 0);
  }
  go.satisfy();  // every task ready at once; one of them throws
  EXPECT_THROW(g.wait(), std::runtime_error);
  // Every ready task either ran or was skipped, and the graph says how many were skipped.
  EXPECT_EQ(ran.load() + g.skipped(), n);
  EXPECT_EQ(g.pending(), 0);
}

TEST(FlowFailure, AFailureNobodyWaitedForGoesToTheErrorReport) {
  testing::internal::CaptureStderr();
  {
    std::optional<locus::runtime> rt(std::in_place, cfg(2));
    df::output_event done;
    {
      df::graph g(*rt);
      auto t = g.task(0, [] { throw std::runtime_error("nobody waits for this"); });
      done = t.done();
    }  // the graph object goes; its state lives until the task finished
    while (!done.abandoned())
      std::this_thread::yield();
    rt.reset();  // joins the workers: the task's teardown (and the state's end) is over
  }
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_TRUE(contains(err,
                       "locus: a dataflow graph failed and no wait() or co_await reported "
                       "it: nobody waits for this"))
      << err;
}

TEST(FlowFailure, AFailureThatReachedWaitIsNotReportedAgain) {
  testing::internal::CaptureStderr();
  {
    locus::runtime rt(cfg(2));
    df::graph g(rt);
    g.task(0, [] { throw std::runtime_error("seen"); });
    EXPECT_THROW(g.wait(), std::runtime_error);
  }
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

TEST(FlowFailure, ASatisfyAfterTheRuntimeWasDestroyedSkipsTheTaskAndReportsIt) {
  df::event<int> e;
  df::inlet<long> in;
  df::output_event done_e, done_in;
  std::atomic<int> ran{0};
  testing::internal::CaptureStderr();
  {
    locus::runtime rt(cfg(2));
    df::graph g(rt);
    auto t = g.task(1, [&] { ran.fetch_add(1); });
    add_dependence(e, t, 0);
    done_e = t.done();
    auto u = g.task(1, [&] { ran.fetch_add(1); });
    in = u.inlet<long>(0);
    done_in = u.done();
  }  // the graph object, then the runtime, go first
  e.satisfy(1);
  in.satisfy(2);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(ran.load(), 0);
  EXPECT_TRUE(done_e.abandoned());
  EXPECT_TRUE(done_in.abandoned());
  EXPECT_TRUE(contains(err, "a task became ready after its runtime was destroyed; it was not run"))
      << err;
}

TEST(FlowFailure, AGraphThatOutlivesItsRuntimeSaysSo) {
  std::optional<locus::runtime> rt(std::in_place, cfg(2));
  df::graph g(*rt);
  df::event<> e;
  auto t = g.task(1, [] {});
  add_dependence(e, t, 0);
  rt.reset();
  // A task still waiting when the runtime went: wait() refuses rather than hang.
  EXPECT_TRUE(contains(error_of([&] { g.wait(); }),
                       "locus::dataflow::graph::wait: the graph's runtime was destroyed while 1 "
                       "of its tasks were unfinished"));
  e.satisfy();  // the task is skipped: the graph is done, failed
  EXPECT_EQ(error_of([&] { g.wait(); }),
            "locus::dataflow: a task became ready after its runtime was destroyed; it was not "
            "run");
  EXPECT_EQ(g.skipped(), 1);
  EXPECT_EQ(g.pending(), 0);
  // A task made after the runtime went is skipped at once.
  g.task(0, [] { ADD_FAILURE() << "ran after its runtime was destroyed"; });
  EXPECT_EQ(g.skipped(), 2);
}

}  // namespace
