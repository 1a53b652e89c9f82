// Distributed heat 2-D (Jacobi, 5 points): rows in blocks per rank, one ghost row above and
// below. locus: each step posts the halo exchange, computes the rows that need no ghost with
// parallel_for while the messages travel, then awaits the ghosts and computes the two edge
// rows (overlap). mpi-omp: MPI_Sendrecv of both halos, then an OpenMP parallel for over the
// rows (bulk-synchronous; on the communication worker's thread, MPI's thread in this job).
// Verified: the sum over the grid equals a serial run's (relative 1e-10). locus's result also
// gives each rank's waits on its exchange per run (recv_wait_s_per_rank, send_wait_s_per_rank).
#include <mpi.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <utility>
#if LOCUS_MPI_BENCH_OPENMP
#include <omp.h>
#endif

#include "bench.hpp"

namespace locus_mpi_bench {

namespace mpi = locus::mpi;

namespace {

struct grid {
  std::size_t rows = 0, cols = 0;    ///< global interior + boundary
  std::size_t first = 0, local = 0;  ///< this rank's global rows [first, first + local)
  std::vector<double> u, v;          ///< (local + 2) x cols, row 0 and local + 1 are ghosts

  double init(std::size_t g, std::size_t j) const {
    return static_cast<double>((g * 131 + j * 17) % 97) / 97.0;
  }
  void reset(std::size_t rows_, std::size_t cols_, int rank, int size) {
    rows = rows_;
    cols = cols_;
    first = rows * static_cast<std::size_t>(rank) / static_cast<std::size_t>(size);
    local = rows * static_cast<std::size_t>(rank + 1) / static_cast<std::size_t>(size) - first;
    u.assign((local + 2) * cols, 0.0);
    for (std::size_t i = 1; i <= local; ++i)
      for (std::size_t j = 0; j < cols; ++j)
        u[i * cols + j] = init(first + i - 1, j);
    v = u;
  }
  /// v = step(u) on local row i (1..local); global boundary rows and columns stay.
  void row(std::size_t i) {
    const std::size_t g = first + i - 1;
    double* out = &v[i * cols];
    const double* c = &u[i * cols];
    if (g == 0 || g == rows - 1) {
      std::copy(c, c + cols, out);
      return;
    }
    const double *up = c - cols, *dn = c + cols;
    out[0] = c[0];
    for (std::size_t j = 1; j + 1 < cols; ++j)
      out[j] = 0.25 * (up[j] + dn[j] + c[j - 1] + c[j + 1]);
    out[cols - 1] = c[cols - 1];
  }
  [[nodiscard]] double sum() const {
    double s = 0;
    for (std::size_t i = 1; i <= local; ++i)
      for (std::size_t j = 0; j < cols; ++j)
        s += u[i * cols + j];
    return s;
  }
};

double serial_sum(std::size_t rows, std::size_t cols, std::size_t steps) {
  grid g;
  g.reset(rows, cols, 0, 1);
  for (std::size_t s = 0; s < steps; ++s) {
    for (std::size_t i = 1; i <= g.local; ++i)
      g.row(i);
    std::swap(g.u, g.v);
  }
  return g.sum();
}

/// Where a rank's locus run waited on its halo exchange, summed over its steps (ns): for the
/// ghosts (after its interior rows) and for its sends (after its edge rows). A rank that is
/// ahead of its neighbour waits for the ghosts; one that is behind, for its sends.
struct exchange_waits {
  std::int64_t recv_ns = 0, send_ns = 0;
};

locus::task<void> heat_locus(grid& g, int rank, int size, std::size_t steps, exchange_waits& w) {
  using clock = std::chrono::steady_clock;
  const std::size_t c = g.cols, l = g.local;
  for (std::size_t s = 0; s < steps; ++s) {
    std::span<double> top(&g.u[0], c), mine_top(&g.u[c], c), mine_bottom(&g.u[l * c], c),
        bottom(&g.u[(l + 1) * c], c);
    mpi::request r_up, r_dn, s_up, s_dn;
    if (rank > 0) {
      r_up = mpi::irecv(top, rank - 1, 1);
      s_up = mpi::isend(mine_top, rank - 1, 0);
    }
    if (rank + 1 < size) {
      r_dn = mpi::irecv(bottom, rank + 1, 0);
      s_dn = mpi::isend(mine_bottom, rank + 1, 1);
    }
    // Rows 2 .. l-1 read no ghost: computed while the halos travel.
    if (l > 2)
      co_await locus::parallel_for(std::size_t{2}, l, std::size_t{16},
                                   [&](std::size_t i) { g.row(i); });
    const auto t0 = clock::now();
    if (r_up.valid()) co_await r_up;
    if (r_dn.valid()) co_await r_dn;
    const auto t1 = clock::now();
    g.row(1);
    if (l > 1) g.row(l);
    const auto t2 = clock::now();
    if (s_up.valid()) co_await s_up;
    if (s_dn.valid()) co_await s_dn;
    w.recv_ns += (t1 - t0).count();
    w.send_ns += (clock::now() - t2).count();
    std::swap(g.u, g.v);
  }
}

void heat_mpi_omp(grid& g, int rank, int size, std::size_t steps, int threads) {
  const std::size_t c = g.cols, l = g.local;
  const int n = static_cast<int>(c);
  const int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  const int dn = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;
  (void)threads;
  for (std::size_t s = 0; s < steps; ++s) {
    MPI_Sendrecv(&g.u[c], n, MPI_DOUBLE, up, 0, &g.u[(l + 1) * c], n, MPI_DOUBLE, dn, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&g.u[l * c], n, MPI_DOUBLE, dn, 1, &g.u[0], n, MPI_DOUBLE, up, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
#if LOCUS_MPI_BENCH_OPENMP
#pragma omp parallel for num_threads(threads) schedule(static)
#endif
    for (std::size_t i = 1; i <= l; ++i)
      g.row(i);
    std::swap(g.u, g.v);
  }
}

}  // namespace

std::vector<result> heat(mpi::context& ctx, locus::runtime& rt, const params& p) {
  std::size_t rows = 2048, cols = 2048;
  if (!p.sizes.empty()) {
    char x = 0;
    std::istringstream in(p.sizes);
    in >> rows >> x >> cols;
  }
  const std::size_t steps = p.iters != 0 ? p.iters : 100;
  const int rank = ctx.rank(), size = ctx.size();
  const double want = serial_sum(rows, cols, steps);
  std::vector<result> out;
#if LOCUS_MPI_BENCH_OPENMP
  const bool have_omp = true;
#else
  const bool have_omp = false;
#endif
  for (const char* runtime : {"mpi-omp", "locus"}) {
    const bool locus_rt = runtime[0] == 'l';
    if (!locus_rt && !have_omp) continue;
    grid g;
    exchange_waits waits;
    std::vector<double> t;
    for (int r = 0; r < p.reps; ++r) {
      g.reset(rows, cols, rank, size);
      t.push_back(timed(ctx, [&] {
        if (locus_rt)
          ctx.run(rt, heat_locus(g, rank, size, steps, waits));
        else
          ctx.call([&] { heat_mpi_omp(g, rank, size, steps, static_cast<int>(rt.num_workers())); });
      }));
    }
    double mine = g.sum(), total = 0;
    ctx.call([&] { MPI_Allreduce(&mine, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); });
    const spread s = spread_of(t);
    out.push_back(result{
        {"kernel", "heat2d"},
        {"size", std::to_string(rows) + "x" + std::to_string(cols) + "x" + std::to_string(steps)},
        {"runtime", runtime},
        {"ranks", size},
        {"workers", rt.num_workers()},
        {"reps", p.reps},
        {"median_s", s.median},
        {"min_s", s.min},
        {"max_s", s.max},
        {"checksum", total},
        {"verified", std::abs(total - want) <= 1e-10 * std::abs(want)}});
    if (locus_rt) {
      // Every rank's waits per run (s), gathered on rank 0 (raw MPI, untimed).
      const std::size_t np = static_cast<std::size_t>(size);
      const double mine[2] = {double(waits.recv_ns) * 1e-9 / p.reps,
                              double(waits.send_ns) * 1e-9 / p.reps};
      std::vector<double> all(2 * np);
      ctx.call(
          [&] { MPI_Gather(mine, 2, MPI_DOUBLE, all.data(), 2, MPI_DOUBLE, 0, MPI_COMM_WORLD); });
      std::vector<double> recv(np), send(np);
      for (std::size_t k = 0; k < np; ++k) {
        recv[k] = all[2 * k];
        send[k] = all[2 * k + 1];
      }
      out.back()["recv_wait_s_per_rank"] = recv;
      out.back()["send_wait_s_per_rank"] = send;
    }
  }
  return out;
}

}  // namespace locus_mpi_bench
