// Inlets (edt::inlet<T>): a slot fed directly with a small value, no event object. Values
// arrive, random DAGs built on inlets alone run every task once after its inputs at 1-4
// workers, fib through inlets, every misuse, a dropped inlet cancels its task, exceptions.
#include <gtest/gtest.h>
#include <locus/dataflow.hpp>
#include <locus/locus.hpp>

#include "flow_support.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace df = locus::dataflow;

namespace {

using flow_test::cfg;
using flow_test::error_of;

static_assert(df::detail::fits_inlet<std::int64_t>);
static_assert(df::detail::fits_inlet<double>);
static_assert(df::detail::fits_inlet<const char*>);
static_assert(!df::detail::fits_inlet<std::string>);                // not trivially copyable
static_assert(!df::detail::fits_inlet<std::pair<double, double>>);  // 16 bytes

struct small_pair {
  std::int32_t a, b;
};
static_assert(df::detail::fits_inlet<small_pair>);

}  // namespace

TEST(FlowInlet, ValuesArriveInTheirSlotsNextToEvents) {
  for (unsigned w = 1; w <= 3; ++w) {
    locus::runtime rt{cfg(w)};
    df::graph g(rt);
    std::int64_t a = 0;
    double b = 0;
    small_pair c{};
    int d = 0;
    auto t = g.task(4, [&](df::edt_args& in) {
      a = in.get<std::int64_t>(0);
      b = in.get<double>(1);
      c = in.get<small_pair>(2);
      d = in.get<int>(3);
    });
    auto i0 = t.inlet<std::int64_t>(0);
    auto i1 = t.inlet<double>(1);
    auto i2 = t.inlet<small_pair>(2);
    df::event<int> e;
    df::add_dependence(e, t, 3);
    t = df::edt{};  // the inlets and the event keep the task going
    EXPECT_TRUE(i0.valid());
    // From another thread, from a task of the runtime, and from here.
    std::thread th([&i0] { i0.satisfy(-(std::int64_t{1} << 40)); });
    th.join();
    EXPECT_FALSE(i0.valid());
    rt.run([](df::inlet<double> i) -> locus::task<void> {
      i.satisfy(2.5);
      co_return;
    }(std::move(i1)));
    i2.satisfy({7, -8});
    EXPECT_EQ(g.pending(), 1);  // the event is still missing
    e.satisfy(9);
    g.wait();
    EXPECT_EQ(a, -(std::int64_t{1} << 40));
    EXPECT_EQ(b, 2.5);
    EXPECT_EQ(c.a, 7);
    EXPECT_EQ(c.b, -8);
    EXPECT_EQ(d, 9);
  }
}

namespace {

/// A random DAG (task i reads up to `fan` earlier tasks) built on inlets only: slot 0 of every
/// task is a start inlet the builder satisfies once every edge exists; slot k + 1 is fed by
/// predecessor in[i][k], which holds the inlet and satisfies it from its body.
struct inlet_dag {
  std::vector<std::vector<std::uint32_t>> in;
  std::vector<std::vector<std::pair<std::uint32_t, df::inlet<std::uint64_t>>>> outs;
  std::vector<std::uint64_t> got;
  std::unique_ptr<std::atomic<int>[]> runs;
  std::atomic<long> bad_order{0};

  inlet_dag(std::uint32_t n, unsigned fan, std::uint64_t seed)
      : in(flow_test::random_inputs(n, fan, seed)), outs(n), got(n), runs(new std::atomic<int>[n]) {
    for (std::uint32_t i = 0; i < n; ++i)
      runs[i].store(0);
  }
  [[nodiscard]] std::uint64_t value(std::uint32_t i, std::uint64_t s) const {
    return flow_test::dag_value(i, s);
  }
  [[nodiscard]] std::vector<std::uint64_t> serial() const { return flow_test::serial_values(in); }

  void build_and_start(df::graph& g, std::uint64_t seed) {
    const auto n = static_cast<std::uint32_t>(in.size());
    std::vector<std::uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0U);
    std::mt19937_64 rng(seed);
    std::shuffle(order.begin(), order.end(), rng);
    std::vector<df::inlet<int>> start(n);
    for (std::uint32_t i : order) {
      const auto slots = static_cast<std::uint32_t>(in[i].size() + 1);
      df::edt t = g.task(slots, [this, i](df::edt_args& a) {
        EXPECT_EQ(a.get<int>(0), 1);
        std::uint64_t s = 0;
        for (std::uint32_t k = 0; k + 1 < a.size(); ++k) {
          if (runs[in[i][k]].load(std::memory_order_relaxed) != 1) bad_order.fetch_add(1);
          s += a.get<std::uint64_t>(k + 1);
        }
        runs[i].fetch_add(1, std::memory_order_relaxed);
        got[i] = value(i, s);
        for (auto& [succ, inl] : outs[i])
          inl.satisfy(got[i]);
      });
      start[i] = t.inlet<int>(0);
      for (std::uint32_t k = 0; k < in[i].size(); ++k)
        outs[in[i][k]].emplace_back(i, t.inlet<std::uint64_t>(k + 1));
    }
    std::shuffle(order.begin(), order.end(), rng);
    for (std::uint32_t i : order)
      start[i].satisfy(1);
  }

  void check() const {
    EXPECT_EQ(bad_order.load(), 0);
    for (std::size_t i = 0; i < in.size(); ++i)
      ASSERT_EQ(runs[i].load(), 1) << "task " << i;
    EXPECT_EQ(got, serial());
  }
};

}  // namespace

class flow_inlet_dag : public ::testing::TestWithParam<unsigned> {};

TEST_P(flow_inlet_dag, EveryTaskOnceAfterItsInputs) {
  const unsigned w = GetParam();
  inlet_dag d(10000, 4, 29 + w);
  locus::runtime rt{cfg(w)};
  df::graph g(rt);
  d.build_and_start(g, 5 * w);
  g.wait();
  EXPECT_EQ(g.pending(), 0);
  d.check();
}

TEST_P(flow_inlet_dag, StartedFromInsideATask) {
  const unsigned w = GetParam();
  inlet_dag d(5000, 3, 71 + w);
  locus::runtime rt{cfg(w)};
  df::graph g(rt);
  rt.run([](df::graph& g, inlet_dag& d, unsigned w) -> locus::task<void> {
    d.build_and_start(g, w);
    co_await g;
  }(g, d, w));
  d.check();
}

INSTANTIATE_TEST_SUITE_P(Workers, flow_inlet_dag, ::testing::Values(1U, 2U, 3U, 4U));

namespace {
/// fib(n) as the benchmark builds it (bench/kernels/fib/locus.cpp): an adder per n >= 2 fed by
/// two inlets, fib(n-2) a task of its own.
struct fib_graph {
  df::graph& g;
  void make(int n, df::inlet<std::int64_t> out) {
    while (n >= 2) {
      df::edt add = g.task(2, [out = std::move(out)](df::edt_args& in) mutable {
        out.satisfy(in.get<std::int64_t>(0) + in.get<std::int64_t>(1));
      });
      df::inlet<std::int64_t> x = add.inlet<std::int64_t>(0);
      g.task(0, [this, n, y = add.inlet<std::int64_t>(1)]() mutable { make(n - 2, std::move(y)); });
      out = std::move(x);
      --n;
    }
    out.satisfy(n);
  }
};
}  // namespace

TEST(FlowInlet, FibThroughInletsAtOneToFourWorkers) {
  for (unsigned w = 1; w <= 4; ++w) {
    locus::runtime rt{cfg(w)};
    df::graph g(rt);
    fib_graph fg{g};
    std::int64_t result = -1;
    df::edt last = g.task(1, [&result](df::edt_args& in) { result = in.get<std::int64_t>(0); });
    g.task(0, [&fg, r = last.inlet<std::int64_t>(0)]() mutable { fg.make(20, std::move(r)); });
    g.wait();
    EXPECT_EQ(result, 6765) << w << " workers";
  }
}

TEST(FlowInlet, MisuseIsReportedInEveryBuild) {
  locus::runtime rt{cfg(2)};
  df::graph g(rt);
  df::event<int> e;
  auto t = g.task(2, [](df::edt_args&) {});
  std::string msg = error_of([&] { (void)t.inlet<int>(2); });
  EXPECT_NE(msg.find("out of range"), std::string::npos) << msg;
  EXPECT_NE(msg.find("edt::inlet"), std::string::npos) << msg;
  df::add_dependence(e, t, 0);
  msg = error_of([&] { (void)t.inlet<int>(0); });  // the slot waits on an event
  EXPECT_NE(msg.find("already has a dependence"), std::string::npos) << msg;
  df::inlet<int> in1 = t.inlet<int>(1);
  msg = error_of([&] { df::add_dependence(e, t, 1); });  // the slot has an inlet
  EXPECT_NE(msg.find("already has a dependence"), std::string::npos) << msg;
  msg = error_of([&] { (void)t.inlet<int>(1); });
  EXPECT_NE(msg.find("already has a dependence"), std::string::npos) << msg;
  in1.satisfy(1);
  msg = error_of([&] { in1.satisfy(2); });  // single assignment: the handle is spent
  EXPECT_NE(msg.find("satisfied once"), std::string::npos) << msg;
  df::inlet<int> moved_from = std::move(in1);
  msg = error_of([&] { moved_from.satisfy(3); });
  EXPECT_NE(msg.find("empty"), std::string::npos) << msg;
  e.satisfy(0);
  g.wait();
  msg = error_of([&] { (void)t.inlet<int>(0); });  // t fired long ago
  EXPECT_NE(msg.find("already fired"), std::string::npos) << msg;
  msg = error_of([&] { (void)df::edt{}.inlet<int>(0); });
  EXPECT_NE(msg.find("empty task handle"), std::string::npos) << msg;
}

TEST(FlowInlet, ReadingAnInletSlotAsAnotherTypeOrAsADatablockFails) {
  locus::runtime rt{cfg(2)};
  df::graph g(rt);
  std::vector<std::string> msgs;
  std::int64_t ok = 0;
  auto t = g.task(1, [&](df::edt_args& in) {
    msgs.push_back(error_of([&] { (void)in.get<double>(0); }));       // another inlet type
    msgs.push_back(error_of([&] { (void)in.get<std::string>(0); }));  // never an inlet type
    msgs.push_back(error_of([&] { (void)in.read<std::byte>(0); }));   // not a datablock
    msgs.push_back(error_of([&] { (void)in.write<std::byte>(0); }));  // not a datablock
    ok = in.get<std::int64_t>(0);
    in.release(0);
    msgs.push_back(error_of([&] { (void)in.get<std::int64_t>(0); }));  // after release
  });
  t.inlet<std::int64_t>(0).satisfy(42);
  g.wait();
  EXPECT_EQ(ok, 42);
  ASSERT_EQ(msgs.size(), 5U);
  for (int i = 0; i < 4; ++i)
    EXPECT_NE(msgs[i].find("type"), std::string::npos) << msgs[i];
  EXPECT_NE(msgs[4].find("released"), std::string::npos) << msgs[4];
}

TEST(FlowInlet, ADroppedInletCancelsItsTaskAndTheGraphSaysSo) {
  locus::runtime rt{cfg(2)};
  df::graph g(rt);
  bool ran = false;
  {
    auto t = g.task(2, [&ran] { ran = true; });
    auto a = t.inlet<int>(0);
    auto b = t.inlet<int>(1);
    a.satisfy(1);
  }  // b goes unsatisfied
  EXPECT_EQ(g.pending(), 0);
  const std::string msg = error_of([&] { g.wait(); });
  EXPECT_NE(msg.find("inlet was destroyed"), std::string::npos) << msg;
  EXPECT_FALSE(ran);
}

TEST(FlowInlet, MoveAssigningOverALiveInletAbandonsIt) {
  locus::runtime rt{cfg(1)};
  df::graph g(rt);
  int ran = 0;
  auto t1 = g.task(1, [&ran] { ran += 1; });
  auto t2 = g.task(1, [&ran] { ran += 10; });
  df::inlet<int> x = t1.inlet<int>(0);
  x = t2.inlet<int>(0);  // t1's inlet is gone: t1 can never run
  df::inlet<int>& same = x;
  x = std::move(same);  // self-move keeps the inlet
  EXPECT_TRUE(x.valid());
  x.satisfy(5);
  const std::string msg = error_of([&] { g.wait(); });
  EXPECT_NE(msg.find("cancelled"), std::string::npos) << msg;
  // t1's cancellation failed the graph before t2 became ready, so t2 was skipped (graph.hpp:
  // after a failure, tasks that become ready do not run).
  EXPECT_EQ(ran, 0);
  EXPECT_EQ(g.pending(), 0);
}

TEST(FlowInlet, AnExceptionInABodyThatHoldsInletsReachesTheWaiter) {
  for (unsigned w = 1; w <= 2; ++w) {
    locus::runtime rt{cfg(w)};
    df::graph g(rt);
    std::atomic<int> ran{0};
    auto after = g.task(1, [&ran] { ran.fetch_add(1); });
    g.task(0, [out = after.inlet<int>(0)]() mutable {
      throw std::runtime_error("body failed");  // `out` is destroyed unsatisfied
    });
    after = df::edt{};
    try {
      g.wait();
      ADD_FAILURE() << "wait() returned normally";
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "body failed");  // the first exception, not the cancellation
    }
    EXPECT_EQ(ran.load(), 0);
    EXPECT_EQ(g.pending(), 0);
  }
}

TEST(FlowInlet, ACoroutineBodyReadsInletsAndFeedsOthersAfterASpawn) {
  locus::runtime rt{cfg(2)};
  df::graph g(rt);
  std::int64_t result = 0;
  auto sink = g.task(1, [&result](df::edt_args& in) { result = in.get<std::int64_t>(0); });
  auto mid =
      g.task(2, [out = sink.inlet<std::int64_t>(0)](df::edt_args& in) mutable -> locus::task<void> {
        const std::int64_t a = in.get<std::int64_t>(0), b = in.get<std::int64_t>(1);
        auto twice = co_await locus::spawn(
            [](std::int64_t v) -> locus::task<std::int64_t> { co_return 2 * v; }(a + b));
        co_await locus::sync();
        out.satisfy(twice.get());
      });
  auto i0 = mid.inlet<std::int64_t>(0);
  auto i1 = mid.inlet<std::int64_t>(1);
  i1.satisfy(30);
  i0.satisfy(12);
  g.wait();
  EXPECT_EQ(result, 84);
}
