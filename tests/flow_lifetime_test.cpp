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

/// One random graph: `n` tasks, each reading up to three earlier tasks' events; a body throws
/// with probability 1/throw_one_in; each task's producer event is captured by its body (so a
/// throwing or cancelled task abandons it) and some events are dropped before they are
/// satisfied; handles kept in a vector or dropped at once.
void run_random_graph(unsigned workers, std::uint64_t seed, bool keep_handles,
                      unsigned throw_one_in) {
  locus::runtime rt(cfg(workers));
  std::mt19937_64 rng(seed);
  const std::uint32_t n = 400;
  const auto inputs = flow_test::random_inputs(n, 3, seed);
  std::vector<df::edt> kept;
  std::atomic<std::uint32_t> ran{0};
  bool expect_failure = false;
  {
    df::graph g(rt);
    std::vector<std::optional<df::event<std::uint64_t>>> out(n);
    for (auto& e : out)
      e.emplace();
    for (std::uint32_t i = 0; i < n; ++i) {
      const bool throws = rng() % throw_one_in == 0;
      expect_failure = expect_failure || throws;
      auto body = [&ran, i, throws, e = *out[i]](df::edt_args& in) mutable {
        std::uint64_t s = 0;
        for (std::uint32_t k = 0; k < in.size(); ++k)
          s += in.get<std::uint64_t>(k);
        ran.fetch_add(1, std::memory_order_relaxed);
        if (throws) throw std::runtime_error("a body threw");
        e.satisfy(flow_test::dag_value(i, s));
      };
      auto t = g.task(static_cast<std::uint32_t>(inputs[i].size()), std::move(body));
      for (std::uint32_t k = 0; k < inputs[i].size(); ++k)
        add_dependence(*out[inputs[i][k]], t, k);
      if (keep_handles) kept.push_back(std::move(t));
    }
    // Some events lose their last outside producer before their task ran: only the body's copy
    // is left, so a cancelled or throwing producer abandons them.
    for (std::uint32_t i = 0; i < n; ++i)
      out[i].reset();
    // An abandoned event of nobody: a task waits on an event whose only producer is dropped.
    {
      auto t = g.task(2, [] {});
      std::optional<df::event<std::uint64_t>> lone(std::in_place);
      df::event<std::uint64_t> late;
      add_dependence(*lone, t, 0);
      add_dependence(late, t, 1);
      if (keep_handles) kept.push_back(t);
      lone.reset();
      late.satisfy(1);  // a late notification of a cancelled task
      expect_failure = true;
    }
    bool failed = false;
    try {
      g.wait();
    } catch (const std::exception&) {
      failed = true;
    }
    EXPECT_EQ(failed, expect_failure) << "seed " << seed;
    EXPECT_LE(ran.load(), n);
  }
  kept.clear();  // the nodes the handles kept go now (after the graph object)
}

TEST(FlowLifetime, RandomGraphsWithThrowsAndAbandonedEventsAtOneToSixteenWorkers) {
  for (unsigned workers : {1U, 2U, 4U, 16U})
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
      run_random_graph(workers, seed * 7919 + workers, seed % 2 == 0, 50);
      run_random_graph(workers, seed * 104729 + workers, seed % 2 == 1, 500);
    }
}

}  // namespace
