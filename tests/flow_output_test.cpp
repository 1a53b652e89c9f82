// Output events (edt::done()): fired after the body, abandoned when the task cannot run, long
// chains and wide fan-outs through them. Cycles of output-event dependences are in
// flow_cycle_test.cpp.
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
#include <vector>

namespace df = locus::dataflow;

namespace {

using flow_test::cfg;
using flow_test::error_of;
using flow_test::mix;

/// What wait() rethrows, or "no error".
std::string wait_error(df::graph& g) {
  try {
    g.wait();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "no error";
}

bool is_cycle_error(const std::string& msg) {
  return msg.find("would make a cycle") != std::string::npos;
}

}  // namespace

class flow_output : public ::testing::TestWithParam<unsigned> {};

TEST_P(flow_output, DoneFiresAfterAPlainBodyAndPublishesItsWrites) {
  locus::runtime rt{cfg(GetParam())};
  df::graph g(rt);
  for (int round = 0; round < 200; ++round) {
    std::vector<long> data(64, 0);
    long seen = -1;
    df::event<> go;
    auto a = g.task(1, [&data] {
      for (std::size_t i = 0; i < data.size(); ++i)
        data[i] = static_cast<long>(i) + 1;  // plain writes, published by done()
    });
    auto b = g.task(1, [&data, &seen] { seen = std::accumulate(data.begin(), data.end(), 0L); });
    df::add_dependence(go, a, 0);
    df::output_event d = a.done();
    EXPECT_FALSE(d.satisfied());
    df::add_dependence(d, b, 0);
    go.satisfy();
    g.wait();
    EXPECT_TRUE(d.satisfied());
    EXPECT_TRUE(a.done().satisfied());  // the same event
    ASSERT_EQ(seen, 64L * 65 / 2) << "round " << round;
  }
}

TEST_P(flow_output, DoneFiresWhenACoroutineBodyCompleted) {
  locus::runtime rt{cfg(GetParam())};
  df::graph g(rt);
  df::event<int> later;
  std::atomic<int> stage{0};
  long result = 0;
  auto a = g.task(0, [&]() -> locus::task<void> {
    stage = 1;
    const int v = co_await later;  // suspends: done() must not fire here
    auto x = co_await locus::spawn([](int v) -> locus::task<long> { co_return v * 2L; }(v));
    co_await locus::sync();
    result = x.get();
    stage = 2;
  });
  std::atomic<int> stage_seen{-1};
  long result_seen = 0;
  auto b = g.task(1, [&] {
    stage_seen = stage.load();
    result_seen = result;
  });
  df::add_dependence(a.done(), b, 0);
  while (stage.load() != 1) {
  }
  EXPECT_FALSE(a.done().satisfied());
  later.satisfy(21);
  g.wait();
  EXPECT_EQ(stage_seen.load(), 2);
  EXPECT_EQ(result_seen, 42);
}

TEST_P(flow_output, CoAwaitDoneInATask) {
  locus::runtime rt{cfg(GetParam())};
  df::graph g(rt);
  std::atomic<long> x{0};
  df::event<> go;
  auto a = g.task(1, [&x] { x = 7; });
  df::add_dependence(go, a, 0);
  df::output_event d = a.done();
  const long got =
      rt.run([](df::output_event d, df::event<> go, std::atomic<long>& x) -> locus::task<long> {
        go.satisfy();
        co_await d;
        co_return x.load(std::memory_order_relaxed) * 6;
      }(d, go, x));
  EXPECT_EQ(got, 42);
  g.wait();
}

TEST(FlowOutput, DoneAfterTheTaskFinishedIsFiredOrAbandoned) {
  locus::runtime rt{cfg(2)};
  df::graph g(rt);
  auto a = g.task(0, [] {});
  g.wait();
  df::output_event d = a.done();  // no record was made: a fresh, fired event
  EXPECT_TRUE(d.satisfied());
  bool ran = false;
  auto b = g.task(1, [&ran] { ran = true; });
  df::add_dependence(d, b, 0);  // already fired: the slot is satisfied at once
  g.wait();
  EXPECT_TRUE(ran);

  auto bad = g.task(0, [] { throw std::runtime_error("boom"); });
  EXPECT_EQ(wait_error(g), "boom");
  EXPECT_TRUE(bad.done().abandoned());
}

TEST(FlowOutput, LongForwardChainThroughDone) {
  // 10^5 tasks, each waiting for the previous one's output event, built forward: each check
  // starts from a new task (no successors), so the build is linear.
  constexpr unsigned n = 100000;
  locus::runtime rt{cfg(2)};
  df::graph g(rt);
  std::vector<unsigned> seen;
  seen.reserve(n);
  df::event<> go;
  df::edt prev = g.task(1, [&seen] { seen.push_back(0); });
  df::add_dependence(go, prev, 0);
  for (unsigned i = 1; i < n; ++i) {
    df::edt t = g.task(1, [&seen, i] { seen.push_back(i); });
    df::add_dependence(prev.done(), t, 0);
    prev = std::move(t);
  }
  go.satisfy();
  g.wait();
  ASSERT_EQ(seen.size(), n);
  for (unsigned i = 0; i < n; ++i)
    ASSERT_EQ(seen[i], i);
}

TEST(FlowOutput, LongChainBuiltWhileItRuns) {
  // The same, started first: the early tasks finish (and leave the structure) while later
  // edges are added.
  constexpr unsigned n = 100000;
  locus::runtime rt{cfg(2)};
  df::graph g(rt);
  std::atomic<unsigned> count{0};
  df::edt prev = g.task(0, [&count] { count.fetch_add(1, std::memory_order_relaxed); });
  for (unsigned i = 1; i < n; ++i) {
    df::edt t = g.task(1, [&count] { count.fetch_add(1, std::memory_order_relaxed); });
    df::add_dependence(prev.done(), t, 0);
    prev = std::move(t);
  }
  g.wait();
  EXPECT_EQ(count.load(), n);
}

TEST(FlowOutput, WideFanOutThroughOneDone) {
  constexpr int n = 20000;
  locus::runtime rt{cfg(2)};
  df::graph g(rt);
  std::atomic<int> after{0};
  int value = 0;
  df::event<> go;
  auto head = g.task(1, [&value] { value = 5; });
  df::add_dependence(go, head, 0);
  df::output_event d = head.done();
  for (int i = 0; i < n; ++i) {
    auto t = g.task(1, [&after, &value] {
      if (value == 5) after.fetch_add(1, std::memory_order_relaxed);
    });
    df::add_dependence(d, t, 0);
  }
  go.satisfy();
  g.wait();
  EXPECT_EQ(after.load(), n);
}

// done() called while the task may be finishing (a task with no slot runs at once): either the
// record is seen by the finisher, or done() sees the finished state; dependents run either way.
TEST_P(flow_output, DoneRacesWithTheFinish) {
  locus::runtime rt{cfg(GetParam())};
  df::graph g(rt);
  std::atomic<int> ran{0};
  for (int i = 0; i < 2000; ++i) {
    auto a = g.task(0, [&ran] { ran.fetch_add(1, std::memory_order_relaxed); });
    auto b = g.task(1, [&ran] { ran.fetch_add(1, std::memory_order_relaxed); });
    df::add_dependence(a.done(), b, 0);
  }
  g.wait();
  EXPECT_EQ(ran.load(), 4000);
}

TEST_P(flow_output, ACancelledTasksDoneCancelsItsDependents) {
  locus::runtime rt{cfg(GetParam())};
  df::graph g(rt);
  std::atomic<int> ran{0};
  df::output_event head_done;
  {
    auto e = std::make_unique<df::event<>>();
    auto head = g.task(1, [&ran] { ran.fetch_add(1); });
    df::add_dependence(*e, head, 0);
    head_done = head.done();
    // A chain of 1000 and a fan of 10 behind head, all through output events.
    df::edt prev = head;
    for (int i = 0; i < 1000; ++i) {
      auto t = g.task(1, [&ran] { ran.fetch_add(1); });
      df::add_dependence(prev.done(), t, 0);
      prev = t;
    }
    for (int i = 0; i < 10; ++i) {
      auto t = g.task(2, [&ran] { ran.fetch_add(1); });
      df::add_dependence(head.done(), t, 0);
      df::add_dependence(prev.done(), t, 1);
    }
    e.reset();  // head's input is abandoned: head is cancelled, then everything behind it
  }
  const std::string msg = wait_error(g);
  EXPECT_NE(msg.find("cancelled"), std::string::npos) << msg;
  EXPECT_EQ(ran.load(), 0);
  EXPECT_EQ(g.pending(), 0);
  EXPECT_TRUE(head_done.abandoned());
}

TEST_P(flow_output, ASkippedOrFailedTasksDoneCancelsItsDependents) {
  locus::runtime rt{cfg(GetParam())};
  df::graph g(rt);
  std::atomic<int> ran{0};
  df::event<> late;
  auto bad = g.task(0, [] { throw std::runtime_error("first"); });
  auto after_bad = g.task(1, [&ran] { ran.fetch_add(1); });
  df::add_dependence(bad.done(), after_bad, 0);
  auto skipped = g.task(1, [&ran] { ran.fetch_add(1); });
  df::add_dependence(late, skipped, 0);
  auto after_skipped = g.task(1, [&ran] { ran.fetch_add(1); });
  df::add_dependence(skipped.done(), after_skipped, 0);
  EXPECT_EQ(wait_error(g), "first");
  EXPECT_TRUE(bad.done().abandoned());
  late.satisfy();  // skipped (the graph failed): its done() is abandoned
  EXPECT_EQ(wait_error(g), "first");
  EXPECT_TRUE(skipped.done().abandoned());
  EXPECT_EQ(ran.load(), 0);
  EXPECT_EQ(g.pending(), 0);
}

/// A random DAG whose edges are output events: task i reads its inputs' values (written by
/// their bodies, ordered by done()).
struct done_dag {
  std::vector<std::vector<std::uint32_t>> in;
  std::vector<std::uint64_t> v;
  std::unique_ptr<std::atomic<int>[]> runs;
  std::atomic<long> bad_order{0};

  done_dag(std::uint32_t n, unsigned fan, std::uint64_t seed)
      : in(flow_test::random_inputs(n, fan, seed)), v(n), runs(new std::atomic<int>[n]) {
    for (std::uint32_t i = 0; i < n; ++i)
      runs[i].store(0);
  }
  [[nodiscard]] std::vector<std::uint64_t> serial() const { return flow_test::serial_values(in); }
  void body(std::uint32_t i) {
    std::uint64_t sum = 0;
    for (std::uint32_t j : in[i]) {
      if (runs[j].load(std::memory_order_relaxed) != 1) bad_order.fetch_add(1);
      sum += v[j];
    }
    v[i] = mix(sum * 31 + i + 1);
    runs[i].fetch_add(1, std::memory_order_relaxed);
  }
  std::vector<df::edt> make(df::graph& g) {
    std::vector<df::edt> t(in.size());
    for (std::uint32_t i = 0; i < in.size(); ++i)
      t[i] = g.task(static_cast<std::uint32_t>(in[i].size()), [this, i] { body(i); });
    return t;
  }
  /// (task, slot) pairs, shuffled: edges are added in any order, so checks start from tasks
  /// that already have successors.
  [[nodiscard]] std::vector<std::pair<std::uint32_t, std::uint32_t>> edges(
      std::uint64_t seed) const {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> e;
    for (std::uint32_t i = 0; i < in.size(); ++i)
      for (std::uint32_t k = 0; k < in[i].size(); ++k)
        e.emplace_back(i, k);
    std::mt19937_64 rng(seed);
    std::shuffle(e.begin(), e.end(), rng);
    return e;
  }
  void check() const {
    EXPECT_EQ(bad_order.load(), 0);
    for (std::size_t i = 0; i < in.size(); ++i)
      ASSERT_EQ(runs[i].load(), 1) << "task " << i;
    EXPECT_EQ(v, serial());
  }
};

TEST_P(flow_output, RandomDagsThroughDoneMatchTheSerialOrder) {
  const unsigned w = GetParam();
  locus::runtime rt{cfg(w)};
  for (std::uint64_t seed = 0; seed < 3; ++seed) {
    done_dag d(3000, 4, 100 * w + seed);
    df::graph g(rt);
    {
      std::vector<df::edt> t = d.make(g);
      for (auto [i, k] : d.edges(seed))
        df::add_dependence(t[d.in[i][k]].done(), t[i], k);
      // Every back edge j -> i (i < j, with a path i ~> j) would close a cycle: try some.
      std::mt19937_64 rng(seed);
      int tried = 0;
      for (std::uint32_t j = 1; j < d.in.size() && tried < 200; ++j) {
        if (d.in[j].empty()) continue;
        const std::uint32_t i = d.in[j][rng() % d.in[j].size()];
        if (d.in[i].empty()) continue;  // a task with no slot may have run already
        ++tried;
        const std::string msg = error_of([&] { df::add_dependence(t[j].done(), t[i], 0); });
        // A cycle, unless i already fired (its slots are all assigned).
        EXPECT_TRUE(is_cycle_error(msg) || msg.find("already") != std::string::npos) << msg;
      }
    }
    g.wait();
    d.check();
  }
}

// Several workers add the output-event edges of one DAG at once (and call done() on the same
// tasks at once) while the tasks whose slots are complete run and finish.
TEST_P(flow_output, ConcurrentDoneEdgesFromSeveralWorkers) {
  const unsigned w = GetParam();
  locus::runtime rt{cfg(w)};
  done_dag d(4000, 3, 7 + w);
  df::graph g(rt);
  std::vector<df::edt> t = d.make(g);
  const auto edges = d.edges(w);
  std::atomic<int> errors{0};
  rt.run([](df::graph& g, done_dag& d, std::vector<df::edt>& t,
            const std::vector<std::pair<std::uint32_t, std::uint32_t>>& edges,
            std::atomic<int>& errors) -> locus::task<void> {
    constexpr std::size_t parts = 8;
    for (std::size_t p = 0; p < parts; ++p)
      co_await locus::spawn([](done_dag& d, std::vector<df::edt>& t,
                               const std::vector<std::pair<std::uint32_t, std::uint32_t>>& edges,
                               std::size_t p, std::atomic<int>& errors) -> locus::task<void> {
        for (std::size_t e = p; e < edges.size(); e += parts) {
          const auto [i, k] = edges[e];
          try {
            df::add_dependence(t[d.in[i][k]].done(), t[i], k);
          } catch (const df::dataflow_error&) {
            errors.fetch_add(1);
          }
        }
        co_return;
      }(d, t, edges, p, errors));
    co_await locus::sync();
    co_await g;
  }(g, d, t, edges, errors));
  EXPECT_EQ(errors.load(), 0);
  d.check();
}

INSTANTIATE_TEST_SUITE_P(Workers, flow_output, ::testing::Values(1U, 2U, 3U, 4U));
