// Cycles of output-event dependences (edt::done()) caught at add_dependence time: a task on its
// own output, rings, edges that close a cycle among ones that do not, and cycle checks from
// several workers at once. The output events themselves are in flow_output_test.cpp.
#include <gtest/gtest.h>
#include <locus/dataflow.hpp>
#include <locus/locus.hpp>

#include "flow_support.hpp"

#include <atomic>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace df = locus::dataflow;

namespace {

using flow_test::cfg;
using flow_test::error_of;

bool is_cycle_error(const std::string& msg) {
  return msg.find("would make a cycle") != std::string::npos;
}

}  // namespace

class flow_cycle : public ::testing::TestWithParam<unsigned> {};

TEST(FlowCycle, SelfDependenceThrowsAndChangesNothing) {
  locus::runtime rt{cfg(2)};
  df::graph g(rt);
  bool ran = false;
  auto t = g.task(2, [&ran] { ran = true; });
  df::event<> e;
  df::add_dependence(e, t, 0);
  const std::string msg = error_of([&] { df::add_dependence(t.done(), t, 1); });
  EXPECT_TRUE(is_cycle_error(msg)) << msg;
  EXPECT_NE(msg.find("own output event"), std::string::npos) << msg;
  // Slot 1 is still free: a good dependence takes it, and the task runs.
  df::event<> f;
  df::add_dependence(f, t, 1);
  e.satisfy();
  f.satisfy();
  g.wait();
  EXPECT_TRUE(ran);
  EXPECT_TRUE(t.done().satisfied());
}

/// A ring of k tasks: i waits (slot 0) for i-1's output event; the edge closing the ring
/// (0 waits for k-1) throws, and the graph then completes with slot 0 of task 0 on an event.
void ring(unsigned k, unsigned workers) {
  locus::runtime rt{cfg(workers)};
  df::graph g(rt);
  std::vector<int> order;
  std::vector<df::edt> t;
  for (unsigned i = 0; i < k; ++i)
    t.push_back(g.task(1, [&order, i] { order.push_back(static_cast<int>(i)); }));
  for (unsigned i = 1; i < k; ++i)
    df::add_dependence(t[i - 1].done(), t[i], 0);
  const std::string msg = error_of([&] { df::add_dependence(t[k - 1].done(), t[0], 0); });
  EXPECT_TRUE(is_cycle_error(msg)) << msg;
  EXPECT_NE(msg.find("through " + std::to_string(k - 1) + " output-event dependence"),
            std::string::npos)
      << msg;
  // A second try throws the same (nothing was recorded), and no slot was taken.
  EXPECT_TRUE(is_cycle_error(error_of([&] { df::add_dependence(t[k - 1].done(), t[0], 0); })));
  EXPECT_EQ(g.pending(), static_cast<std::int64_t>(k));
  df::event<> start;
  df::add_dependence(start, t[0], 0);
  start.satisfy();
  g.wait();
  std::vector<int> want(k);
  std::iota(want.begin(), want.end(), 0);
  EXPECT_EQ(order, want);
  EXPECT_EQ(g.pending(), 0);
}

TEST_P(flow_cycle, TwoCycleThrowsAndTheGraphStaysUsable) {
  ring(2, GetParam());
}

TEST_P(flow_cycle, FiveCycleThrowsAndTheGraphStaysUsable) {
  ring(5, GetParam());
}

// A diamond plus a side branch: only edges that close a cycle are refused.
TEST(FlowCycle, OnlyEdgesThatCloseACycleAreRefused) {
  locus::runtime rt{cfg(2)};
  df::graph g(rt);
  std::atomic<int> runs{0};
  auto body = [&runs] { runs.fetch_add(1); };
  auto a = g.task(1, body), b = g.task(1, body), c = g.task(1, body), d = g.task(3, body),
       e = g.task(1, body);
  df::event<> go;
  df::add_dependence(go, a, 0);
  df::add_dependence(a.done(), b, 0);
  df::add_dependence(a.done(), c, 0);
  df::add_dependence(b.done(), d, 0);
  df::add_dependence(c.done(), d, 1);
  EXPECT_TRUE(is_cycle_error(error_of([&] { df::add_dependence(d.done(), a, 0); })));
  EXPECT_TRUE(is_cycle_error(error_of([&] { df::add_dependence(d.done(), e, 0); })) == false);
  EXPECT_TRUE(is_cycle_error(error_of([&] { df::add_dependence(e.done(), b, 0); })));
  df::add_dependence(b.done(), d, 2);  // a second edge b -> d is no cycle
  go.satisfy();
  g.wait();
  EXPECT_EQ(runs.load(), 5);
}
// Cycle checks from several workers at once against a fixed chain: every back edge is refused.
TEST_P(flow_cycle, ConcurrentCycleChecks) {
  const unsigned w = GetParam();
  locus::runtime rt{cfg(w)};
  df::graph g(rt);
  constexpr std::uint32_t n = 2000;
  std::atomic<std::uint32_t> count{0};
  std::vector<df::edt> t;
  df::event<> go;
  for (std::uint32_t i = 0; i < n; ++i)
    t.push_back(g.task(1, [&count] { count.fetch_add(1, std::memory_order_relaxed); }));
  df::add_dependence(go, t[0], 0);
  for (std::uint32_t i = 1; i < n; ++i)
    df::add_dependence(t[i - 1].done(), t[i], 0);
  std::atomic<int> refused{0};
  rt.run([](std::vector<df::edt>& t, std::atomic<int>& refused) -> locus::task<void> {
    for (std::uint32_t p = 0; p < 8; ++p)
      co_await locus::spawn([](std::vector<df::edt>& t, std::uint32_t p,
                               std::atomic<int>& refused) -> locus::task<void> {
        std::mt19937 rng(p);
        for (int k = 0; k < 50; ++k) {
          const std::uint32_t j = 1 + rng() % (n - 1), i = rng() % j;
          // i waits for j, which already waits for i: refused before the slot (already
          // taken) is looked at.
          const std::string msg = error_of([&] { df::add_dependence(t[j].done(), t[i], 0); });
          if (msg.find("would make a cycle") != std::string::npos) refused.fetch_add(1);
        }
        co_return;
      }(t, p, refused));
    co_await locus::sync();
  }(t, refused));
  EXPECT_EQ(refused.load(), 8 * 50);
  go.satisfy();
  g.wait();
  EXPECT_EQ(count.load(), n);
}

INSTANTIATE_TEST_SUITE_P(Workers, flow_cycle, ::testing::Values(1U, 2U, 3U, 4U));
