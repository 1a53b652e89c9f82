// Idle workers poll pending direct requests (src/mpi/poller.hpp, options::worker_poll): a
// receive completes on the task's worker without the communication worker, a request past its
// deadline goes to the communication worker (from an idle worker, which then parks, or from
// the communication worker itself when no worker is idle), and funneled runs never poll.
// Each test runs on a runtime of its own with one worker, so "the idle worker" is that one.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <span>
#include <thread>
#include <vector>

#include "mpi_support.hpp"

namespace mpi = locus::mpi;
using locus_mpi_test::ctx;
using locus_mpi_test::one_worker;

namespace {

using namespace std::chrono_literals;

/// Restores options::worker_poll and worker_poll_per_mib when a test ends.
struct worker_poll_guard {
  explicit worker_poll_guard(std::chrono::microseconds d,
                             std::chrono::microseconds per_mib = ctx().opts().worker_poll_per_mib) {
    ctx().set_worker_poll(d, per_mib);
  }
  ~worker_poll_guard() {
    ctx().set_worker_poll(ctx().opts().worker_poll, ctx().opts().worker_poll_per_mib);
  }
  worker_poll_guard(const worker_poll_guard&) = delete;
  worker_poll_guard& operator=(const worker_poll_guard&) = delete;
};

// The receive is posted before its message exists, so its first MPI_Test leaves it pending;
// the send to this rank then matches it inside MPI, but only a test of the receive's request
// completes the operation: the worker's idle poll, once the task suspends.
locus::task<long> receive_first(int rank) {
  long out = 7 + rank, in = 0;
  auto r = mpi::irecv(std::span(&in, 1), rank, 21);
  co_await mpi::send(std::span(&out, 1), rank, 21);
  co_await r;
  co_return in;
}

TEST(MpiPoll, APendingReceiveCompletesOnTheIdleWorkerWithoutTheCommunicationWorker) {
  const worker_poll_guard g(30s);  // no hand-over, however slow the machine
  auto rt = one_worker();
  const auto before = ctx().stats();
  EXPECT_EQ(ctx().run(rt, receive_first(ctx().rank())), 7 + ctx().rank());
  const auto after = ctx().stats();
  if (ctx().direct()) {
    EXPECT_EQ(after.started - before.started, 0u);  // the communication worker saw neither
    EXPECT_EQ(after.worker_completed - before.worker_completed, 1u);
    EXPECT_GE(after.worker_polls - before.worker_polls, 1u);
    EXPECT_EQ(after.handed_over - before.handed_over, 0u);
  } else {
    // Funneled: both operations through the communication worker; no worker ever polls.
    EXPECT_EQ(after.started - before.started, 2u);
    EXPECT_EQ(after.worker_polls - before.worker_polls, 0u);
    EXPECT_EQ(after.worker_completed - before.worker_completed, 0u);
  }
}

locus::task<long> receive(int rank, long& in, int tag) {
  co_await mpi::recv(std::span(&in, 1), rank, tag);
  co_return in;
}

// The bound: a worker polls a pending request for at most options::worker_poll, then hands it
// to the communication worker and parks. The message comes only once the worker is seen asleep
// (a worker that kept polling would never sleep: the test would fail after 10 s).
TEST(MpiPoll, AWorkerPollsUntilTheDeadlineThenHandsTheRequestOverAndSleeps) {
  if (!ctx().direct()) GTEST_SKIP() << "funneled: workers do not poll";
  const worker_poll_guard g(2ms);
  auto rt = one_worker();
  const int rank = ctx().rank();
  long in = 0, out = 9;
  std::atomic<bool> saw_asleep{false};
  const auto before = ctx().stats();
  std::thread late([&] {
    const auto give_up = std::chrono::steady_clock::now() + 10s;
    while (std::chrono::steady_clock::now() < give_up && !saw_asleep.load()) {
      std::this_thread::sleep_for(1ms);
      // Asleep while the run is in progress, i.e. while the receive is pending.
      if (rt.sleeping_workers() == 1 && ctx().stats().handed_over > before.handed_over)
        saw_asleep = true;
    }
    mpi::isend(std::span(&out, 1), rank, 22).wait();  // off the workers: blocks this thread
  });
  EXPECT_EQ(ctx().run(rt, receive(rank, in, 22)), 9);
  late.join();
  const auto after = ctx().stats();
  EXPECT_TRUE(saw_asleep.load());
  EXPECT_EQ(after.handed_over - before.handed_over, 1u);
  EXPECT_EQ(after.worker_completed - before.worker_completed, 0u);
  EXPECT_GE(after.worker_polls - before.worker_polls, 1u);
}

// A request's window grows with its size (options::worker_poll_per_mib): a 1 MiB receive whose
// message comes 20 ms after it was posted is still the idle worker's when worker_poll alone
// (1 ms) has long passed, and completes there; with worker_poll_per_mib 0 the same receive is
// handed to the communication worker (the message is sent once the hand-over is seen). 60 s per
// MiB: no hand-over however slow the machine. The message is sent only after the receive was
// posted (a loaded machine may start the task late), so the receive is always pending.
locus::task<bool> receive_posted(int rank, std::vector<unsigned char>& in, int tag,
                                 std::atomic<bool>& posted) {
  auto r = mpi::irecv(in, rank, tag);
  const bool pending = !r.ready();
  posted = true;
  co_await r;
  co_return pending;
}

TEST(MpiPoll, ALargeMessageIsPolledForLongerThanASmallOne) {
  if (!ctx().direct()) GTEST_SKIP() << "funneled: workers do not poll";
  const int rank = ctx().rank();
  for (const bool scaled : {true, false}) {
    SCOPED_TRACE(scaled ? "60 s per MiB" : "0 per MiB");
    const worker_poll_guard g(1ms, scaled ? std::chrono::microseconds(60s) : 0us);
    auto rt = one_worker();
    const int tag = scaled ? 24 : 25;
    std::vector<unsigned char> out(std::size_t{1} << 20), in(out.size());
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = static_cast<unsigned char>(i * 7 + rank);
    std::atomic<bool> posted{false};
    const auto before = ctx().stats();
    std::thread late([&] {
      const auto give_up = std::chrono::steady_clock::now() + 10s;
      while (!posted.load() && std::chrono::steady_clock::now() < give_up)
        std::this_thread::sleep_for(1ms);
      std::this_thread::sleep_for(20ms);
      while (!scaled && ctx().stats().handed_over == before.handed_over &&
             std::chrono::steady_clock::now() < give_up)
        std::this_thread::sleep_for(1ms);
      mpi::isend(out, rank, tag).wait();  // off the workers: the communication worker's
    });
    EXPECT_TRUE(ctx().run(rt, receive_posted(rank, in, tag, posted)));
    late.join();
    const auto after = ctx().stats();
    EXPECT_EQ(in, out);
    EXPECT_EQ(after.handed_over - before.handed_over, scaled ? 0u : 1u);
    EXPECT_EQ(after.worker_completed - before.worker_completed, scaled ? 1u : 0u);
  }
}

// No worker is idle (the task spins on its own worker until its receive is done): the
// communication worker takes the request over at its deadline and completes it. Without the
// take-over the spin would give up after 10 s and the task return -1. The message is sent 20 ms
// after the receive was posted (a loaded machine may start the task later than 20 ms after the
// test: the receive then found its message at once, and nothing was handed over).
locus::task<long> spin_until_received(int rank, long& in, std::atomic<bool>& posted) {
  auto r = mpi::irecv(std::span(&in, 1), rank, 23);
  posted = true;
  const auto give_up = std::chrono::steady_clock::now() + 10s;
  while (!r.ready() && std::chrono::steady_clock::now() < give_up)
    std::this_thread::yield();
  const bool done = r.ready();
  co_await r;
  co_return done ? in : -1;
}

TEST(MpiPoll, TheCommunicationWorkerTakesOverWhenNoWorkerIsIdle) {
  if (!ctx().direct()) GTEST_SKIP() << "funneled: workers do not poll";
  const worker_poll_guard g(1ms);
  auto rt = one_worker();
  const int rank = ctx().rank();
  long in = 0, out = 11;
  std::atomic<bool> posted{false};
  std::thread late([&] {
    const auto give_up = std::chrono::steady_clock::now() + 10s;
    while (!posted.load() && std::chrono::steady_clock::now() < give_up)
      std::this_thread::sleep_for(1ms);
    std::this_thread::sleep_for(20ms);
    mpi::isend(std::span(&out, 1), rank, 23).wait();
  });
  const auto before = ctx().stats();
  EXPECT_EQ(ctx().run(rt, spin_until_received(rank, in, posted)), 11);
  late.join();
  const auto after = ctx().stats();
  EXPECT_EQ(after.handed_over - before.handed_over, 1u);
  EXPECT_EQ(after.worker_completed - before.worker_completed, 0u);
}

// options::worker_poll 0: a pending request goes to the communication worker at once (the
// behaviour before idle polling), and no worker polls.
TEST(MpiPoll, ZeroWorkerPollHandsPendingRequestsToTheCommunicationWorker) {
  const worker_poll_guard g(0us);
  auto rt = one_worker();
  const auto before = ctx().stats();
  EXPECT_EQ(ctx().run(rt, receive_first(ctx().rank())), 7 + ctx().rank());
  const auto after = ctx().stats();
  EXPECT_EQ(after.worker_polls - before.worker_polls, 0u);
  EXPECT_EQ(after.worker_completed - before.worker_completed, 0u);
  EXPECT_EQ(after.started - before.started, ctx().direct() ? 1u : 2u);  // the receive (+ send)
}

// Busy workers (context::watch): while every worker of the watched runtimes computes, the
// communication worker sleeps lazily (max_sleep steps, no spin) with a request pending, and the
// first worker that turns idle wakes it. The test runtime's own workers are kept busy too, as
// they are watched.
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
locus::task<long> compute_then_receive(int rank, long& in, int tag) {
  auto r = mpi::irecv(std::span(&in, 1), rank, tag);  // pending: nothing sent yet
  const auto end = std::chrono::steady_clock::now() + 30ms;
  while (std::chrono::steady_clock::now() < end)
    std::this_thread::yield();
  co_await r;  // this worker turns idle here
  co_return in;
}

TEST(MpiPoll, WhileEveryWorkerComputesTheCommunicationWorkerSleepsUntilOneTurnsIdle) {
  const worker_poll_guard g(0us);  // the pending receive goes to the communication worker
  // and only it completes it: an idle worker that made the communication worker's progress
  // step (options::worker_progress) would complete it before any wake-up this test counts.
  const locus_mpi_test::progress_guard p(false, ctx().opts().busy_sleep);
  std::atomic<bool> stop{false};
  std::thread others(
      [&] { locus_mpi_test::run(occupy(locus_mpi_test::rt().num_workers(), stop)); });
  auto rt = one_worker();
  const int rank = ctx().rank();
  const auto before = ctx().stats();
  // The worker may turn idle while the communication worker is between two sleeps (then it
  // polls at once anyway, and nothing is woken), a window that grows when the rank's threads
  // wait for a core (4 ranks on 2 loaded cores): attempts until one wakes it.
  bool woke = false;
  for (int attempt = 0; attempt < 20 && !woke; ++attempt) {
    long in = 0, out = 100 + attempt;
    const auto w0 = ctx().stats().idle_wakeups;
    std::thread late([&] {
      const auto give_up = std::chrono::steady_clock::now() + 300ms;
      while (ctx().stats().idle_wakeups == w0 && std::chrono::steady_clock::now() < give_up)
        std::this_thread::sleep_for(1ms);
      mpi::isend(std::span(&out, 1), rank, 40 + attempt).wait();
    });
    EXPECT_EQ(ctx().run(rt, compute_then_receive(rank, in, 40 + attempt)), 100 + attempt);
    late.join();
    woke = ctx().stats().idle_wakeups > w0;
  }
  stop = true;
  others.join();
  const auto after = ctx().stats();
  EXPECT_GT(after.lazy_sleeps - before.lazy_sleeps, 0u);
  EXPECT_TRUE(woke);
}

// With a worker idle (the test runtime's, asleep), a pending request makes the communication
// worker back off as usual: no lazy sleep.
TEST(MpiPoll, AnIdleWorkerKeepsTheCommunicationWorkerFromSleepingLazily) {
  locus_mpi_test::run([]() -> locus::task<void> { co_return; }());  // watched
  // Its workers turn idle after run() returned, on their own time: wait until they sleep.
  const auto give_up = std::chrono::steady_clock::now() + 10s;
  while (locus_mpi_test::rt().sleeping_workers() < locus_mpi_test::rt().num_workers() &&
         std::chrono::steady_clock::now() < give_up)
    std::this_thread::sleep_for(1ms);
  const int rank = ctx().rank();
  int in = 0, out = 3;
  auto r = mpi::irecv(std::span(&in, 1), rank, 78);  // off the workers: the communication worker's
  const auto before = ctx().stats();
  std::this_thread::sleep_for(50ms);
  const auto after = ctx().stats();
  mpi::isend(std::span(&out, 1), rank, 78).wait();
  r.wait();
  EXPECT_EQ(in, 3);
  EXPECT_GT(after.sleeps - before.sleeps, 0u);
  EXPECT_EQ(after.lazy_sleeps - before.lazy_sleeps, 0u);
}

}  // namespace
