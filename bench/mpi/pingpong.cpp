// Ping-pong between ranks 0 and 1: a message of `bytes` there and back, `iters` times. Through
// co_await (locus tasks, the communication worker) and raw MPI_Send / MPI_Recv (on the
// communication worker's thread, through context::call, the MPI thread of a FUNNELED job).
// Latency = time / (2 iters); bandwidth = 2 iters bytes / time. Other ranks only time.
#include <mpi.h>

#include <cstring>

#include "bench.hpp"

namespace locus_mpi_bench {

namespace mpi = locus::mpi;

namespace {

void fill(std::vector<unsigned char>& b, unsigned seed) {
  for (std::size_t i = 0; i < b.size(); ++i)
    b[i] = static_cast<unsigned char>(i * 31 + seed);
}
bool check(const std::vector<unsigned char>& b, unsigned seed) {
  for (std::size_t i = 0; i < b.size(); ++i)
    if (b[i] != static_cast<unsigned char>(i * 31 + seed)) return false;
  return true;
}

locus::task<void> pingpong_locus(int rank, std::vector<unsigned char>& out,
                                 std::vector<unsigned char>& in, std::size_t iters) {
  if (rank > 1) co_return;
  const int peer = 1 - rank;
  for (std::size_t i = 0; i < iters; ++i) {
    if (rank == 0) {
      co_await mpi::send(out, peer, 0);
      co_await mpi::recv(in, peer, 0);
    } else {
      co_await mpi::recv(in, peer, 0);
      co_await mpi::send(out, peer, 0);
    }
  }
}

void pingpong_raw(int rank, std::vector<unsigned char>& out, std::vector<unsigned char>& in,
                  std::size_t iters) {
  if (rank > 1) return;
  const int peer = 1 - rank, n = static_cast<int>(out.size());
  for (std::size_t i = 0; i < iters; ++i) {
    if (rank == 0) {
      MPI_Send(out.data(), n, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
      MPI_Recv(in.data(), n, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(in.data(), n, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(out.data(), n, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
    }
  }
}

}  // namespace

std::vector<result> pingpong(mpi::context& ctx, locus::runtime& rt, const params& p) {
  std::vector<result> out;
  if (ctx.size() < 2) return out;
  const int rank = ctx.rank();
  const std::vector<std::size_t> sizes =
      p.pp_bytes.empty() ? std::vector<std::size_t>{8, std::size_t{1} << 20} : p.pp_bytes;
  for (std::size_t bytes : sizes) {
    const std::size_t iters = p.iters != 0 ? p.iters : bytes <= 64 ? 20000 : 200;
    std::vector<unsigned char> send(bytes), recv(bytes);
    fill(send, static_cast<unsigned>(rank));
    for (const char* runtime : {"mpi", "locus"}) {
      const bool raw = std::strcmp(runtime, "mpi") == 0;
      auto once = [&](std::size_t n) {
        if (raw)
          ctx.call([&] { pingpong_raw(rank, send, recv, n); });
        else
          ctx.run(rt, pingpong_locus(rank, send, recv, n));
      };
      once(iters / 10 + 1);  // warm-up: connections, caches, the worker's first wake-up
      std::vector<double> t;
      rt.reset_stats();
      const auto comm0 = ctx.stats();
      for (int r = 0; r < p.reps; ++r)
        t.push_back(timed(ctx, [&] { once(iters); }));
      const auto comm1 = ctx.stats();
      const double trips = double(iters) * p.reps;
      int ok = rank > 1 || check(recv, static_cast<unsigned>(1 - rank)) ? 1 : 0;
      int all_ok = 0;
      ctx.call([&] { MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD); });
      const spread s = spread_of(t);
      result r{
          {"kernel", "pingpong"},
          {"size", std::to_string(bytes) + "B"},
          {"runtime", runtime},
          {"ranks", ctx.size()},
          {"workers", raw ? 0u : rt.num_workers()},
          {"progress", ctx.opts().progress == mpi::progress_mode::shared ? "shared" : "dedicated"},
          {"direct", ctx.direct()},
          {"worker_poll_us", ctx.opts().worker_poll.count()},
          {"worker_poll_per_mib_us", ctx.opts().worker_poll_per_mib.count()},
          {"iters", iters},
          {"reps", p.reps},
          {"median_s", s.median},
          {"min_s", s.min},
          {"max_s", s.max},
          {"latency_us", s.median / (2.0 * double(iters)) * 1e6},
          {"bandwidth_MBps", 2.0 * double(iters) * double(bytes) / s.median / 1e6},
          {"verified", all_ok == 1},
          // Per round trip, on this rank (rank 0): how often the worker and the
          // communication worker went to sleep, and MPI_Testsome calls.
          {"worker_sleeps_per_trip", double(rt.stats().total().sleeps) / trips},
          {"comm_sleeps_per_trip", double(comm1.sleeps - comm0.sleeps) / trips},
          {"comm_polls_per_trip", double(comm1.polls - comm0.polls) / trips},
          // Pending direct requests completed by the idle worker's polls, and handed to the
          // communication worker at their deadline (options::worker_poll), per round trip.
          // The idle worker's MPI_Testsome calls per round trip: with the trip's time, the
          // length of one poll (the receive's completion is seen up to one poll late).
          {"worker_polls_per_trip", double(comm1.worker_polls - comm0.worker_polls) / trips},
          {"worker_completed_per_trip",
           double(comm1.worker_completed - comm0.worker_completed) / trips},
          {"handed_over_per_trip", double(comm1.handed_over - comm0.handed_over) / trips}};
      out.push_back(r);
    }
  }
  return out;
}

}  // namespace locus_mpi_bench
