// A graph's completion with the task counts batched per worker (credits and debt,
// docs/design/0010-dataflow.md): graphs that share workers, and graphs made and dropped in
// quick succession, each complete exactly when their tasks did.
#include <gtest/gtest.h>
#include <locus/dataflow.hpp>
#include <locus/locus.hpp>

#include <atomic>
#include <memory>
#include <vector>

#include "flow_support.hpp"

namespace df = locus::dataflow;
using flow_test::cfg;

class flow_counts : public ::testing::TestWithParam<unsigned> {};

// Two graphs whose tasks enable each other's: a worker's debt moves between the graphs, and
// each wait returns only when its own tasks all ran.
TEST_P(flow_counts, TwoGraphsThatFeedEachOtherBothComplete) {
  locus::runtime rt{cfg(GetParam())};
  constexpr int n = 2000;
  df::graph g1(rt), g2(rt);
  std::vector<df::event<>> e1(n + 1), e2(n + 1);
  std::atomic<int> ran1{0}, ran2{0};
  for (int i = 0; i < n; ++i) {
    // g1's task i waits for g2's event i and satisfies g1's event i + 1; and the other way.
    auto t1 = g1.task(1, [&ran1, out = e1[i + 1]]() mutable {
      ran1.fetch_add(1, std::memory_order_relaxed);
      out.satisfy();
    });
    df::add_dependence(e2[i], t1, 0);
    auto t2 = g2.task(1, [&ran2, out = e2[i + 1]]() mutable {
      ran2.fetch_add(1, std::memory_order_relaxed);
      out.satisfy();
    });
    df::add_dependence(e1[i], t2, 0);
  }
  e1[0].satisfy();
  e2[0].satisfy();
  g1.wait();
  EXPECT_EQ(ran1.load(), n);
  EXPECT_EQ(g1.pending(), 0);
  g2.wait();
  EXPECT_EQ(ran2.load(), n);
  EXPECT_EQ(g2.pending(), 0);
}

// Graphs made, run and destroyed one after another, each by a task that makes more tasks
// (credits), on workers that keep a debt between them: every wait returns with all of its
// graph's tasks done, and nothing of a destroyed graph is touched afterwards (ASan).
TEST_P(flow_counts, ManyShortLivedGraphsEachCompleteOnce) {
  locus::runtime rt{cfg(GetParam())};
  for (int round = 0; round < 300; ++round) {
    auto ran = std::make_shared<std::atomic<int>>(0);
    {
      df::graph g(rt);
      g.task(0, [&g, ran] {
        for (int k = 0; k < 20; ++k)
          g.task(0, [ran] { ran->fetch_add(1, std::memory_order_relaxed); });
        ran->fetch_add(1, std::memory_order_relaxed);
      });
      g.wait();
      ASSERT_EQ(ran->load(), 21) << "round " << round;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Workers, flow_counts, ::testing::Values(1U, 2U, 3U, 4U));
