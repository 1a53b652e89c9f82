// Awaitable messages and collectives across the ranks of the job.
#include <gtest/gtest.h>

#include <mpi.h>

#include <atomic>
#include <cstdlib>
#include <numeric>
#include <string>
#include <vector>

#include "mpi_support.hpp"

namespace mpi = locus::mpi;
using locus_mpi_test::ctx;
using locus_mpi_test::run;

namespace {

locus::task<int> ring_once(int rank, int size) {
  int out = rank * 10 + 1, in = -1;
  auto r = mpi::irecv(std::span(&in, 1), (rank + size - 1) % size, 3);
  co_await mpi::send(std::span(&out, 1), (rank + 1) % size, 3);
  const mpi::status st = co_await r;
  EXPECT_EQ(st.source, (rank + size - 1) % size);
  EXPECT_EQ(st.tag, 3);
  EXPECT_EQ(st.bytes, sizeof(int));
  co_return in;
}

TEST(MpiOps, RingSendRecvDeliversTheLeftNeighboursValue) {
  const int rank = ctx().rank(), size = ctx().size();
  EXPECT_EQ(run(ring_once(rank, size)), ((rank + size - 1) % size) * 10 + 1);
}

// The awaiting task suspends and its worker runs others: with one worker, a task that awaits a
// message only a later task of the same rank sends would deadlock if the await blocked it.
locus::task<long> self_message(int rank) {
  long got = 0;
  auto r = mpi::irecv(std::span(&got, 1), rank, 9);
  auto sender = [](int me) -> locus::task<void> {
    long v = 4242 + me;
    co_await mpi::send(std::span(&v, 1), me, 9);
  };
  auto awaiter = [](mpi::request req) -> locus::task<void> { co_await req; };
  co_await locus::spawn(awaiter(r));
  co_await locus::spawn(sender(rank));
  co_await locus::sync();
  co_return got;
}

TEST(MpiOps, AnAwaitingTaskLeavesItsWorkerToOtherTasks) {
  locus::config cfg;
  cfg.workers = 1;
  cfg.pin = false;
  locus::runtime one(cfg);
  EXPECT_EQ(ctx().run(one, self_message(ctx().rank())), 4242 + ctx().rank());
}

locus::task<std::vector<double>> collectives(int rank, int size) {
  co_await mpi::barrier();
  std::vector<double> b(4, rank == 1 % size ? 2.5 : 0.0);
  co_await mpi::bcast(std::span(b), 1 % size);
  double mine[2] = {double(rank), 1.0};
  double sum[2] = {-1, -1};
  co_await mpi::allreduce(std::span(mine), std::span(sum), mpi::reduce_op::sum);
  double mx[2] = {-1, -1};
  co_await mpi::reduce(std::span(mine), std::span(mx), mpi::reduce_op::max, 0);
  std::vector<double> out = b;
  out.insert(out.end(), {sum[0], sum[1], mx[0], mx[1]});
  co_return out;
}

TEST(MpiOps, CollectivesGiveMpisAnswers) {
  const int rank = ctx().rank(), size = ctx().size();
  const auto v = run(collectives(rank, size));
  ASSERT_EQ(v.size(), 8u);
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(v[i], 2.5);
  EXPECT_EQ(v[4], size * (size - 1) / 2.0);
  EXPECT_EQ(v[5], double(size));
  if (rank == 0) {
    EXPECT_EQ(v[6], double(size - 1));
    EXPECT_EQ(v[7], 1.0);
  }
}

// Many tasks, each exchanging with every other rank on its own tag, all in flight together.
locus::task<long> many(int rank, int size, int per_peer) {
  std::vector<long> in(static_cast<std::size_t>(size * per_peer), -1);
  std::vector<long> out(in.size());
  auto one = [](long* o, long* i, int me, int peer, int tag) -> locus::task<void> {
    *o = me * 100000 + tag;
    auto r = mpi::irecv(std::span(i, 1), peer, tag);
    co_await mpi::send(std::span(o, 1), peer, tag);
    co_await r;
  };
  for (int p = 0; p < size; ++p)
    for (int t = 0; t < per_peer; ++t) {
      const std::size_t k = static_cast<std::size_t>(p * per_peer + t);
      co_await locus::spawn(one(&out[k], &in[k], rank, p, t));
    }
  co_await locus::sync();
  long bad = 0;
  for (int p = 0; p < size; ++p)
    for (int t = 0; t < per_peer; ++t)
      if (in[static_cast<std::size_t>(p * per_peer + t)] != p * 100000L + t) ++bad;
  co_return bad;
}

TEST(MpiOps, ManyConcurrentExchangesAllArrive) {
  EXPECT_EQ(run(many(ctx().rank(), ctx().size(), 200)), 0);
}

TEST(MpiOps, WaitOffTheWorkersBlocksUntilDone) {
  const int rank = ctx().rank(), size = ctx().size();
  int out = rank, in = -1;
  auto r = mpi::irecv(std::span(&in, 1), (rank + 1) % size, 4);
  mpi::isend(std::span(&out, 1), (rank + size - 1) % size, 4).wait();
  EXPECT_EQ(r.wait().source, (rank + 1) % size);
  EXPECT_TRUE(r.ready());
  EXPECT_EQ(in, (rank + 1) % size);
}

TEST(MpiOps, WaitOnAWorkerIsAnError) {
  auto t = []() -> locus::task<std::string> {
    auto r = mpi::ibarrier();
    std::string msg;
    try {
      r.wait();
    } catch (const mpi::error& e) {
      msg = e.what();
    }
    co_await r;
    co_return msg;
  };
  EXPECT_NE(run(t()).find("co_await the request instead"), std::string::npos);
}

// Direct start (MPI_THREAD_MULTIPLE): a message to this rank is sent eagerly and is there when
// the receive starts, so both complete on the task's thread and the communication worker
// starts nothing. Funneled (LOCUS_MPI_DIRECT=0, the mpi.tests.np2.funneled run): it starts both.
locus::task<long> to_myself(int rank) {
  long out = 31 + rank, in = 0;
  co_await mpi::send(std::span(&out, 1), rank, 12);
  co_await mpi::recv(std::span(&in, 1), rank, 12);
  co_return in;
}

TEST(MpiOps, MessagesDoneAtOnceBypassTheCommunicationWorkerOnlyWhenDirect) {
  const bool want_direct = std::getenv("LOCUS_MPI_DIRECT") == nullptr ||
                           std::string(std::getenv("LOCUS_MPI_DIRECT")) != "0";
  int level = 0;
  ctx().call([&] { MPI_Query_thread(&level); });
  EXPECT_EQ(ctx().direct(), want_direct && level == MPI_THREAD_MULTIPLE);
  const auto before = ctx().stats().started;
  EXPECT_EQ(run(to_myself(ctx().rank())), 31 + ctx().rank());
  const auto started = ctx().stats().started - before;
  if (ctx().direct())
    EXPECT_EQ(started, 0u);
  else
    EXPECT_EQ(started, 2u);
}

// A request done at its start (direct start: an eager send, a message already there) carries
// its status instead of a completion (ops.hpp): the same status the pending form gives, ready at
// once, and the same rules: wait() on a worker is an error whichever form the request has; off
// the workers it returns the status. An empty request is an error to await.
locus::task<std::string> done_at_start(int rank, bool direct) {
  long out = 57 + rank, in = 0;
  auto s = mpi::isend(std::span(&out, 1), rank, 13);
  if (direct) EXPECT_TRUE(s.ready());  // an eager send: done at its start
  const mpi::status ss = co_await s;
  EXPECT_EQ(ss.bytes, sizeof(long));
  auto r = mpi::irecv(std::span(&in, 1), rank, 13);
  if (direct) EXPECT_TRUE(r.ready());  // the message was there already
  std::string msg;
  try {
    (void)r.wait();
  } catch (const mpi::error& e) {
    msg = e.what();
  }
  const mpi::status rs = co_await r;
  EXPECT_EQ(rs.source, rank);
  EXPECT_EQ(rs.tag, 13);
  EXPECT_EQ(rs.bytes, sizeof(long));
  EXPECT_EQ(in, 57 + rank);
  std::string empty;
  try {
    (void)co_await mpi::request{};
  } catch (const mpi::error& e) {
    empty = e.what();
  }
  EXPECT_NE(empty.find("empty request"), std::string::npos) << empty;
  co_return msg;
}

TEST(MpiOps, ARequestDoneAtItsStartCarriesItsStatus) {
  const int rank = ctx().rank();
  EXPECT_NE(run(done_at_start(rank, ctx().direct())).find("co_await the request instead"),
            std::string::npos);
  long out = 61 + rank, in = 0;
  auto s = mpi::isend(std::span(&out, 1), rank, 14);
  if (ctx().direct()) EXPECT_TRUE(s.ready());
  EXPECT_EQ(s.wait().bytes, sizeof(long));
  auto r = mpi::irecv(std::span(&in, 1), rank, 14);
  const mpi::status st = r.wait();
  EXPECT_EQ(st.source, rank);
  EXPECT_EQ(st.tag, 14);
  EXPECT_EQ(in, 61 + rank);
  EXPECT_FALSE(mpi::request{}.valid());
  EXPECT_FALSE(mpi::request{}.ready());
  EXPECT_THROW((void)mpi::request{}.wait(), mpi::error);
}

TEST(MpiOps, CallRunsRawMpiOnTheCommunicationWorker) {
  int ran_on_worker = -2;
  ctx().call([&] { ran_on_worker = locus::this_worker::index(); });
  EXPECT_EQ(ran_on_worker, -1);
  EXPECT_THROW(ctx().call([] { throw std::runtime_error("boom"); }), std::runtime_error);
}

TEST(MpiOps, AnIdleCommunicationWorkerSleeps) {
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // past the spin after activity
  const auto before = ctx().stats();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const auto after = ctx().stats();
  // Asleep in 10 ms steps when only background receives are posted: about 20 polls in 200 ms
  // (a spinning worker makes hundreds of thousands).
  EXPECT_LT(after.polls - before.polls, 100u);
  EXPECT_GT(after.sleeps, before.sleeps);
}

// A request pending for long does not make the worker spin: it backs off to sleeps of
// options::max_sleep (500 us), so about 400 polls in 200 ms, where a spinning poller makes
// hundreds of thousands.
TEST(MpiOps, APendingRequestBacksOffInsteadOfSpinning) {
  const int rank = ctx().rank();
  int in = 0, out = 5;
  auto r = mpi::irecv(std::span(&in, 1), rank, 77);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const auto before = ctx().stats();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const auto after = ctx().stats();
  mpi::isend(std::span(&out, 1), rank, 77).wait();
  r.wait();
  EXPECT_EQ(in, 5);
  EXPECT_LT(after.polls - before.polls, 5000u);
  EXPECT_GT(after.sleeps - before.sleeps, 10u);  // it slept in many short steps, not once
}

}  // namespace
