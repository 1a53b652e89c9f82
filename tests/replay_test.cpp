// Replaying steal trees (locus/schedule/replay.hpp): StOWS, StUWS and RelWS round trips,
// mismatched templates (Rules 4.1 and 4.2), designed schedules and their validity rule.
#include <gtest/gtest.h>

#include <locus/schedule/steal_tree_io.hpp>

#include <stdexcept>
#include <string>
#include <tuple>

#include "replay_support.hpp"
#include "test_support.hpp"

namespace {

using locus::schedule::replay_mode;
using locus::schedule::run_designed;
using locus::schedule::run_replayed;
using locus::schedule::run_replayed_traced;
using locus::schedule::run_traced;
using locus::schedule::steal_tree;
using replay_test::observed;
using replay_test::replay_runtime;
using replay_test::tree;
using replay_test::tree_nodes;

constexpr replay_mode k_modes[] = {replay_mode::stows, replay_mode::stuws, replay_mode::relws};

std::string mode_name(const ::testing::TestParamInfo<std::tuple<replay_mode, unsigned>>& i) {
  return std::string(locus::schedule::to_string(std::get<0>(i.param))) + "_w" +
         std::to_string(std::get<1>(i.param));
}

class RoundTrip : public ::testing::TestWithParam<std::tuple<replay_mode, unsigned>> {};

// Trace, extract, replay: the same result, every task once, several times over.
TEST_P(RoundTrip, SameResultEveryTaskOnce) {
  const auto [mode, workers] = GetParam();
  replay_runtime rr(workers);
  observed first(tree_nodes(9));
  auto traced = run_traced(*rr.rt, tree(9, 1, &first, 2000));
  ASSERT_EQ(traced.value, 512);
  ASSERT_TRUE(first.every_node_once());
  for (int round = 0; round < 3; ++round) {
    observed obs(tree_nodes(9));
    EXPECT_EQ(run_replayed(*rr.rt, tree(9, 1, &obs, 2000), traced.tree, mode), 512);
    EXPECT_TRUE(obs.every_node_once());
    EXPECT_EQ(run_replayed(*rr.rt, locus_test::fib(18), traced.tree, mode), 2584);
  }
  // The runtime schedules as usual afterwards.
  EXPECT_EQ(rr.rt->run(locus_test::fib(20)), 6765);
}

// The strict modes reproduce the recorded mapping: every continuation runs on the worker
// that ran it in the traced phase (StOWS also in its order; StUWS in any order). Checked on
// every continuation before a sync (after one, a frame runs where its last child finished).
TEST_P(RoundTrip, StrictModesReproduceTheRecordedWorkers) {
  const auto [mode, workers] = GetParam();
  if (mode == replay_mode::relws) GTEST_SKIP() << "relws may steal beyond the template";
  replay_runtime rr(workers);
  for (int round = 0; round < 3; ++round) {
    observed first(tree_nodes(9));
    auto traced = run_traced(*rr.rt, tree(9, 1, &first, 3000));
    observed again(tree_nodes(9));
    EXPECT_EQ(run_replayed(*rr.rt, tree(9, 1, &again, 3000), traced.tree, mode), 512);
    EXPECT_EQ(again.continuation_workers(), first.continuation_workers()) << "round " << round;
    const auto rep = rr.sched->report();
    EXPECT_EQ(rep.template_nodes, traced.tree.size());
    EXPECT_EQ(rep.reached_nodes, traced.tree.size() - 1);  // every steal point reached
    EXPECT_EQ(rep.random_steals, 0u);
  }
}

// A replayed phase traced again gives back its template under the strict modes: the same
// steals, by the same workers (StOWS: in the same order, so the same tree).
TEST_P(RoundTrip, StrictReplayTracesToItsTemplate) {
  const auto [mode, workers] = GetParam();
  if (mode == replay_mode::relws) GTEST_SKIP() << "relws may steal beyond the template";
  replay_runtime rr(workers);
  observed first(tree_nodes(8));
  auto traced = run_traced(*rr.rt, tree(8, 1, &first, 3000));
  observed again(tree_nodes(8));
  auto re = run_replayed_traced(*rr.rt, tree(8, 1, &again, 3000), traced.tree, mode);
  EXPECT_EQ(re.value, 256);
  ASSERT_EQ(re.tree.size(), traced.tree.size());
  // (Unless a worker took a slot ahead of order, which only a long preemption of a worker
  // that just took its slot can cause: see the Rule 4.2 fallback in src/schedule/replay.cpp.)
  if (mode == replay_mode::stows && rr.sched->report().out_of_order == 0)
    EXPECT_EQ(locus::schedule::serialize(re.tree), locus::schedule::serialize(traced.tree));
}

INSTANTIATE_TEST_SUITE_P(Modes, RoundTrip,
                         ::testing::Combine(::testing::ValuesIn(k_modes),
                                            ::testing::Values(1u, 2u, 3u, 4u)),
                         mode_name);

class Mismatch : public ::testing::TestWithParam<replay_mode> {};

// Rule 4.1: a deeper computation follows its deepest templated ancestor; a shallower one
// leaves steal points unreached (Rule 4.2), which no worker waits for forever.
TEST_P(Mismatch, DeeperAndShallowerComputations) {
  replay_runtime rr(4);
  auto t = run_traced(*rr.rt, locus_test::fib(17)).tree;
  EXPECT_EQ(run_replayed(*rr.rt, locus_test::fib(21), t, GetParam()), 10946);
  EXPECT_EQ(run_replayed(*rr.rt, locus_test::fib(10), t, GetParam()), 55);
  EXPECT_EQ(run_replayed(*rr.rt, locus_test::fib(1), t, GetParam()), 1);
}

// Different fan-out: a binary tree's schedule on a ternary one and the other way round.
TEST_P(Mismatch, DifferentFanOut) {
  replay_runtime rr(4);
  observed obs(tree_nodes(9));
  auto binary = run_traced(*rr.rt, tree(9, 1, &obs, 1000)).tree;
  std::atomic<long> leaves{0};
  EXPECT_EQ(run_replayed(*rr.rt, replay_test::wide(5, 3, 500, &leaves), binary, GetParam()), 243);
  EXPECT_EQ(leaves.load(), 243);
  leaves = 0;
  auto ternary = run_traced(*rr.rt, replay_test::wide(5, 3, 500, &leaves)).tree;
  observed again(tree_nodes(9));
  EXPECT_EQ(run_replayed(*rr.rt, tree(9, 1, &again, 1000), ternary, GetParam()), 512);
  EXPECT_TRUE(again.every_node_once());
  leaves = 0;
  EXPECT_EQ(run_replayed(*rr.rt, replay_test::wide(3, 8, 300, &leaves), ternary, GetParam()), 512);
}

// Another worker count: a 4-worker schedule on 2 workers (workers merge: w mod 2) and a
// 2-worker schedule on 4 workers (two of them get nothing designated).
TEST_P(Mismatch, DifferentWorkerCounts) {
  replay_runtime four(4);
  replay_runtime two(2);
  auto t4 = run_traced(*four.rt, locus_test::fib(19)).tree;
  auto t2 = run_traced(*two.rt, locus_test::fib(19)).tree;
  EXPECT_EQ(run_replayed(*two.rt, locus_test::fib(19), t4, GetParam()), 4181);
  EXPECT_EQ(run_replayed(*four.rt, locus_test::fib(19), t2, GetParam()), 4181);
}

// A hand-made template whose steal points the computation does not have at all (levels and
// spawn indices beyond it, workers that never get anything).
TEST_P(Mismatch, UnrelatedTemplate) {
  replay_runtime rr(3);
  steal_tree t(3, 1);
  const auto a = t.add_steal(0, 0, 5, 2, 0);
  t.add_steal(a, 0, 9, 0, 0);
  t.add_steal(a, 1, 40, 1, 1);
  ASSERT_NO_THROW(t.validate());
  EXPECT_EQ(run_replayed(*rr.rt, locus_test::fib(16), t, GetParam()), 987);
  observed obs(tree_nodes(6));
  EXPECT_EQ(run_replayed(*rr.rt, tree(6, 1, &obs, 100), t, GetParam()), 64);
  EXPECT_TRUE(obs.every_node_once());
}

INSTANTIATE_TEST_SUITE_P(Modes, Mismatch, ::testing::ValuesIn(k_modes),
                         [](const auto& i) { return std::string(to_string(i.param)); });

TEST(Replay, NeedsTheReplayScheduler) {
  locus::runtime rt{replay_test::cfg(2)};
  steal_tree t(2, 0);
  try {
    (void)run_replayed(rt, locus_test::fib(5), t, replay_mode::stows);
    FAIL() << "no error";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("make_replay_scheduler"), std::string::npos);
  }
  EXPECT_EQ(rt.run(locus_test::fib(10)), 55);
}

TEST(Replay, InvalidTemplateIsRefusedBeforeAnythingRuns) {
  replay_runtime rr(2);
  steal_tree t(2, 0);
  t.add_steal(0, 0, 1, 1, 0);
  t.add_steal(0, 0, 1, 1, 1);  // the same steal point twice under one phase
  EXPECT_THROW((void)run_replayed(*rr.rt, locus_test::fib(10), t, replay_mode::stows),
               locus::schedule::steal_tree_error);
  EXPECT_EQ(run_replayed(*rr.rt, locus_test::fib(10), steal_tree(2, 0), replay_mode::stows), 55);
}

// Exceptions under replay reach the caller, and the next phase starts cleanly.
TEST(Replay, ExceptionInAReplayedPhase) {
  replay_runtime rr(3);
  auto t = run_traced(*rr.rt, locus_test::fib(18)).tree;
  auto boom = []() -> locus::task<long> {
    auto a = co_await locus::spawn(locus_test::fib(16));
    auto b = co_await locus::spawn(locus_test::fib(15));
    co_await locus::sync();
    if (a.get() + b.get() > 0) throw std::runtime_error("boom");
    co_return 0;
  };
  for (auto m : k_modes) {
    EXPECT_THROW((void)run_replayed(*rr.rt, boom(), t, m), std::runtime_error);
    EXPECT_EQ(run_replayed(*rr.rt, locus_test::fib(18), t, m), 2584);
  }
}

// ---- designed schedules (the paper's Section IV-B) ----

/// The root hands block i's continuation to worker (i + 1) mod W, so block i runs on worker
/// i mod W: a round-robin distribution of blocks to workers.
locus::task<long> blocks(int count, unsigned workers, std::vector<std::atomic<int>>* ran_on) {
  std::vector<locus::future<long>> f;
  for (int i = 0; i < count; ++i) {
    // gcc 12: no braced initializer inside a co_await expression; name the awaiter first.
    const locus::schedule::designate_after_next_spawn to{(static_cast<unsigned>(i) + 1) % workers};
    co_await to;
    f.push_back(
        co_await locus::spawn([](int i, std::vector<std::atomic<int>>* r) -> locus::task<long> {
          (*r)[static_cast<std::size_t>(i)].store(locus::this_worker::index());
          replay_test::leaf_work(20000);
          co_return i;
        }(i, ran_on)));
  }
  co_await locus::sync();
  long s = 0;
  for (auto& x : f)
    s += x.get();
  co_return s;
}

class Designed : public ::testing::TestWithParam<unsigned> {};

TEST_P(Designed, BlocksRunWhereDesignatedAndTheScheduleReplays) {
  const unsigned w = GetParam();
  replay_runtime rr(w);
  std::vector<std::atomic<int>> ran(12);
  auto d = run_designed(*rr.rt, blocks(12, w, &ran), replay_mode::stuws);
  EXPECT_EQ(d.value, 66);
  for (int i = 0; i < 12; ++i)
    EXPECT_EQ(ran[static_cast<std::size_t>(i)].load(),
              static_cast<int>(static_cast<unsigned>(i) % w))
        << "block " << i;
  EXPECT_NO_THROW(d.tree.validate());
  // The designed schedule is a steal tree like any other: replay it strictly.
  for (auto m : k_modes) {
    if (m == replay_mode::relws) continue;
    std::vector<std::atomic<int>> again(12);
    auto plain = [](int count, std::vector<std::atomic<int>>* r) -> locus::task<long> {
      std::vector<locus::future<long>> f;
      for (int i = 0; i < count; ++i) {
        f.push_back(
            co_await locus::spawn([](int i, std::vector<std::atomic<int>>* r) -> locus::task<long> {
              (*r)[static_cast<std::size_t>(i)].store(locus::this_worker::index());
              replay_test::leaf_work(20000);
              co_return i;
            }(i, r)));
      }
      co_await locus::sync();
      long s = 0;
      for (auto& x : f)
        s += x.get();
      co_return s;
    };
    EXPECT_EQ(run_replayed(*rr.rt, plain(12, &again), d.tree, m), 66);
    for (int i = 0; i < 12; ++i)
      EXPECT_EQ(again[static_cast<std::size_t>(i)].load(), ran[static_cast<std::size_t>(i)].load())
          << to_string(m) << " block " << i;
  }
  // Under relws the same designations hold; idle workers may also steal.
  std::vector<std::atomic<int>> rel(12);
  EXPECT_EQ(run_designed(*rr.rt, blocks(12, w, &rel), replay_mode::relws).value, 66);
}

INSTANTIATE_TEST_SUITE_P(Workers, Designed, ::testing::Values(1u, 2u, 3u, 4u));

// The validity rule: a frame whose parent's continuation was not designated at its spawn
// does not head a phase, and may not designate.
TEST(DesignedInvalid, NestedFrameWithoutStolenParentContinuation) {
  replay_runtime rr(2);
  auto child = []() -> locus::task<int> {
    const locus::schedule::designate_after_next_spawn to{1};
    co_await to;
    auto x = co_await locus::spawn(locus_test::fib(5));
    co_await locus::sync();
    co_return static_cast<int>(x.get());
  };
  auto root = [](decltype(child) c) -> locus::task<int> {
    auto a = co_await locus::spawn(c());  // not designated: the child is not a phase head
    co_await locus::sync();
    co_return a.get();
  };
  try {
    (void)run_designed(*rr.rt, root(child));
    FAIL() << "no error";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("level 1"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("stolen continuation"), std::string::npos);
  }
  // The same nested designation is valid once the parent's continuation is designated.
  auto valid = [](decltype(child) c) -> locus::task<int> {
    const locus::schedule::designate_after_next_spawn to{1};
    co_await to;
    auto a = co_await locus::spawn(c());
    co_await locus::sync();
    co_return a.get();
  };
  auto ok = run_designed(*rr.rt, valid(child));
  EXPECT_EQ(ok.value, 5);
  EXPECT_NO_THROW(ok.tree.validate());
}

TEST(DesignedInvalid, WorkerOutOfRangeAndOutsideADesignedPhase) {
  replay_runtime rr(2);
  auto bad_worker = []() -> locus::task<int> {
    const locus::schedule::designate_after_next_spawn to{7};
    co_await to;
    co_return 0;
  };
  EXPECT_THROW((void)run_designed(*rr.rt, bad_worker()), std::out_of_range);
  auto designates = []() -> locus::task<int> {
    const locus::schedule::designate_after_next_spawn to{1};
    co_await to;
    auto a = co_await locus::spawn(locus_test::fib(5));
    co_await locus::sync();
    co_return static_cast<int>(a.get());
  };
  EXPECT_THROW((void)rr.rt->run(designates()), std::logic_error);
  auto t = run_traced(*rr.rt, locus_test::fib(10)).tree;
  EXPECT_THROW((void)run_replayed(*rr.rt, designates(), t, replay_mode::stuws), std::logic_error);
  EXPECT_THROW((void)run_designed(*rr.rt, designates(), replay_mode::stows), std::invalid_argument);
  EXPECT_EQ(run_designed(*rr.rt, designates()).value, 5);
}

// A buffer of one: donations beyond it stay with their donor; nothing is lost or hangs.
TEST(Replay, FullBuffersKeepWorkLocally) {
  locus::schedule::replay_options o;
  o.buffer_capacity = 1;
  replay_runtime rr(4, o);
  std::vector<std::atomic<int>> ran(40);
  auto d = run_designed(*rr.rt, blocks(40, 4, &ran), replay_mode::stuws);
  EXPECT_EQ(d.value, 780);
  observed obs(tree_nodes(9));
  auto t = run_traced(*rr.rt, tree(9, 1, &obs, 1000)).tree;
  for (auto m : {replay_mode::stuws, replay_mode::relws}) {
    observed again(tree_nodes(9));
    EXPECT_EQ(run_replayed(*rr.rt, tree(9, 1, &again, 1000), t, m), 512);
    EXPECT_TRUE(again.every_node_once());
  }
}

}  // namespace

namespace {

/// fib that asks, at every frame, whether its spawns can still be stolen; if not it recurses
/// serially (dynamic coarsening). Counts the frames that went serial.
long serial_fib(int n) {
  return n < 2 ? n : serial_fib(n - 1) + serial_fib(n - 2);
}

locus::task<long> coarse_fib(int n, std::atomic<long>* serial) {
  if (n < 2) co_return n;
  if (!co_await locus::schedule::may_be_stolen_below()) {
    serial->fetch_add(1, std::memory_order_relaxed);
    co_return serial_fib(n);
  }
  auto a = co_await locus::spawn(coarse_fib(n - 1, serial));
  long b = co_await coarse_fib(n - 2, serial);
  co_await locus::sync();
  co_return a.get() + b;
}

// Under a strict replay every frame below the template's last steal point runs serially;
// under relws, outside a replay, or with a template of steals everywhere, nothing does.
TEST(Coarsening, StrictReplayRunsSeriallyBelowTheTemplate) {
  replay_runtime rr(2);
  std::atomic<long> serial{0};
  EXPECT_EQ(rr.rt->run(coarse_fib(20, &serial)), 6765);
  EXPECT_EQ(serial.load(), 0);  // no replay: anything may be stolen
  auto t = run_traced(*rr.rt, locus_test::fib(20)).tree;
  for (auto m : {replay_mode::stows, replay_mode::stuws}) {
    serial = 0;
    EXPECT_EQ(run_replayed(*rr.rt, coarse_fib(20, &serial), t, m), 6765);
    EXPECT_GT(serial.load(), 0) << to_string(m);
  }
  serial = 0;
  EXPECT_EQ(run_replayed(*rr.rt, coarse_fib(20, &serial), t, replay_mode::relws), 6765);
  EXPECT_EQ(serial.load(), 0);
  // A one-node template (a one-worker run): the root itself goes serial.
  serial = 0;
  EXPECT_EQ(run_replayed(*rr.rt, coarse_fib(20, &serial), steal_tree(2, 0), replay_mode::stows),
            6765);
  EXPECT_EQ(serial.load(), 1);
}

}  // namespace

namespace {

// The iterative locality loop: init and kernel with the same spawn structure over one array;
// the helper returns a schedule, and the kernel replayed on it under stows computes the same.
TEST(LocalityLoop, RunsAndReturnsAReplayableSchedule) {
  replay_runtime rr(3);
  std::vector<double> data(1 << 12, 0.0);
  // Blocks of 64 elements; each leaf touches its block.
  struct fns {
    static locus::task<void> walk(double* d, std::size_t lo, std::size_t hi, bool init) {
      if (hi - lo <= 64) {
        for (std::size_t i = lo; i < hi; ++i)
          d[i] = init ? static_cast<double>(i) : d[i] * 0.5 + 1.0;
        co_return;
      }
      const std::size_t mid = lo + (hi - lo) / 2;
      co_await locus::spawn(walk(d, lo, mid, init));
      co_await locus::spawn(walk(d, mid, hi, init));
      co_await locus::sync();
    }
  };
  double* d = data.data();
  const std::size_t n = data.size();
  locus::schedule::locality_loop_options o;
  o.max_iterations = 3;
  o.prune_percent = 50;
  auto r = locus::schedule::locality_loop(
      *rr.rt, [&] { return fns::walk(d, 0, n, true); }, [&] { return fns::walk(d, 0, n, false); },
      o);
  EXPECT_GE(r.iterations, 1u);
  EXPECT_LE(r.iterations, 3u);
  EXPECT_EQ(r.kernel_seconds.size(), r.iterations);
  EXPECT_NO_THROW(r.schedule.validate(locus::schedule::validity_rule::with_calls));
  run_replayed(*rr.rt, fns::walk(d, 0, n, true), r.schedule, replay_mode::stows);
  run_replayed(*rr.rt, fns::walk(d, 0, n, false), r.schedule, replay_mode::stows);
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_EQ(data[i], static_cast<double>(i) * 0.5 + 1.0) << i;
}

TEST(LocalityLoop, NeedsTheReplayScheduler) {
  locus::runtime rt{replay_test::cfg(2)};
  auto none = []() -> locus::task<void> { co_return; };
  EXPECT_THROW((void)locus::schedule::locality_loop(rt, none, none), std::logic_error);
}

}  // namespace

namespace {

// Templates recorded under help-first and SLAW's adaptive rule (child steals, kind child):
// valid for replay, and replayed on the replay scheduler in every mode, every task once.
TEST(HelpFirstTemplates, RecordChildStealsAndReplay) {
  for (auto pol : {locus::spawn_policy::help_first, locus::spawn_policy::adaptive}) {
    locus::config c = replay_test::cfg(3);
    c.policy = pol;
    locus::runtime rt{c};
    replay_runtime rr(3);
    for (int round = 0; round < 4; ++round) {
      observed first(tree_nodes(8));
      auto t = run_traced(rt, tree(8, 1, &first, 2000)).tree;
      ASSERT_NO_THROW(t.validate(locus::schedule::validity_rule::with_calls));
      if (pol == locus::spawn_policy::help_first) {
        for (locus::schedule::node_id i = 1; i < t.size(); ++i)
          EXPECT_EQ(t.node(i).kind, locus::schedule::steal_kind::child);
      }
      for (auto m : k_modes) {
        observed again(tree_nodes(8));
        EXPECT_EQ(run_replayed(*rr.rt, tree(8, 1, &again, 2000), t, m), 256);
        EXPECT_TRUE(again.every_node_once());
      }
    }
  }
}

}  // namespace

namespace {

// A replayed phase's own trace is a valid template too, in every mode, including relws
// (whose random steals can meet a point a donation already took: extraction keeps the first),
// and it replays again: the iterative loop's chain of schedules.
TEST(ReplayTrace, TracesOfReplayedPhasesAreValidTemplates) {
  replay_runtime rr(4);
  for (auto m : k_modes) {
    observed first(tree_nodes(9));
    auto t = run_traced(*rr.rt, tree(9, 1, &first, 1500)).tree;
    for (int round = 0; round < 5; ++round) {
      observed obs(tree_nodes(9));
      auto r = run_replayed_traced(*rr.rt, tree(9, 1, &obs, 1500), t, m);
      EXPECT_EQ(r.value, 512);
      EXPECT_TRUE(obs.every_node_once());
      EXPECT_NO_THROW(r.tree.validate(locus::schedule::validity_rule::with_calls));
      t = std::move(r.tree);
    }
  }
}

}  // namespace
