// Tracing, the first observer (locus/ext/tracing.hpp): the Chrome trace a run leaves, loaded
// and checked against the run.
#include <locus/dataflow.hpp>
#include <locus/ext/scheduler.hpp>
#include <locus/ext/tracing.hpp>
#include <locus/locus.hpp>
#include <locus/schedule/replay.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "test_support.hpp"

#if __has_include(<nlohmann/json.hpp>)  // the file is read with nlohmann-json, when it is there
#include <nlohmann/json.hpp>

namespace {

std::string temp_path(const char* name) {
  return (std::filesystem::temp_directory_path() /
          (std::string("locus-trace-") + name + "-" + std::to_string(::getpid()) + ".json"))
      .string();
}

nlohmann::json load(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  return nlohmann::json::parse(in);
}

std::uint64_t count_ph(const nlohmann::json& t, const char* ph) {
  std::uint64_t n = 0;
  for (const auto& e : t["traceEvents"])
    if (e["ph"] == ph) ++n;
  return n;
}

/// Every pair of spans ("X") on one track nests or is disjoint; a sleep lies inside an idle.
void expect_spans_nest(const nlohmann::json& t) {
  struct span {
    double b, e;
    std::string name;
  };
  std::map<int, std::vector<span>> by_tid;
  for (const auto& e : t["traceEvents"]) {
    if (e["ph"] != "X") continue;
    const double b = e["ts"].get<double>();
    by_tid[e["tid"].get<int>()].push_back({b, b + e["dur"].get<double>(), e["name"]});
  }
  ASSERT_FALSE(by_tid.empty());
  constexpr double eps = 1e-3;  // the file's resolution: 1 ns
  for (auto& [tid, spans] : by_tid) {
    std::sort(spans.begin(), spans.end(), [](const span& a, const span& b) {
      return a.b != b.b ? a.b < b.b : a.e > b.e;  // outer first at equal starts
    });
    std::vector<span> open;
    for (const span& s : spans) {
      EXPECT_LE(s.b, s.e + eps);
      while (!open.empty() && open.back().e <= s.b + eps)
        open.pop_back();
      if (!open.empty()) {
        EXPECT_LE(s.e, open.back().e + eps)
            << "track " << tid << ": " << s.name << " overlaps " << open.back().name;
        if (s.name == "sleep") EXPECT_EQ(open.back().name, "idle");
      } else {
        EXPECT_NE(s.name, "sleep") << "track " << tid << ": a sleep outside an idle span";
      }
      open.push_back(s);
    }
  }
}

TEST(Trace, StealArrowsEqualTheRunsStealsAndSpansNest) {
  const std::string path = temp_path("steals");
  std::uint64_t steals = 0;
  {
    locus::config c;
    c.workers = 2;
    c.pin = false;
    c.topology = "sockets=2,cores=1";
    c.scheduler = locus::scheduler_kind::cilk;
    c.trace = path;
    locus::runtime rt{c};
    for (int i = 0; i < 3; ++i)
      EXPECT_EQ(rt.run(locus_test::fib(22)), 17711);
    ASSERT_TRUE(locus_test::wait_until_all_asleep(rt));  // no steal can succeed any more
    steals = rt.stats().total().steals_succeeded;
  }  // the file is written now
  const nlohmann::json t = load(path);
  EXPECT_EQ(count_ph(t, "s"), steals);
  EXPECT_EQ(count_ph(t, "f"), steals);
  EXPECT_EQ(t["otherData"]["steals"].get<std::uint64_t>(), steals);
  EXPECT_FALSE(t["otherData"]["truncated"].get<bool>());
  // One labelled track per worker, with its place and socket.
  std::vector<std::string> names;
  for (const auto& e : t["traceEvents"])
    if (e["ph"] == "M" && e["name"] == "thread_name") names.push_back(e["args"]["name"]);
  EXPECT_NE(std::find(names.begin(), names.end(), "worker 0 (place 0, socket 0)"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "worker 1 (place 0, socket 1)"), names.end());
  EXPECT_GE(count_ph(t, "X"), 3u);  // at least the runs that took the roots
  expect_spans_nest(t);
  std::remove(path.c_str());
}

// Data-driven tasks taken from the flow scheduler's ready queues: an instant at each pickup and
// a "dataflow task" span per pickup, nested in the run it started.
TEST(Trace, DataflowTasksAreSpansInsideTheirRuns) {
  const std::string path = temp_path("dataflow");
  constexpr int n = 200;
  std::atomic<int> ran{0};
  {
    auto flow = locus::dataflow::flow_scheduler::make();
    locus::config c;
    c.workers = 2;
    c.pin = false;
    c.trace = path;
    c.custom_scheduler = flow->scheduler();
    locus::runtime rt{c};
    locus::dataflow::graph g(rt);
    locus::dataflow::event<> go;
    for (int i = 0; i < n; ++i) {
      auto t = g.task(1, [&ran] { ran.fetch_add(1, std::memory_order_relaxed); });
      locus::dataflow::add_dependence(go, t, 0);
    }
    rt.run([](locus::dataflow::event<> go) -> locus::task<void> {
      go.satisfy();  // on a worker: every task enters a ready queue
      co_return;
    }(go));
    g.wait();
    ASSERT_GT(flow->stats().pushed, 0u);
  }
  EXPECT_EQ(ran.load(), n);
  const nlohmann::json t = load(path);
  std::uint64_t instants = 0, spans = 0;
  for (const auto& e : t["traceEvents"]) {
    if (e["name"] != "dataflow task") continue;
    if (e["ph"] == "i") ++instants;
    if (e["ph"] == "X") ++spans;
  }
  EXPECT_GT(instants, 0u);
  EXPECT_EQ(spans, instants);
  expect_spans_nest(t);
  std::remove(path.c_str());
}

// A worker whose first look for work succeeds has no idle spell before its first run
// (find_work observes none: ext/observer.hpp), so no `found` opens that run: its first pickup
// must. A gate makes the single worker's first look wait until the graph's task is there, so
// the first look always succeeds. Found by CI under ASan (2026-11-27): a worker that started
// late took every dataflow task at first looks and the trace had no run or task span for it.
TEST(Trace, AWorkersFirstRunOpensAtItsFirstPickup) {
  class gated_first_look final : public locus::ext::acquisition {
   public:
    bool acquire(locus::ext::worker_ref w, locus::ext::work_item& out) override {
      if (m_looked.exchange(true)) return m_inner->acquire(w, out);
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
      while (!m_inner->acquire(w, out)) {
        if (std::chrono::steady_clock::now() > deadline) return false;  // the test fails
        std::this_thread::yield();
      }
      return true;
    }
    std::string_view name() const noexcept override { return "gated first look"; }

   private:
    std::shared_ptr<locus::ext::acquisition> m_inner = locus::ext::slaw_acquisition();
    std::atomic<bool> m_looked{false};
  };
  const std::string path = temp_path("first-look");
  std::atomic<int> ran{0};
  {
    locus::config c;
    c.workers = 1;
    c.pin = false;
    c.trace = path;
    c.custom_scheduler = std::make_shared<locus::ext::scheduler>(
        locus::ext::scheduler{.name = "gated",
                              .acquire = std::make_shared<gated_first_look>(),
                              .spawn = nullptr,
                              .idle_domains = {},
                              .iterations = {}});
    locus::runtime rt{c};
    locus::dataflow::graph g(rt);
    auto t = g.task(0, [&ran] { ran.fetch_add(1, std::memory_order_relaxed); });
    (void)t;
    g.wait();
  }
  EXPECT_EQ(ran.load(), 1);
  const nlohmann::json t = load(path);
  struct span {
    double b, e;
  };
  std::vector<span> runs, tasks;
  std::uint64_t instants = 0;
  for (const auto& e : t["traceEvents"]) {
    if (e["ph"] == "i" && e["name"] == "dataflow task") ++instants;
    if (e["ph"] != "X") continue;
    const double b = e["ts"].get<double>();
    if (e["name"] == "run") runs.push_back({b, b + e["dur"].get<double>()});
    if (e["name"] == "dataflow task") tasks.push_back({b, b + e["dur"].get<double>()});
  }
  EXPECT_EQ(instants, 1u);
  ASSERT_EQ(tasks.size(), 1u) << "the task taken at the first look has no span";
  ASSERT_EQ(runs.size(), 1u) << "the run begun at the first look has no span";
  constexpr double eps = 1e-3;
  EXPECT_LE(runs[0].b, tasks[0].b + eps);
  EXPECT_LE(tasks[0].e, runs[0].e + eps);
  expect_spans_nest(t);
  std::remove(path.c_str());
}

TEST(Trace, PhasesAreSpansNamedByTheirKindAndMode) {
  const std::string path = temp_path("phases");
  {
    locus::config c;
    c.workers = 2;
    c.pin = false;
    c.trace = path;
    auto replay = locus::schedule::make_replay_scheduler();
    c.custom_scheduler = replay->scheduler();
    locus::runtime rt{c};
    auto traced = locus::schedule::run_traced(rt, locus_test::fib(18));
    EXPECT_EQ(locus::schedule::run_replayed(rt, locus_test::fib(18), traced.tree,
                                            locus::schedule::replay_mode::stuws),
              2584);
  }
  const nlohmann::json t = load(path);
  std::vector<std::string> phases;
  for (const auto& e : t["traceEvents"])
    if (e["ph"] == "X" && e["tid"] == 2) phases.push_back(e["name"]);
  EXPECT_EQ(phases, (std::vector<std::string>{"traced", "replayed stuws"}));
  expect_spans_nest(t);
  std::remove(path.c_str());
}

TEST(Trace, MemoryIsBoundedAndTheFileSaysSo) {
  const std::string path = temp_path("bounded");
  {
    locus::config c;
    c.workers = 2;
    c.pin = false;
    c.scheduler = locus::scheduler_kind::cilk;
    locus::runtime rt{c};
    locus::ext::install_chrome_trace(locus::ext::core_ref::of(rt), path, {.max_events = 8});
    for (int i = 0; i < 20; ++i)
      EXPECT_EQ(rt.run(locus_test::fib(15)), 610);
  }
  const nlohmann::json t = load(path);
  EXPECT_TRUE(t["otherData"]["truncated"].get<bool>());
  std::uint64_t dropped = 0;
  for (const auto& d : t["otherData"]["dropped_events"])
    dropped += d.get<std::uint64_t>();
  EXPECT_GT(dropped, 0u);
  EXPECT_LE(count_ph(t, "X") + count_ph(t, "s") + count_ph(t, "i"), 2u * 8u);
  std::remove(path.c_str());
}

TEST(Trace, AnUnwritablePathIsAClearError) {
  locus::config c;
  c.workers = 1;
  c.pin = false;
  c.trace = "/nonexistent-locus-dir/trace.json";
  try {
    locus::runtime rt{c};
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-locus-dir/trace.json"), std::string::npos)
        << e.what();
  }
}

}  // namespace
#endif
