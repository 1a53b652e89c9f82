// Runnable items (locus/detail/frame.hpp): a data-driven task with a plain body runs as its node,
// without a coroutine frame. Every scheduler that moves items (the built-in one, the flow
// scheduler, the replay scheduler between phases and in designed and replayed RelWS phases,
// which steal at random) runs each such task once, beside coroutine bodies, with exceptions.
#include <gtest/gtest.h>
#include <locus/dataflow.hpp>
#include <locus/locus.hpp>
#include <locus/schedule/replay.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "flow_support.hpp"

namespace df = locus::dataflow;
using flow_test::cfg;
using flow_test::mix;

namespace {

/// The schedulers a graph's items can go through.
enum class sched_kind { builtin, flow, replay_idle, replay_designed_relws, replay_relws };

const char* name_of(sched_kind k) {
  switch (k) {
    case sched_kind::builtin:
      return "builtin";
    case sched_kind::flow:
      return "flow";
    case sched_kind::replay_idle:
      return "replay_idle";
    case sched_kind::replay_designed_relws:
      return "replay_designed_relws";
    case sched_kind::replay_relws:
      return "replay_relws";
  }
  return "?";
}

/// A random DAG: task i adds the values of up to 3 earlier tasks; every `coro_every`-th task
/// (0: none) has a coroutine body that spawns and syncs a child for its value.
struct mixed_dag {
  std::vector<std::vector<std::uint32_t>> in;
  unsigned coro_every;
  mixed_dag(std::uint32_t n, std::uint64_t seed, unsigned coro) : in(n), coro_every(coro) {
    std::mt19937_64 rng(seed);
    for (std::uint32_t i = 1; i < n; ++i) {
      const unsigned k = static_cast<unsigned>(rng() % 4);
      for (unsigned j = 0; j < k; ++j)
        in[i].push_back(i - 1 - static_cast<std::uint32_t>(rng() % std::min<std::uint32_t>(i, 16)));
      std::sort(in[i].begin(), in[i].end());
      in[i].erase(std::unique(in[i].begin(), in[i].end()), in[i].end());
    }
  }
  [[nodiscard]] bool coroutine(std::uint32_t i) const {
    return coro_every != 0 && i % coro_every == 0;
  }
  [[nodiscard]] std::vector<std::uint64_t> serial() const { return flow_test::serial_values(in); }
};

locus::task<std::uint64_t> value_of(std::uint64_t s, std::uint32_t i) {
  co_return mix(s * 31 + i + 1);
}

/// Builds d as tasks of g (from the calling thread, which may be a worker) and records what ran.
struct mixed_run {
  const mixed_dag& d;
  std::vector<df::event<std::uint64_t>> out;
  std::vector<std::uint64_t> got;
  std::unique_ptr<std::atomic<int>[]> runs;
  std::atomic<long> bad_order{0};

  explicit mixed_run(const mixed_dag& dd)
      : d(dd), out(dd.in.size()), got(dd.in.size()), runs(new std::atomic<int>[dd.in.size()]) {
    for (std::size_t i = 0; i < d.in.size(); ++i)
      runs[i].store(0);
  }

  std::uint64_t inputs(df::edt_args& a, std::uint32_t i) {
    std::uint64_t s = 0;
    for (std::uint32_t k = 0; k < a.size(); ++k) {
      if (runs[d.in[i][k]].load(std::memory_order_relaxed) != 1) bad_order.fetch_add(1);
      s += a.get<std::uint64_t>(k);
    }
    return s;
  }

  void build(df::graph& g) {
    const auto n = static_cast<std::uint32_t>(d.in.size());
    std::vector<df::edt> tasks(n);
    // Last to first: a task is created before the tasks it depends on finish, mostly.
    for (std::uint32_t i = n; i-- > 0;) {
      const auto slots = static_cast<std::uint32_t>(d.in[i].size());
      if (d.coroutine(i)) {
        tasks[i] = g.task(slots, [this, i](df::edt_args& a) -> locus::task<void> {
          const std::uint64_t s = inputs(a, i);
          auto f = co_await locus::spawn(value_of(s, i));
          co_await locus::sync();
          runs[i].fetch_add(1, std::memory_order_relaxed);
          got[i] = f.get();
          out[i].satisfy(got[i]);
        });
      } else {
        tasks[i] = g.task(slots, [this, i](df::edt_args& a) {
          const std::uint64_t s = inputs(a, i);
          runs[i].fetch_add(1, std::memory_order_relaxed);
          got[i] = mix(s * 31 + i + 1);
          out[i].satisfy(got[i]);
        });
      }
    }
    for (std::uint32_t i = 0; i < n; ++i)
      for (std::uint32_t k = 0; k < d.in[i].size(); ++k)
        df::add_dependence(out[d.in[i][k]], tasks[i], k);
  }

  void check() const {
    EXPECT_EQ(bad_order.load(), 0);
    for (std::size_t i = 0; i < d.in.size(); ++i)
      ASSERT_EQ(runs[i].load(), 1) << "task " << i;
    EXPECT_EQ(got, d.serial());
  }
};

/// A runtime with the scheduler of `k` and `w` workers, and what the phase runs under.
struct sched_setup {
  std::shared_ptr<df::flow_scheduler> flow;
  std::shared_ptr<locus::schedule::replay_scheduler> replay;
  std::unique_ptr<locus::runtime> rt;
  sched_setup(sched_kind k, unsigned w) {
    locus::config c = cfg(w);
    if (k == sched_kind::flow) {
      flow = df::flow_scheduler::make({});
      c.custom_scheduler = flow->scheduler();
    } else if (k != sched_kind::builtin) {
      replay = locus::schedule::make_replay_scheduler();
      c.custom_scheduler = replay->scheduler();
    }
    rt = std::make_unique<locus::runtime>(c);
  }
};

/// The graph built and awaited inside a task (so its first tasks go onto a worker's deque).
locus::task<void> build_and_wait(mixed_run& r, df::graph& g) {
  r.build(g);
  co_await g;
}

/// Runs `body(g)` (a task) on s's runtime the way kind `k` runs a phase.
template <class Body>
void run_phase(sched_setup& s, sched_kind k, Body body) {
  locus::runtime& rt = *s.rt;
  switch (k) {
    case sched_kind::builtin:
    case sched_kind::flow:
    case sched_kind::replay_idle:
      rt.run(body());
      break;
    case sched_kind::replay_designed_relws:
      (void)locus::schedule::run_designed(rt, body(), locus::schedule::replay_mode::relws);
      break;
    case sched_kind::replay_relws: {
      const locus::schedule::steal_tree t = locus::schedule::run_traced(rt, body()).tree;
      locus::schedule::run_replayed(rt, body(), t, locus::schedule::replay_mode::relws);
      break;
    }
  }
}

using param = std::tuple<sched_kind, unsigned>;

std::string param_name(const ::testing::TestParamInfo<param>& p) {
  return std::string(name_of(std::get<0>(p.param))) + "_w" + std::to_string(std::get<1>(p.param));
}

}  // namespace

TEST(FlowRunnable, ItemTagsTellRunnablesFromFrames) {
  alignas(8) locus::detail::runnable r{};
  alignas(64) static char frame_bytes[sizeof(locus::detail::frame)];
  auto* f = reinterpret_cast<locus::detail::frame*>(frame_bytes);
  EXPECT_TRUE(locus::detail::is_runnable(locus::detail::runnable_item(&r)));
  EXPECT_EQ(locus::detail::item_runnable(locus::detail::runnable_item(&r)), &r);
  EXPECT_FALSE(locus::detail::is_runnable(locus::detail::fresh_item(f)));
  EXPECT_FALSE(locus::detail::is_runnable(locus::detail::continuation_item(f, false)));
  EXPECT_FALSE(locus::detail::is_runnable(locus::detail::continuation_item(f, true)));
  // The node is its own runnable: 8-byte aligned, no bigger than before (56 bytes on x86-64).
  static_assert(alignof(df::detail::edt_node) >= 8);
  static_assert(std::is_base_of_v<locus::detail::runnable, df::detail::edt_node>);
}

class flow_runnable_sched : public ::testing::TestWithParam<param> {};

/// Runs DAG d in a phase of scheduler kind k and checks every run. A fresh graph per phase:
/// replay_relws runs the phase twice (traced, then replayed).
template <class Setup, class Kind>
void run_and_check(Setup& s, Kind k, const mixed_dag& d) {
  std::vector<std::unique_ptr<mixed_run>> runs;
  std::vector<std::unique_ptr<df::graph>> graphs;
  run_phase(s, k, [&] {
    runs.push_back(std::make_unique<mixed_run>(d));
    graphs.push_back(std::make_unique<df::graph>(*s.rt));
    return build_and_wait(*runs.back(), *graphs.back());
  });
  for (const auto& r : runs)
    r->check();
}

TEST_P(flow_runnable_sched, PlainTasksRunOnceUnderEveryScheduler) {
  const auto [k, w] = GetParam();
  sched_setup s(k, w);
  const mixed_dag d(3000, 7 + w, 0);
  run_and_check(s, k, d);
  // Plain tasks built off the workers too (made ready through a mailbox).
  mixed_run off(d);
  df::graph g(*s.rt);
  off.build(g);
  g.wait();
  off.check();
}

TEST_P(flow_runnable_sched, PlainAndCoroutineBodiesMix) {
  const auto [k, w] = GetParam();
  sched_setup s(k, w);
  const mixed_dag d(2000, 3 + w, 3);
  run_and_check(s, k, d);
}

/// A wide fan of plain tasks behind one event, one of which throws: the rest either run or are
/// skipped after the failure, every task leaves the graph, and co_await g rethrows.
struct failing_fan {
  static constexpr int n = 500;
  df::graph g;
  df::event<> go;
  std::atomic<int> ran{0};
  bool caught = false;
  explicit failing_fan(locus::runtime& rt) : g(rt) {
    for (int i = 0; i < n; ++i) {
      auto t = g.task(1, [this, i] {
        ran.fetch_add(1, std::memory_order_relaxed);
        if (i == n / 2) throw std::runtime_error("plain body " + std::to_string(i));
      });
      df::add_dependence(go, t, 0);
    }
  }
  locus::task<void> run() {
    go.satisfy();  // n tasks onto this worker's deque (or ready queue)
    try {
      co_await g;
    } catch (const std::runtime_error& x) {
      caught = std::string(x.what()) == "plain body 250";
    }
  }
};

TEST_P(flow_runnable_sched, APlainBodysExceptionReachesTheWaiter) {
  const auto [k, w] = GetParam();
  sched_setup s(k, w);
  std::vector<std::unique_ptr<failing_fan>> fans;  // replay_relws: traced, then replayed
  run_phase(s, k, [&] {
    fans.push_back(std::make_unique<failing_fan>(*s.rt));
    return fans.back()->run();
  });
  for (const auto& f : fans) {
    EXPECT_TRUE(f->caught);
    EXPECT_GE(f->ran.load(), 1);
    EXPECT_LE(f->ran.load(), failing_fan::n);
    EXPECT_EQ(f->g.pending(), 0);
  }
}

INSTANTIATE_TEST_SUITE_P(Schedulers, flow_runnable_sched,
                         ::testing::Combine(::testing::Values(sched_kind::builtin, sched_kind::flow,
                                                              sched_kind::replay_idle,
                                                              sched_kind::replay_designed_relws,
                                                              sched_kind::replay_relws),
                                            ::testing::Values(1U, 2U, 3U, 4U)),
                         param_name);
