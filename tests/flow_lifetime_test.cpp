// The lifetime of a cancelled task (docs/design/0010-dataflow.md, "Lifetime of a cancelled
// task"): a slot registered with an event keeps its task's node alive until the event
// notifies it, so a task cancelled through one input is not freed under its other inputs'
// waiter lists. And random graphs with throwing bodies and abandoned events, handles kept and
// dropped, at 1 to 16 workers: every run ends, wait() reports the failure, nothing leaks
// (ASan's leak check), nothing is touched after it was freed (ASan).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <stdexcept>
#include <vector>

#include "flow_support.hpp"

namespace df = locus::dataflow;
using flow_test::cfg;

namespace {

// Issue 23, defect 1: a two-input task with its handle dropped is cancelled when one input is
// abandoned; the other input's event still lists the task's slot. Before the fix the node was
// freed at the cancel: ASan reported the satisfy below (event.hpp's notify path), and a new
// task reusing the node (the pool's LIFO free list hands the same block back) was counted down
// by the old event, so it fired with one of its own inputs unsatisfied.
TEST(FlowLifetime, ACancelledTaskStaysAliveWhileAnotherInputStillListsIt) {
  locus::runtime rt(cfg(1));
  df::graph g(rt);
  df::event<int> b;
  std::atomic<int> ran{0};
  {
    std::optional<df::event<int>> a(std::in_place);
    auto t = g.task(2, [&](df::edt_args&) { ran.fetch_add(1); });
    add_dependence(*a, t, 0);
    add_dependence(b, t, 1);
    // t's handle goes first (as examples/task_graph.cpp does), then a's only producer: t can
    // never fire, it is cancelled.
    t = df::edt{};
    a.reset();
  }
  // A task of the same shape, made now, takes the block the cancelled node would have freed
  // (in another graph: the cancel failed g, whose later ready tasks are skipped).
  df::graph g2(rt);
  df::event<int> c, d;
  std::atomic<int> second_ran{0};
  auto t2 = g2.task(2, [&](df::edt_args& in) {
    EXPECT_EQ(in.get<int>(0) + in.get<int>(1), 7);
    second_ran.fetch_add(1);
  });
  add_dependence(c, t2, 0);
  add_dependence(d, t2, 1);
  b.satisfy(1);  // notifies the cancelled task's slot: must not touch anything else
  // t2's slots not yet notified (its handle keeps its node): with the cancelled node freed and
  // reused by t2, b's notification counted one of them.
  EXPECT_EQ(t2.node()->state.load(), 2U);
  c.satisfy(3);
  EXPECT_EQ(t2.node()->state.load(), 1U);
  d.satisfy(4);
  EXPECT_THROW(g.wait(), df::dataflow_error);  // the cancellation is reported
  g2.wait();
  EXPECT_EQ(ran.load(), 0);
  EXPECT_EQ(second_ran.load(), 1);
  EXPECT_EQ(g.pending(), 0);
}

// The same with the other orders: the surviving input fired before the cancel, or is dropped
// (abandoned) after it, or is an inlet satisfied or dropped after it.
TEST(FlowLifetime, EveryLateNotificationOfACancelledTaskIsSafe) {
  for (int variant = 0; variant < 4; ++variant) {
    locus::runtime rt(cfg(2));
    df::graph g(rt);
    std::atomic<int> ran{0};
    std::optional<df::event<int>> a(std::in_place), b(std::in_place);
    std::optional<df::inlet<int>> in;
    {
      auto t = g.task(3, [&] { ran.fetch_add(1); });
      add_dependence(*a, t, 0);
      add_dependence(*b, t, 1);
      in.emplace(t.inlet<int>(2));
    }
    if (variant == 0) b->satisfy(1);  // before the cancel
    a.reset();                        // abandons a: cancels the task
    if (variant == 1) b->satisfy(2);  // after it
    if (variant == 2) in->satisfy(5);
    b.reset();   // abandons b if it was not satisfied
    in.reset();  // abandons the inlet if it was not satisfied
    EXPECT_THROW(g.wait(), df::dataflow_error) << "variant " << variant;
    EXPECT_EQ(ran.load(), 0);
    EXPECT_EQ(g.pending(), 0);
  }
}

// A task cancelled through its inputs while a handle still has a slot unassigned: the handle's
// last drop counts that slot, so the node is freed then (ASan's leak check fails otherwise).
TEST(FlowLifetime, ACancelledTaskWithAnUnassignedSlotIsFreedWithItsLastHandle) {
  locus::runtime rt(cfg(1));
  df::graph g(rt);
  df::event<> keep;
  {
    auto t = g.task(3, [] {});
    {
      df::event<> a;
      add_dependence(a, t, 0);
      add_dependence(keep, t, 1);
    }  // a abandoned: t cancelled, slot 2 never assigned
    EXPECT_EQ(flow_test::error_of([&] { add_dependence(keep, t, 2); }),
              "locus::dataflow::add_dependence: the task was cancelled");
  }
  keep.satisfy();
  EXPECT_THROW(g.wait(), df::dataflow_error);
  EXPECT_EQ(g.pending(), 0);
}

void check_random_graph(unsigned workers, std::uint64_t seed, bool keep_handles,
                        unsigned throw_one_in) {
  const flow_test::failing_run r =
      flow_test::run_failing_graph(cfg(workers), seed, keep_handles, throw_one_in);
  EXPECT_TRUE(r.failed) << "seed " << seed;  // the graph always has a cancelled task
  // A task runs or is skipped at most once, and the cancelled one neither.
  EXPECT_LE(r.ran + r.skipped, r.tasks - 1) << "seed " << seed;
  EXPECT_EQ(r.pending_after, 0) << "seed " << seed;
}

TEST(FlowLifetime, RandomGraphsWithThrowsAndAbandonedEventsAtOneToSixteenWorkers) {
  for (unsigned workers : {1U, 2U, 4U, 16U})
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
      check_random_graph(workers, seed * 7919 + workers, seed % 2 == 0, 50);
      check_random_graph(workers, seed * 104729 + workers, seed % 2 == 1, 500);
    }
}

}  // namespace
