// Workers progress the communication worker's requests (options::worker_progress, engine::help;
// docs/design/0014-mpi.md, "Workers progress between graph tasks"): a dist_graph task's end is
// a progress step under direct start only, the communication worker's lazy step grows to
// busy_sleep while workers step, a step never runs context::call's function on a worker, and
// an idle worker keeps stepping while an import is pending (options::idle_progress).
// Each test runs its graph on a runtime of its own with one worker.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <span>
#include <thread>
#include <vector>

#include "mpi_support.hpp"

namespace df = locus::dataflow;
namespace mpi = locus::mpi;
using locus_mpi_test::ctx;
using locus_mpi_test::one_worker;
using locus_mpi_test::progress_guard;

namespace {

using namespace std::chrono_literals;

void spin_for(std::chrono::microseconds d) {
  const auto end = std::chrono::steady_clock::now() + d;
  while (std::chrono::steady_clock::now() < end) {
  }
}

/// A chain of `n` local tasks of `each` in a dist_graph (every rank builds the same one; no
/// key crosses ranks), waited for: returns the progress steps the workers made meanwhile.
/// The workers' progress steps made (`steps`) and tried (`tries`) over a chain.
struct chain_counts {
  std::uint64_t steps = 0, tries = 0, graph_tries = 0;
  std::chrono::steady_clock::duration took{};  ///< the graph's life, creation to destruction
};

chain_counts chain_step_counts(locus::runtime& rt, int n, std::chrono::microseconds each) {
  const auto before = ctx().stats();
  const auto t0 = std::chrono::steady_clock::now();
  {
    mpi::dist_graph dg(rt, [](std::uint64_t) { return 0; });
    df::event<int> prev;
    prev.satisfy(0);
    for (int i = 0; i < n; ++i) {
      df::event<int> next;
      auto t = dg.task(1, [next, each](df::edt_args& in) mutable {
        spin_for(each);
        next.satisfy(in.get<int>(0) + 1);
      });
      df::add_dependence(prev, t, 0);
      prev = next;
    }
    dg.wait();
  }
  const auto took = std::chrono::steady_clock::now() - t0;
  const auto after = ctx().stats();
  return {after.worker_steps - before.worker_steps,
          after.worker_step_tries - before.worker_step_tries,
          after.worker_graph_step_tries - before.worker_graph_step_tries, took};
}

std::uint64_t chain_steps(locus::runtime& rt, int n, std::chrono::microseconds each) {
  return chain_step_counts(rt, n, each).steps;
}

/// chain_steps with a receive of the communication worker's pending meanwhile (a step with
/// nothing but the module's background receives to test is skipped: engine::help).
chain_counts chain_steps_pending(locus::runtime& rt, int tag) {
  const int rank = ctx().rank();
  long in = 0, out = 9;
  auto r = mpi::irecv(std::span(&in, 1), rank, tag);  // off the workers: pending until the send
  const chain_counts c = chain_step_counts(rt, 40, 2ms);
  mpi::isend(std::span(&out, 1), rank, tag).wait();
  r.wait();
  EXPECT_EQ(in, 9);
  return c;
}

TEST(MpiProgress, AGraphTaskEndIsAProgressStepOnlyWithDirectStartAndWorkerProgress) {
  auto rt = one_worker();
  {
    const progress_guard g(true, 10ms);
    const chain_counts c = chain_steps_pending(rt, 80);
    if (ctx().direct()) {
      // Every task end with the request pending tries a step (the hint `m_user_pending` is
      // set by the first step after the receive started, and the inbox holds it before that):
      // 40 tries, a few fewer if a stale hint was read. How many get the lock depends on the
      // communication worker, which polls every 2-500 µs with a request pending and the
      // shared runtime's worker idle, taking the lock each time (with 4 ranks on 2 loaded
      // cores, preempted inside it at times): 3-18 of 40 seen, so only "some" is asserted.
      EXPECT_GE(c.tries, 30u);
      EXPECT_GE(c.steps, 1u);
      EXPECT_LE(c.steps, c.tries);
    } else {
      EXPECT_EQ(c.tries, 0u);  // funneled: only the communication worker calls MPI
    }
    // With no request of the program pending, a graph alive still has a step to make: other
    // ranks' requests for its values (2026-11-27d). A task end tries one if the last such try
    // was k_graph_step (100 µs) ago or more: nearly every end of 2 ms tasks, and over tasks of
    // 5 µs at most one per 100 µs of the graph's life. (Other tries: the few task ends that
    // find the graph's own ops in the inbox, or a stale hint.)
    if (ctx().direct()) {
      EXPECT_GE(chain_step_counts(rt, 40, 2ms).graph_tries, 30u);
      const chain_counts fine = chain_step_counts(rt, 400, 5us);
      const auto bound = static_cast<std::uint64_t>(fine.took / 100us) + 2;
      EXPECT_LE(fine.graph_tries, bound)
          << "400 tasks of 5 µs in " << std::chrono::duration<double, std::micro>(fine.took).count()
          << " µs";
      EXPECT_LE(fine.graph_tries, fine.tries);
    }
  }
  const progress_guard off(false, 10ms);
  EXPECT_EQ(chain_steps_pending(rt, 81).tries, 0u);
}

locus::task<void> spin_until(const std::atomic<bool>& stop) {
  while (!stop.load())
    std::this_thread::yield();
  co_return;
}
locus::task<void> occupy(unsigned n, const std::atomic<bool>& stop) {
  for (unsigned i = 0; i < n; ++i)
    co_await locus::spawn(spin_until(stop));
  co_await locus::sync();
}

/// The communication worker's lazy sleeps while every worker computes (`compute()`: on `rt`,
/// the shared runtime's workers spinning) and a receive it holds is pending.
template <class Compute>
std::uint64_t lazy_sleeps_while(int tag, Compute compute) {
  std::atomic<bool> stop{false};
  std::thread others(
      [&] { locus_mpi_test::run(occupy(locus_mpi_test::rt().num_workers(), stop)); });
  const int rank = ctx().rank();
  long in = 0, out = 5;
  auto r = mpi::irecv(std::span(&in, 1), rank, tag);  // off the workers: the communication
                                                      // worker's, pending until the send
  const auto before = ctx().stats();
  compute();
  const auto after = ctx().stats();
  stop = true;
  others.join();
  mpi::isend(std::span(&out, 1), rank, tag).wait();
  r.wait();
  EXPECT_EQ(in, 5);
  return after.lazy_sleeps - before.lazy_sleeps;
}

/// lazy_sleeps_while a chain of 100 graph tasks of 3 ms runs on `rt`.
std::uint64_t lazy_sleeps_while_computing(locus::runtime& rt, int tag) {
  return lazy_sleeps_while(tag, [&rt] { (void)chain_steps(rt, 100, 3ms); });
}

// ~300 ms of computing: with max_sleep steps (500 µs) the communication worker sleeps lazily
// hundreds of times; with the workers stepping and busy_sleep 1 s, a few times (the first sleeps
// before any step, and those cut short by a submission or a worker turning idle). With 4 ranks on
// 2 loaded cores both stretch: 27 against 99 was seen, hence a factor 2 only.
TEST(MpiProgress, WhileWorkersStepTheCommunicationWorkerSleepsBusySleepSteps) {
  auto rt = one_worker();
  std::uint64_t on = 0, off = 0;
  {
    const progress_guard g(false, 1s);
    off = lazy_sleeps_while_computing(rt, 90);
  }
  {
    const progress_guard g(true, 1s);
    on = lazy_sleeps_while_computing(rt, 91);
  }
  EXPECT_GE(off, 20u);
  if (ctx().direct())
    EXPECT_LT(on * 2, off) << "lazy sleeps with worker progress " << on << ", without " << off;
  else
    EXPECT_GE(on, 20u);  // funneled: no worker steps, so max_sleep steps as without
}

// Fork/join tasks make no progress steps: a worker that steps while idle between them (its
// deque ran empty) does not stretch the communication worker's sleeps to busy_sleep, or a
// rendezvous waits for that step (2026-11-27f: a heat step's exchange, whose receive then
// moved on about once per 2 ms step instead of every 500 µs). 100 runs of 3 ms on `rt`, each a
// plain task, the worker idle between them: as many lazy sleeps with worker progress on (and
// busy_sleep 200 ms, after a pause that outlasts the graph tasks' steps of the tests before) as
// with it off, within a factor 2. Before the fix: about one per run (each cut short by the
// worker turning idle) against ~5 without.
TEST(MpiProgress, AnIdleWorkersStepDoesNotStretchTheLazySleep) {
  auto rt = one_worker();
  const auto runs = [&rt] {
    for (int i = 0; i < 100; ++i)
      ctx().run(rt, []() -> locus::task<void> {
        spin_for(3ms);
        co_return;
      }());
  };
  std::uint64_t on = 0, off = 0;
  {
    const progress_guard g(false, 1s);
    off = lazy_sleeps_while(92, runs);
  }
  {
    const progress_guard g(true, 200ms);
    std::this_thread::sleep_for(250ms);
    on = lazy_sleeps_while(93, runs);
  }
  // More ranks than hardware threads (4 on 2 cores): the sleeps stretch with the scheduler, on
  // and off alike (61-434 with, 121-495 without was seen), so only some sleeps are asserted.
  // At most one rank per hardware thread both are ~490, and ~10-50 with the bug.
  if (static_cast<unsigned>(ctx().size()) > std::thread::hardware_concurrency()) {
    EXPECT_GE(off, 20u);
    return;
  }
  EXPECT_GE(off, 200u);
  EXPECT_GE(on * 2, off) << "lazy sleeps with worker progress " << on << ", without " << off;
}

// options::idle_progress: a reader's worker runs a task, then its deque runs empty while the
// value its other task waits on is still on its way (the owner makes it 50 ms after every
// reader's first task ended): with a window the worker steps again and again
// (idle_steps_pending) instead of one step, then the park; with 0 (the default) it makes one
// step, then looks for work.
/// Over one such wait on this rank: the idle workers' repeated steps, and (for the failure
/// message) their parks with a receive pending and the steps tried.
struct idle_counts {
  std::uint64_t again = 0, parks = 0, tries = 0;
};
idle_counts steps_again_waiting_for_a_value(std::chrono::microseconds window, int tag) {
  ctx().set_idle_progress(window);
  auto rt = one_worker();
  const int rank = ctx().rank();
  long got = 0;
  std::atomic<bool> ran{false};  // a reader's first task ended
  const auto before = ctx().stats();
  {
    mpi::dist_graph dg(rt, [](std::uint64_t) { return 0; });
    df::event<int> go;
    go.satisfy(0);
    auto value = dg.event<long>(1);
    if (rank == 0) {
      // Off the workers: the value is made once every reader's worker ran its first task and
      // is idle (a fixed delay alone failed at 4 ranks on 2 cores: a reader starved of the core
      // for longer found the value there at its first idle step).
      long token = 0;
      for (int r = 1; r < ctx().size(); ++r)
        (void)mpi::irecv(std::span(&token, 1), r, tag).wait();
      std::this_thread::sleep_for(50ms);
      value.satisfy(7);
    } else {
      // The worker's first task, so that its deque runs empty (before_idle) with the import
      // pending; the import was posted when the event was asked for, above.
      auto first = dg.task(1, [&ran](df::edt_args&) {
        spin_for(2ms);
        ran.store(true);
      });
      df::add_dependence(go, first, 0);
      auto read = dg.task(1, [&got](df::edt_args& in) { got = in.get<long>(0); });
      df::add_dependence(value, read, 0);
      while (!ran.load())
        std::this_thread::yield();
      const long token = 1;
      (void)mpi::isend(std::span(&token, 1), 0, tag).wait();
    }
    dg.wait();
  }
  const auto after = ctx().stats();
  ctx().set_idle_progress(ctx().opts().idle_progress);
  if (rank != 0) EXPECT_EQ(got, 7);
  return {after.idle_steps_pending - before.idle_steps_pending,
          after.idle_parks_pending - before.idle_parks_pending,
          after.worker_step_tries - before.worker_step_tries};
}

TEST(MpiProgress, AnIdleWorkerKeepsSteppingWhileAnImportIsPending) {
  const idle_counts on = steps_again_waiting_for_a_value(2ms, 95);
  const idle_counts off = steps_again_waiting_for_a_value(0us, 96);
  EXPECT_EQ(off.again, 0u) << "idle_progress 0: one step, then the worker looks for work";
  if (ctx().rank() == 0) return;  // the owner computes meanwhile
  if (ctx().direct())
    EXPECT_GT(on.again, 0u) << "the idle reader stepped once, then looked for work (parks with "
                            << "a receive pending " << on.parks << ", steps tried " << on.tries
                            << ")";
  else
    EXPECT_EQ(on.again, 0u);  // funneled: workers make no steps at all
}

// context::call runs the program's function on the communication worker, never in a worker's
// step: a step that meets its op in the inbox leaves it, and every later op, to the
// communication worker. Workers try a step every ~20 µs here while another thread calls (a
// stress test: it catches a step that runs a call when one meets a call's op in the inbox).
TEST(MpiProgress, AWorkerStepNeverRunsAContextCall) {
  const progress_guard g(true, 10ms);
  auto rt = one_worker();
  std::atomic<bool> done{false};
  std::atomic<int> on_worker{0}, calls{0};
  std::thread caller([&] {
    while (!done.load()) {
      ctx().call([&] {
        if (locus::this_worker::index() >= 0) on_worker.fetch_add(1);
      });
      calls.fetch_add(1);
    }
  });
  const std::uint64_t steps = chain_steps(rt, 3000, 20us);
  done = true;
  caller.join();
  EXPECT_EQ(on_worker.load(), 0);
  EXPECT_GT(calls.load(), 0);
  // Not asserted: how many steps ran (with 4 ranks on 2 cores the communication worker, busy
  // with the calls, may hold the progress lock for every attempt) or met a call's op.
  (void)steps;
}

}  // namespace
