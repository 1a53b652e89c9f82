// Schedulers as strategies (locus/ext/scheduler.hpp): the built-in slaw and cilk, and a
// scheduler made of a custom acquisition and spawn rule, plugged in through config.
#include <locus/locus.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <set>

#include "test_support.hpp"

namespace {

locus::config base(unsigned workers) {
  locus::config c;
  c.workers = workers;
  c.pin = false;
  c.topology = "sockets=2,cores=2";
  return c;
}

TEST(Scheduler, SlawIsTheDefaultAndKeepsTheConfiguredFields) {
  locus::config c = base(4);
  c.places = "socket";
  locus::runtime rt{c};
  EXPECT_EQ(rt.scheduler_name(), "slaw");
  EXPECT_EQ(rt.num_places(), 2u);
  EXPECT_EQ(rt.cfg().policy, locus::spawn_policy::adaptive);
  EXPECT_EQ(rt.run(locus_test::fib(20)), 6765);
}

// Cilk: every spawn work-first, one place for all workers, random victims, whatever the SLAW
// fields say.
TEST(Scheduler, CilkSpawnsWorkFirstInOnePlaceWithRandomVictims) {
  locus::config c = base(4);
  c.scheduler = locus::scheduler_kind::cilk;
  c.policy = locus::spawn_policy::help_first;  // not used by cilk
  c.places = "socket";                         // not used by cilk
  locus::runtime rt{c};
  EXPECT_EQ(rt.scheduler_name(), "cilk");
  EXPECT_EQ(rt.num_places(), 1u);
  EXPECT_EQ(rt.cfg().policy, locus::spawn_policy::work_first);
  EXPECT_EQ(rt.cfg().victims, locus::victim_policy::random);
  rt.reset_stats();
  EXPECT_EQ(rt.run(locus_test::fib(22)), 17711);
  const auto t = rt.stats().total();
  EXPECT_EQ(t.spawns_help_first, 0u);
  EXPECT_EQ(t.spawns_work_first, 28656u);  // fib(22)'s internal calls: fib(23) - 1
}

// An acquisition that wraps SLAW's and records who looked: the worker loop asks the strategy,
// and the strategy reaches the workers only through worker_ref.
class counting_acquisition final : public locus::ext::acquisition {
 public:
  bool acquire(locus::ext::worker_ref w, locus::ext::work_item& out) override {
    looks.fetch_add(1, std::memory_order_relaxed);
    const bool got = m_inner->acquire(w, out);
    if (got) {
      std::lock_guard lk(m_mutex);
      takers.insert(w.index());
    }
    return got;
  }
  [[nodiscard]] std::string_view name() const noexcept override { return "counting"; }
  std::atomic<std::uint64_t> looks{0};
  std::set<unsigned> takers;

 private:
  std::shared_ptr<locus::ext::acquisition> m_inner = locus::ext::slaw_acquisition();
  std::mutex m_mutex;
};

/// Work-first at even spawn indices, help-first at odd ones; counts its calls.
class alternating_rule final : public locus::ext::spawn_rule {
 public:
  bool work_first(locus::ext::worker_ref, std::uint32_t, std::uint32_t spawn_index) override {
    calls.fetch_add(1, std::memory_order_relaxed);
    return spawn_index % 2 == 0;
  }
  [[nodiscard]] std::string_view name() const noexcept override { return "alternating"; }
  std::atomic<std::uint64_t> calls{0};
};

locus::task<long> fan(int n) {
  std::vector<locus::future<long>> fs;
  for (int i = 0; i < n; ++i)
    fs.push_back(co_await locus::spawn(locus_test::fib(12)));
  co_await locus::sync();
  long s = 0;
  for (auto& f : fs)
    s += f.get();
  co_return s;
}

TEST(Scheduler, CustomStrategiesDecideAcquisitionAndSpawns) {
  auto acq = std::make_shared<counting_acquisition>();
  auto rule = std::make_shared<alternating_rule>();
  auto sched = std::make_shared<locus::ext::scheduler>();
  sched->name = "test-custom";
  sched->acquire = acq;
  sched->spawn = rule;
  locus::config c = base(2);
  c.custom_scheduler = sched;
  locus::runtime rt{c};
  EXPECT_EQ(rt.scheduler_name(), "test-custom");
  rt.reset_stats();
  EXPECT_EQ(rt.run(fan(10)), 10 * 144);
  const auto t = rt.stats().total();
  // Every spawn without an explicit policy asked the rule: fan's 10 and fib(12)'s 10 x 232.
  EXPECT_EQ(rule->calls.load(), 10u + 10u * 232u);
  EXPECT_EQ(t.spawns_work_first + t.spawns_help_first, rule->calls.load());
  EXPECT_GT(t.spawns_help_first, 0u);
  EXPECT_GT(t.spawns_work_first, 0u);
  EXPECT_GT(acq->looks.load(), 0u);
  EXPECT_FALSE(acq->takers.empty());  // the root, at least, came through it
}

/// Decides only the spawns of the root (level 0), work-first, and gives every child the slot
/// k_builtin, so nothing below the root should reach it again.
class root_only_rule final : public locus::ext::spawn_rule {
 public:
  bool work_first(locus::ext::worker_ref, std::uint32_t, std::uint32_t) override { return true; }
  void place(locus::ext::worker_ref, locus::ext::spawn_site& s) override {
    calls.fetch_add(1, std::memory_order_relaxed);
    if (s.level != 0) deeper.fetch_add(1, std::memory_order_relaxed);
    s.work_first = true;
    s.child_slot = locus::ext::spawn_site::k_builtin;
  }
  [[nodiscard]] std::string_view name() const noexcept override { return "root-only"; }
  std::atomic<std::uint64_t> calls{0};
  std::atomic<std::uint64_t> deeper{0};
};

TEST(Scheduler, AFrameWithTheBuiltinSlotSpawnsWithoutAskingTheRule) {
  auto rule = std::make_shared<root_only_rule>();
  auto sched = std::make_shared<locus::ext::scheduler>();
  sched->name = "root-only";
  sched->acquire = locus::ext::slaw_acquisition();
  sched->spawn = rule;
  for (unsigned workers : {1U, 2U, 4U}) {
    rule->calls = 0;
    rule->deeper = 0;
    locus::config c = base(workers);
    c.custom_scheduler = sched;
    locus::runtime rt{c};
    rt.reset_stats();
    EXPECT_EQ(rt.run(fan(10)), 10 * 144);
    // The root's 10 spawns asked the rule; fib(12)'s 10 x 232 spawns, below children that
    // carry k_builtin (and called frames that inherit it), took the inline work-first path.
    EXPECT_EQ(rule->calls.load(), 10u) << workers << " workers";
    EXPECT_EQ(rule->deeper.load(), 0u) << workers << " workers";
    const auto t = rt.stats().total();
    EXPECT_EQ(t.spawns_work_first, 10u + 10u * 232u) << workers << " workers";
    EXPECT_EQ(t.spawns_help_first, 0u) << workers << " workers";
  }
}

TEST(Scheduler, CustomSchedulerWithoutAcquisitionIsAConfigError) {
  auto sched = std::make_shared<locus::ext::scheduler>();
  sched->name = "empty";
  locus::config c = base(1);
  c.custom_scheduler = sched;
  try {
    locus::runtime rt{c};
    FAIL() << "no config_error";
  } catch (const locus::config_error& e) {
    EXPECT_NE(std::string(e.what()).find("custom_scheduler \"empty\" has no acquisition"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
