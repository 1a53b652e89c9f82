// The flow scheduler (locus/dataflow/flow_scheduler.hpp): every combination of its options runs
// random DAGs correctly with 1 to 4 workers, and its stealing takes what it says.
#include <gtest/gtest.h>
#include <locus/dataflow.hpp>
#include <locus/ext/core.hpp>
#include <locus/ext/observer.hpp>
#include <locus/locus.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "flow_support.hpp"

namespace df = locus::dataflow;
using flow_test::cfg;
using flow_test::mix;

namespace {

/// A random DAG whose tasks pass datablocks: task i reads the blocks of up to `fan` earlier
/// tasks and writes its own (made by the task, so homed on the core it ran on), with task
/// hints from its direct successors.
struct block_dag {
  std::vector<std::vector<std::uint32_t>> in;
  std::vector<std::uint32_t> succ;        ///< number of direct successors
  std::vector<std::uint32_t> only_input;  ///< successors whose only input it is
  block_dag(std::uint32_t n, unsigned fan, std::uint64_t seed)
      : in(flow_test::random_inputs(n, fan, seed)), succ(n), only_input(n) {
    for (std::uint32_t i = 1; i < n; ++i) {
      for (std::uint32_t j : in[i])
        ++succ[j];
      if (in[i].size() == 1) ++only_input[in[i][0]];
    }
  }
  [[nodiscard]] std::vector<std::uint64_t> serial() const { return flow_test::serial_values(in); }
};

/// Runs a block_dag as tasks of g (built off the workers, in shuffled order) and checks that
/// every task ran once, after its inputs, with the serial answer.
void run_and_check(const block_dag& d, df::graph& g, std::uint64_t seed) {
  const auto n = static_cast<std::uint32_t>(d.in.size());
  std::vector<df::event<df::datablock>> out(n);
  std::vector<std::uint64_t> got(n);
  std::unique_ptr<std::atomic<int>[]> runs(new std::atomic<int>[n]);
  for (std::uint32_t i = 0; i < n; ++i)
    runs[i].store(0);
  std::atomic<long> bad_order{0};
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0U);
  std::mt19937_64 rng(seed);
  std::shuffle(order.begin(), order.end(), rng);
  {
    std::vector<df::edt> tasks(n);
    for (std::uint32_t i : order) {
      const auto slots = static_cast<std::uint32_t>(d.in[i].size());
      tasks[i] = g.task(
          slots,
          [&, i](df::edt_args& a) {
            std::uint64_t s = 0;
            for (std::uint32_t k = 0; k < a.size(); ++k) {
              if (runs[d.in[i][k]].load(std::memory_order_relaxed) != 1) bad_order.fetch_add(1);
              s += a.read<std::uint64_t>(k)[0];
            }
            runs[i].fetch_add(1, std::memory_order_relaxed);
            got[i] = mix(s * 31 + i + 1);
            df::datablock b = df::datablock::create(64 * (1 + i % 8));
            b.as<std::uint64_t>()[0] = got[i];
            out[i].satisfy(std::move(b));
          },
          df::task_hint{d.only_input[i], d.succ[i]});
    }
    for (std::uint32_t i = 0; i < n; ++i)
      for (std::uint32_t k = 0; k < d.in[i].size(); ++k)
        df::add_dependence(out[d.in[i][k]], tasks[i], k);
  }
  g.wait();
  EXPECT_EQ(bad_order.load(), 0);
  for (std::uint32_t i = 0; i < n; ++i)
    ASSERT_EQ(runs[i].load(), 1) << "task " << i;
  EXPECT_EQ(got, d.serial());
}

using option = std::tuple<df::steal_mode, df::ready_queue, df::placement, unsigned>;

std::string name_of(const ::testing::TestParamInfo<option>& p) {
  std::string s = std::string(df::to_string(std::get<0>(p.param))) + "_" +
                  df::to_string(std::get<1>(p.param)) + "_" +
                  (std::get<2>(p.param) == df::placement::near_data ? "near" : "enabling") + "_w" +
                  std::to_string(std::get<3>(p.param));
  std::replace(s.begin(), s.end(), '-', '_');
  return s;
}

}  // namespace

class flow_options_dag : public ::testing::TestWithParam<option> {};

TEST_P(flow_options_dag, EveryTaskOnceAfterItsInputs) {
  const auto [steal, queue, place, w] = GetParam();
  auto flow = df::flow_scheduler::make({.steal = steal, .queue = queue});
  locus::config c = cfg(w, w >= 4 ? "socket" : "none");
  c.custom_scheduler = flow->scheduler();
  locus::runtime rt{c};
  const block_dag d(4000, 3, 11 + w);
  df::graph g(rt, {.place = place});
  run_and_check(d, g, 5 * w + 1);
  const df::flow_stats s = flow->stats();
  // Every task that ran went through a ready queue or a mailbox (the roots made ready off the
  // workers); none was lost or duplicated (checked above).
  EXPECT_LE(s.pushed, 4000U);
  // Each queued task ran once: taken by its queue's owner, or as the first task of a steal.
  EXPECT_EQ(s.local_takes + s.steals, s.pushed);
  if (steal == df::steal_mode::one) EXPECT_EQ(s.tasks_stolen, s.steals);
  EXPECT_GE(s.tasks_stolen, s.steals);
  if (w == 1) EXPECT_EQ(s.steals, 0U);
}

INSTANTIATE_TEST_SUITE_P(
    Options, flow_options_dag,
    ::testing::Combine(::testing::Values(df::steal_mode::one, df::steal_mode::half_pessimistic,
                                         df::steal_mode::half_optimistic),
                       ::testing::Values(df::ready_queue::deque, df::ready_queue::priority),
                       ::testing::Values(df::placement::enabling_worker, df::placement::near_data),
                       ::testing::Values(1U, 2U, 3U, 4U)),
    name_of);

namespace {

/// One body makes `n` independent tasks ready on its worker's queue, then waits (bounded) until
/// some other worker stole from it; returns the scheduler's counters at the end.
df::flow_stats wide_fan_out(df::steal_mode m, int n) {
  auto flow = df::flow_scheduler::make({.steal = m});
  locus::config c = cfg(2);
  c.custom_scheduler = flow->scheduler();
  locus::runtime rt{c};
  df::graph g(rt);
  df::event<> go;
  std::atomic<int> ran{0};
  for (int i = 0; i < n; ++i) {
    auto t = g.task(1, [&ran] {
      ran.fetch_add(1, std::memory_order_relaxed);
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    });
    df::add_dependence(go, t, 0);
  }
  g.task(0, [&go, &flow] {
    go.satisfy();  // n tasks into this worker's ready queue
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (flow->stats().tasks_stolen < 2 && std::chrono::steady_clock::now() < until)
      std::this_thread::yield();
  });
  g.wait();
  EXPECT_EQ(ran.load(), n);
  return flow->stats();
}

}  // namespace

TEST(FlowScheduler, StealOneTakesOneTaskPerSteal) {
  const df::flow_stats s = wide_fan_out(df::steal_mode::one, 256);
  EXPECT_GE(s.steals, 2U);
  EXPECT_EQ(s.tasks_stolen, s.steals);
}

TEST(FlowScheduler, StealHalfTakesSeveralTasksPerSteal) {
  const df::flow_stats s = wide_fan_out(df::steal_mode::half_pessimistic, 256);
  ASSERT_GE(s.steals, 1U);
  // The first steal from a queue of k > 1 equal tasks takes k / 2 of them.
  EXPECT_GT(s.tasks_stolen, s.steals);
}

// Priority queues: the owner takes the task whose inputs are cheapest to reach first. Worker 1
// makes a block (homed on its core); worker 0 then makes two tasks ready at once, one reading
// the remote block and one reading nothing; with one worker looking, the cheap one runs first.
TEST(FlowScheduler, PriorityQueueRunsTheCheapestTaskFirst) {
  for (const auto queue : {df::ready_queue::priority, df::ready_queue::deque}) {
    auto flow = df::flow_scheduler::make({.queue = queue});
    locus::config c = cfg(2, "2");  // one place per worker: nobody steals from the other
    c.cross_place_steals = false;
    c.custom_scheduler = flow->scheduler();
    locus::runtime rt{c};
    ASSERT_EQ(rt.num_places(), 2U);
    df::datablock far = rt.run([]() -> locus::task<df::datablock> {
      auto made = co_await locus::spawn(
          []() -> locus::task<df::datablock> { co_return df::datablock::create(1 << 16); }(),
          locus::at(1));
      co_await locus::sync();
      co_return made.get();
    }());
    ASSERT_EQ(far.where().where(), locus::home::kind::core);
    df::graph g(rt);
    df::event<df::datablock> block;
    df::event<> go;
    std::vector<int> order;  // appended by worker 0 only (one place, one worker)
    auto remote = g.task(2, [&order] { order.push_back(1); });
    auto local = g.task(1, [&order] { order.push_back(0); });
    df::add_dependence(block, remote, 0);
    df::add_dependence(go, remote, 1);
    df::add_dependence(go, local, 0);  // added last: notified first, the older of the two
    block.satisfy(far);
    rt.run([](df::event<> go) -> locus::task<void> {
      go.satisfy();  // on worker 0 (place 0): both tasks enter its ready queue
      co_return;
    }(go));
    g.wait();
    ASSERT_EQ(order.size(), 2U);
    if (queue == df::ready_queue::priority) {
      EXPECT_EQ(order, (std::vector<int>{0, 1})) << "the local task first";
      EXPECT_GT(flow->stats().cost_at_run, 0U);
    } else {
      EXPECT_EQ(order, (std::vector<int>{1, 0})) << "deque: the newest first";
      EXPECT_GT(flow->stats().cost_at_run, 0U);  // counted in every mode (at the take here)
    }
  }
}

// task_hint::priority orders a ready queue in both modes: the owner takes the highest first.
// The tasks wait on one event, satisfied from the main thread while the only worker is held by
// another task, so all of them are in the queue when the worker looks: tasks made ready outside
// the workers go to the ready queues too (before 2026-11-27d they went to the place's pool, in
// the order they were notified). Then the same with the event satisfied on the worker.
TEST(FlowScheduler, PrioritiesOrderTheReadyQueues) {
  const std::vector<std::uint16_t> priorities{5, 1, 7, 3, 0, 6, 2, 4};
  std::vector<int> expected(priorities.size());
  std::iota(expected.begin(), expected.end(), 0);
  std::sort(expected.begin(), expected.end(),
            [&](int a, int b) { return priorities[a] > priorities[b]; });
  for (const auto queue : {df::ready_queue::deque, df::ready_queue::priority}) {
    for (const bool outside : {true, false}) {
      SCOPED_TRACE(std::string(df::to_string(queue)) + (outside ? ", outside" : ", on the worker"));
      auto flow = df::flow_scheduler::make({.queue = queue});
      locus::config c = cfg(1);
      c.custom_scheduler = flow->scheduler();
      locus::runtime rt{c};
      df::graph g(rt);
      df::event<> go;
      std::vector<int> order;  // appended by the only worker
      for (std::size_t i = 0; i < priorities.size(); ++i) {
        auto t = g.task(
            1, [&order, i] { order.push_back(static_cast<int>(i)); },
            df::task_hint{.priority = priorities[i]});
        df::add_dependence(go, t, 0);
      }
      const auto pushed0 = flow->stats().pushed;
      // Live until g.wait(): the holder reads `release` after this thread stored it.
      std::atomic<bool> started{false}, release{false};
      if (outside) {
        auto hold = g.task(0, [&] {
          started.store(true);
          while (!release.load())
            std::this_thread::yield();
        });
        (void)hold;
        while (!started.load())
          std::this_thread::yield();
        go.satisfy();  // on this thread: every task enters the worker's ready queue
        release.store(true);
      } else {
        auto first = g.task(0, [go]() mutable { go.satisfy(); });
        (void)first;
      }
      g.wait();
      EXPECT_EQ(order, expected) << "the highest priority first";
      // Every task entered a ready queue (the holder or the first task too, made ready at its
      // creation on this thread), counted whether a worker or another thread pushed it.
      EXPECT_EQ(flow->stats().pushed - pushed0, priorities.size() + 1);
    }
  }
}

// A worker that takes its next task from its ready queue at its first look (its deque empty,
// as always under a flow scheduler) is not idle: no idle spell is observed. Before 2026-11-27e
// every task began one (looking, found), and locus::mpi woke its communication worker at each.
TEST(FlowScheduler, ATaskTakenAtTheFirstLookIsNotAnIdleSpell) {
  struct spells final : locus::ext::observer {
    std::atomic<int> looking{0};
    void on_idle(locus::ext::worker_ref& /*w*/, locus::ext::idle_event e) noexcept override {
      if (e == locus::ext::idle_event::looking) looking.fetch_add(1, std::memory_order_relaxed);
    }
  };
  constexpr int n = 1000;
  auto flow = df::flow_scheduler::make();
  locus::config c = cfg(1);
  c.custom_scheduler = flow->scheduler();
  locus::runtime rt{c};
  static const char key = 0;
  const auto obs = std::static_pointer_cast<spells>(
      locus::ext::core_ref::of(rt).install_once(&key, [] { return std::make_shared<spells>(); }));
  df::graph g(rt);
  df::event<> go;
  std::atomic<int> ran{0};
  for (int i = 0; i < n; ++i) {
    auto t = g.task(1, [&ran] { ran.fetch_add(1, std::memory_order_relaxed); });
    df::add_dependence(go, t, 0);
  }
  const int before = obs->looking.load();
  auto first = g.task(0, [go]() mutable { go.satisfy(); });  // all n into this worker's queue
  (void)first;
  g.wait();
  EXPECT_EQ(ran.load(), n);
  EXPECT_LT(obs->looking.load() - before, 10) << "an idle spell per task";
}

// The ready queues are bound to the idle domains of the runtime they were made for: a graph on
// a second runtime with the same scheduler is refused, and that runtime still runs tasks.
TEST(FlowScheduler, OneSchedulerServesOneRuntime) {
  auto flow = df::flow_scheduler::make();
  locus::config c = cfg(2);
  c.custom_scheduler = flow->scheduler();
  locus::runtime a{c};
  df::graph ga(a);
  std::atomic<int> ran{0};
  auto t = ga.task(0, [&ran] { ran.fetch_add(1); });
  (void)t;
  ga.wait();
  EXPECT_EQ(ran.load(), 1);
  locus::runtime b{c};
  try {
    df::graph gb(b);
    ADD_FAILURE() << "a graph on a second runtime was accepted";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("one flow_scheduler per runtime"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(b.run([]() -> locus::task<int> { co_return 7; }()), 7);
}
