// The one door (locus/ext/): core_ref, observers, shared pools and the placements a spawn rule
// may choose (docs/design/0011-one-door.md).
#include <locus/ext/core.hpp>
#include <locus/ext/data.hpp>
#include <locus/ext/observer.hpp>
#include <locus/ext/pool.hpp>
#include <locus/locus.hpp>
#include <locus/schedule/replay.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "test_support.hpp"

namespace {

locus::config base(unsigned workers) {
  locus::config c;
  c.workers = workers;
  c.pin = false;
  c.topology = "sockets=2,cores=2";
  return c;
}

/// Counts what the core tells observers, and checks the idle events' order per worker.
class counting_observer final : public locus::ext::observer {
 public:
  explicit counting_observer(unsigned workers) : m_state(workers) {}
  void on_pickup(locus::ext::worker_ref& w, locus::ext::task_ref t,
                 const locus::ext::pickup& p) noexcept override {
    (p.from_worker() ? from_workers : from_pools).fetch_add(1, std::memory_order_relaxed);
    if (p.from_worker() && p.from == w.index()) bad.fetch_add(1, std::memory_order_relaxed);
    if (t.is_frame() && p.continuation && t.next_spawn() == 0)
      bad.fetch_add(1, std::memory_order_relaxed);  // a continuation follows a spawn
  }
  void on_idle(locus::ext::worker_ref& w, locus::ext::idle_event e) noexcept override {
    using locus::ext::idle_event;
    // Owner-only state: one slot per worker, written by that worker alone. -1: not known yet
    // (installed while the worker was already idle or running): its first event sets it.
    int& s = m_state[w.index()].looking;
    if (s < 0) {
      s = e == idle_event::found || e == idle_event::stopping ? 0 : 1;
      return;
    }
    switch (e) {
      case idle_event::looking:
        if (s != 0) bad.fetch_add(1, std::memory_order_relaxed);
        s = 1;
        break;
      case idle_event::sleeping:
      case idle_event::woken:
        if (s != 1) bad.fetch_add(1, std::memory_order_relaxed);
        if (e == idle_event::sleeping) sleeps.fetch_add(1, std::memory_order_relaxed);
        break;
      case idle_event::found:
      case idle_event::stopping:
        if (s != 1) bad.fetch_add(1, std::memory_order_relaxed);
        s = 0;
        if (e == idle_event::found) found.fetch_add(1, std::memory_order_relaxed);
        break;
    }
  }
  void on_phase(locus::ext::core_ref, const locus::ext::phase_info& info,
                locus::ext::phase_event e) noexcept override {
    std::lock_guard lk(m_mutex);
    phases.push_back(std::string(e == locus::ext::phase_event::begin ? "begin " : "end ") +
                     std::string(info.kind));
  }

  std::atomic<std::uint64_t> from_workers{0}, from_pools{0}, found{0}, sleeps{0}, bad{0};
  std::vector<std::string> phases;  ///< under m_mutex

 private:
  struct alignas(64) per_worker {
    int looking = -1;
  };
  std::vector<per_worker> m_state;
  std::mutex m_mutex;
};

constexpr char k_key = 0;

std::shared_ptr<counting_observer> install(locus::runtime& rt) {
  auto o = locus::ext::core_ref::of(rt).install_once(
      &k_key, [&] { return std::make_shared<counting_observer>(rt.num_workers()); });
  return std::static_pointer_cast<counting_observer>(o);
}

TEST(ExtCore, SeesTheRuntimeAndTheCallingWorker) {
  locus::config c = base(3);
  c.places = "socket";
  locus::runtime rt{c};
  const auto core = locus::ext::core_ref::of(rt);
  EXPECT_EQ(core.num_workers(), 3u);
  EXPECT_EQ(core.num_places(), rt.num_places());
  for (unsigned w = 0; w < 3; ++w)
    EXPECT_EQ(core.place_of(w), rt.place_of(w));
  EXPECT_EQ(core.accounting(), nullptr);          // accounting off
  EXPECT_FALSE(locus::ext::core_ref::current());  // not a worker
  const bool same = rt.run([](locus::ext::core_ref expected) -> locus::task<bool> {
    co_return locus::ext::core_ref::current() ==
        expected&& locus::ext::core_ref::current().is_current();
  }(core));
  EXPECT_TRUE(same);
}

TEST(ExtCore, AccountingIsVisibleWhenOn) {
  locus::config c = base(2);
  c.accounting = true;
  locus::runtime rt{c};
  EXPECT_NE(locus::ext::core_ref::of(rt).accounting(), nullptr);
}

// Every steal the counters count reaches the observers as a pickup from a worker, once; the
// root arrives from a pool.
TEST(ExtObserver, PickupsFromWorkersEqualTheRunsSteals) {
  locus::config c = base(4);
  c.scheduler = locus::scheduler_kind::cilk;
  locus::runtime rt{c};
  auto obs = install(rt);
  EXPECT_EQ(install(rt), obs);  // install_once: the same observer for the same key
  for (int i = 0; i < 3; ++i) {
    rt.reset_stats();
    obs->from_workers = 0;
    obs->from_pools = 0;
    EXPECT_EQ(rt.run(locus_test::fib(24)), 46368);
    const auto t = rt.stats().total();
    // Between runs no deque holds anything, so no steal succeeds after the run returned.
    EXPECT_EQ(obs->from_workers.load(), t.steals_succeeded);
    EXPECT_EQ(obs->from_pools.load(), t.mailbox_takes);
    EXPECT_GE(obs->from_pools.load(), 1u);  // the root
  }
  EXPECT_EQ(obs->bad.load(), 0u);
}

TEST(ExtObserver, IdleEventsComeInOrderAndAnIdleRuntimeSleeps) {
  locus::runtime rt{base(2)};
  auto obs = install(rt);
  EXPECT_EQ(rt.run(locus_test::fib(20)), 6765);
  ASSERT_TRUE(locus_test::wait_until_all_asleep(rt));
  const std::uint64_t found = obs->found.load();
  const std::uint64_t sleeps = obs->sleeps.load();
  EXPECT_EQ(rt.run(locus_test::fib(18)), 2584);  // a root posted to a pool wakes a sleeper
  EXPECT_GT(obs->found.load(), found);           // who took it had been looking
  // ... and sleeps again once idle (observed just after it registered as a sleeper).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (obs->sleeps.load() == sleeps && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_GT(obs->sleeps.load(), sleeps);
  EXPECT_EQ(obs->bad.load(), 0u);
}

// Waking one domain wakes its sleepers only: with a place per socket and no cross-place
// stealing, each place is a domain.
TEST(ExtCore, WakesTheSleepersOfOneDomain) {
  locus::config c = base(4);
  c.places = "socket";  // two places of two workers
  locus::runtime rt{c};
  auto obs = install(rt);
  EXPECT_EQ(rt.run(locus_test::fib(12)), 144);
  ASSERT_TRUE(locus_test::wait_until_all_asleep(rt));
  const std::uint64_t before = obs->sleeps.load();
  const auto core = locus::ext::core_ref::of(rt);
  core.wake_domain_of(0, true);
  // The woken look for work, find none and sleep again: only place 0's two workers do.
  std::uint64_t in_domain = 0;
  for (unsigned w = 0; w < rt.num_workers(); ++w)
    in_domain += rt.place_of(w) == rt.place_of(0) ? 1 : 0;
  ASSERT_EQ(in_domain, 2u);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (obs->sleeps.load() - before < in_domain && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ASSERT_TRUE(locus_test::wait_until_all_asleep(rt));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // room for a wrong extra sleep
  EXPECT_EQ(obs->sleeps.load() - before, in_domain);
  EXPECT_EQ(obs->bad.load(), 0u);
}

TEST(ExtObserver, PhasesBeginAndEndOncePerTracedRun) {
  locus::runtime rt{base(2)};
  auto obs = install(rt);
  auto traced = locus::schedule::run_traced(rt, locus_test::fib(18));
  EXPECT_EQ(traced.value, 2584);
  // Written by run()'s thread, this one.
  ASSERT_EQ(obs->phases.size(), 2u);
  EXPECT_EQ(obs->phases[0], "begin traced");
  EXPECT_EQ(obs->phases[1], "end traced");
  const auto core = locus::ext::core_ref::of(rt);
  EXPECT_EQ(core.phase(), nullptr);
  const locus::ext::phase_info info{"test", "", false};
  ASSERT_TRUE(core.begin_phase(&info));
  EXPECT_EQ(core.phase(), &info);
  EXPECT_FALSE(core.begin_phase(&info));  // one at a time
  EXPECT_THROW((void)locus::schedule::run_traced(rt, locus_test::fib(5)), std::logic_error);
  core.end_phase();
  EXPECT_EQ(locus::schedule::run_traced(rt, locus_test::fib(5)).value, 5);
}

/// A scheduler whose spawn rule sends every stealable part to a pool it owns (or to a place's
/// pool), and whose acquisition takes from that pool before SLAW's order.
class pool_scheduler final : public locus::ext::acquisition,
                             public locus::ext::spawn_rule,
                             public std::enable_shared_from_this<pool_scheduler> {
 public:
  enum class target { own_pool, place };
  pool_scheduler(target t, bool help_first, std::size_t capacity)
      : m_target(t), m_help_first(help_first), pool(capacity) {}

  bool acquire(locus::ext::worker_ref w, locus::ext::work_item& out) override {
    bind_once(w);
    if (w.take_from(pool, out)) {
      taken.fetch_add(1, std::memory_order_relaxed);
      return true;
    }
    return m_inner->acquire(w, out);
  }
  bool work_first(locus::ext::worker_ref, std::uint32_t, std::uint32_t) override {
    return !m_help_first;
  }
  void place(locus::ext::worker_ref w, locus::ext::spawn_site& s) override {
    s.work_first = !m_help_first;
    if (m_target == target::own_pool) {
      bind_once(w);
      s.to_pool = &pool;
    } else {
      s.to_place = (w.place() + 1) % w.num_places();
    }
  }
  [[nodiscard]] std::string_view name() const noexcept override { return "pool-test"; }

  std::shared_ptr<const locus::ext::scheduler> scheduler() {
    auto s = std::make_shared<locus::ext::scheduler>();
    s->name = "pool-test";
    s->acquire = shared_from_this();
    s->spawn = shared_from_this();
    return s;
  }

  std::atomic<std::uint64_t> taken{0};

 private:
  void bind_once(locus::ext::worker_ref& w) {
    std::call_once(m_bound, [&] { locus::ext::bind_pool(w.core(), 0, pool); });
  }
  target m_target;
  bool m_help_first;
  std::shared_ptr<locus::ext::acquisition> m_inner = locus::ext::slaw_acquisition();
  std::once_flag m_bound;

 public:
  locus::ext::shared_pool pool;
};

TEST(ExtPool, SpawnRuleSendsStealablePartsToItsOwnPool) {
  for (const bool help_first : {false, true}) {
    auto sched = std::make_shared<pool_scheduler>(pool_scheduler::target::own_pool, help_first,
                                                  locus::ext::shared_pool::k_unbounded);
    locus::config c = base(2);
    c.custom_scheduler = sched->scheduler();
    locus::runtime rt{c};
    EXPECT_EQ(rt.run(locus_test::fib(20)), 6765);
    EXPECT_GT(sched->taken.load(), 0u) << "help_first=" << help_first;
    EXPECT_EQ(sched->pool.size_hint(), 0u);  // everything placed there ran
    EXPECT_TRUE(sched->pool.bound());
  }
}

// A full pool refuses; the spawn keeps the part on its own deque, and the run is still exact.
TEST(ExtPool, AFullPoolFallsBackToTheOwnDeque) {
  auto sched =
      std::make_shared<pool_scheduler>(pool_scheduler::target::own_pool, true, std::size_t{1});
  locus::config c = base(1);
  c.custom_scheduler = sched->scheduler();
  locus::runtime rt{c};
  rt.reset_stats();
  EXPECT_EQ(rt.run(locus_test::fib(16)), 987);
  // One worker: a fresh child sits in the pool until the worker looks there, so most of the
  // 1596 children (fib(17) - 1) went to the deque instead.
  EXPECT_GE(sched->taken.load(), 1u);
  EXPECT_LT(sched->taken.load(), 1596u);
  EXPECT_EQ(rt.stats().total().spawns_help_first, 1596u);
}

TEST(ExtPool, SpawnRuleSendsStealablePartsToAnotherPlace) {
  auto sched = std::make_shared<pool_scheduler>(pool_scheduler::target::place, true,
                                                locus::ext::shared_pool::k_unbounded);
  locus::config c = base(2);
  c.topology = "sockets=2,cores=1";  // a worker per socket
  c.places = "socket";
  c.custom_scheduler = sched->scheduler();
  locus::runtime rt{c};
  ASSERT_EQ(rt.num_places(), 2u);
  rt.reset_stats();
  EXPECT_EQ(rt.run(locus_test::fib(18)), 2584);
  // Every child went to the other place's pool: taken from a pool, never from a deque.
  const auto t = rt.stats().total();
  EXPECT_GE(t.mailbox_takes, 4180u);  // fib(18)'s spawns: fib(19) - 1
  EXPECT_EQ(t.steals_succeeded, 0u);
}

/// A spawn rule that records the bytes each child declared, as it sees them at the spawn.
class data_rule final : public locus::ext::spawn_rule {
 public:
  bool work_first(locus::ext::worker_ref, std::uint32_t, std::uint32_t) override { return true; }
  void place(locus::ext::worker_ref, locus::ext::spawn_site& s) override {
    const locus::ext::declared_data d = locus::ext::declared_data_of(s.child);
    std::lock_guard lk(m);
    bytes.push_back(d.bytes);
    ranges.push_back(d.ranges.size());
  }
  [[nodiscard]] std::string_view name() const noexcept override { return "data-test"; }
  std::mutex m;
  std::vector<std::size_t> bytes, ranges;
};

locus::task<int> touch_nothing() {
  co_return 1;
}

locus::task<int> spawn_with_data(const int* a) {
  auto x = co_await locus::spawn(
      locus::with_data(touch_nothing(), locus::data_range::of(a, 100, locus::access::read)));
  auto y = co_await locus::spawn(touch_nothing());  // no data of its own
  co_await locus::sync();
  co_return x.get() + y.get();
}

// The child's declared ranges and bytes reach the spawn rule with accounting off.
TEST(ExtData, TheSpawnRuleSeesTheChildsDeclaredData) {
  auto rule = std::make_shared<data_rule>();
  locus::config c = base(1);
  c.accounting = false;
  c.custom_scheduler = std::make_shared<locus::ext::scheduler>(
      locus::ext::scheduler{"data-test", locus::ext::slaw_acquisition(), rule});
  locus::runtime rt{c};
  std::vector<int> a(100);
  EXPECT_EQ(rt.run(spawn_with_data(a.data())), 2);
  ASSERT_EQ(rule->bytes.size(), 2u);
  EXPECT_EQ(rule->bytes[0], 100 * sizeof(int));
  EXPECT_EQ(rule->ranges[0], 1u);
  EXPECT_EQ(rule->bytes[1], 0u);
  EXPECT_EQ(rule->ranges[1], 0u);
}

// Replay's donation buffers are pools bound to one runtime's idle domains: the scheduler may
// not arm them for a second runtime, even one of the same size after the first is gone.
TEST(ExtPool, AReplaySchedulersBuffersServeOneRuntime) {
  auto replay = locus::schedule::make_replay_scheduler();
  locus::config c = base(2);
  c.custom_scheduler = replay->scheduler();
  std::optional<locus::schedule::steal_tree> tree;
  {
    locus::runtime a{c};
    tree = locus::schedule::run_traced(a, locus_test::fib(15)).tree;
    EXPECT_EQ(locus::schedule::run_replayed(a, locus_test::fib(15), *tree,
                                            locus::schedule::replay_mode::stuws),
              610);
  }
  locus::runtime b{c};
  EXPECT_THROW((void)locus::schedule::run_replayed(b, locus_test::fib(15), *tree,
                                                   locus::schedule::replay_mode::stuws),
               std::logic_error);
  EXPECT_EQ(b.run(locus_test::fib(15)), 610);  // the runtime stays usable
}

TEST(ExtPool, PushAndTakeAreFifoAndBounded) {
  locus::ext::shared_pool p(2);
  EXPECT_FALSE(p.bound());
  locus::ext::work_item a{8, 1}, b{16, 2}, c{24, 3}, out;
  EXPECT_TRUE(p.push(a));
  EXPECT_TRUE(p.push(b));
  EXPECT_FALSE(p.push(c));  // full: refused
  EXPECT_EQ(p.size_hint(), 2u);
  ASSERT_TRUE(p.take(out));
  EXPECT_EQ(out.bits, 8u);
  EXPECT_EQ(out.from, 1u);
  ASSERT_TRUE(p.take(out));
  EXPECT_EQ(out.bits, 16u);
  EXPECT_FALSE(p.take(out));
  EXPECT_TRUE(p.empty_seq_cst());
}

}  // namespace
