// locus-mpi-bench cholesky: the block-cyclic tiles, the driver and the check (cholesky.hpp).
#include "cholesky.hpp"

#include <mpi.h>
#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace locus_mpi_bench {

namespace chol {

namespace ck = cholesky_kernel;

grid2d grid_for(int ranks) {
  int q = static_cast<int>(std::sqrt(static_cast<double>(ranks)));
  while (q > 1 && ranks % q != 0)
    --q;
  return {ranks / q, q};
}

grid2d parse_grid(const std::string& spec, int ranks) {
  if (spec.empty()) return grid_for(ranks);
  std::array<int, 2> pq{};
  if (!bench::parse_dims(spec, pq) || pq[0] < 1 || pq[1] < 1 ||
      static_cast<long long>(pq[0]) * pq[1] != ranks)
    throw std::invalid_argument("cholesky: --grid must be PxQ with P * Q = " +
                                std::to_string(ranks) + " (the ranks), got '" + spec + "'");
  return {pq[0], pq[1]};
}

dist_tiles::dist_tiles(ck::dims d, grid2d g, int rank) : m_d(d), m_g(g), m_rank(rank) {
  const std::size_t nt = d.tiles(), npos = std::numeric_limits<std::size_t>::max();
  m_slot.assign(nt * nt, npos);
  std::size_t count = 0;
  for (std::size_t i = 0; i < nt; ++i)
    for (std::size_t j = 0; j <= i; ++j)
      if (mine(i, j)) m_slot[i * nt + j] = count++;
  m_data.reset(new double[std::max<std::size_t>(count, 1) * d.b * d.b]);  // NOLINT: load() fills
}

double* dist_tiles::tile(std::size_t i, std::size_t j) {
  const std::size_t nt = tiles();
  if (i >= nt || j > i || m_slot[i * nt + j] == std::numeric_limits<std::size_t>::max())
    throw std::logic_error("cholesky: tile (" + std::to_string(i) + ", " + std::to_string(j) +
                           ") is not held by rank " + std::to_string(m_rank));
  return m_data.get() + m_slot[i * nt + j] * m_d.b * m_d.b;
}

void dist_tiles::load(const ck::tiled_matrix& a) {
  const std::size_t nt = tiles(), n = m_d.b * m_d.b;
  for (std::size_t i = 0; i < nt; ++i)
    for (std::size_t j = 0; j <= i; ++j)
      if (mine(i, j)) std::copy_n(a.tile(i, j), n, tile(i, j));
}

void write_trace(const tile_trace& t, const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) throw std::runtime_error("cholesky: cannot write the tile trace " + path);
  std::fprintf(f,
               "# locus-mpi-bench cholesky --tile-trace: 'graph START' per factorisation, then "
               "'OP I J K START END' per tile task (OP 0 potrf, 1 trsm, 2 syrk, 3 gemm; "
               "steady-clock seconds)\n");
  for (std::size_t g = 0; g < t.graphs.size(); ++g) {
    std::fprintf(f, "graph %.9f\n", t.graphs[g]);
    for (const auto& s : t.spans[g])
      std::fprintf(f, "%d %zu %zu %zu %.9f %.9f\n", static_cast<int>(s.t.kind), s.t.i, s.t.j, s.t.k,
                   s.start, s.end);
  }
  if (std::fclose(f) != 0)
    throw std::runtime_error("cholesky: cannot write the tile trace " + path);
}

double process_cpu_s() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

std::uint64_t idle_ns(const locus::runtime& rt) {
  std::uint64_t ns = 0;
  for (const auto& w : rt.stats().workers)
    ns += w.idle_ns;
  return ns;
}

std::vector<std::string> available_runtimes() {
  std::vector<std::string> r{"locus", "mpi-omp"};
#if LOCUS_MPI_BENCH_SCALAPACK
  r.emplace_back("scalapack");
#endif
#if LOCUS_MPI_BENCH_STARPU
  r.emplace_back("starpu-mpi");
#endif
  return r;
}

namespace {

/// Every rank's tiles to rank 0 (raw MPI on the communication worker, MPI's thread): into `out`
/// there, which must be a tiled_matrix of the same dims. Each rank sends in tile order and rank
/// 0 receives in tile order, so the blocking calls cannot deadlock.
void gather(locus::mpi::context& ctx, dist_tiles& t, ck::tiled_matrix* out) {
  const std::size_t nt = t.tiles();
  const int count = static_cast<int>(t.size().b * t.size().b);
  ctx.call([&] {
    for (std::size_t i = 0; i < nt; ++i) {
      for (std::size_t j = 0; j <= i; ++j) {
        const int tag = static_cast<int>(i * nt + j), from = t.owner(i, j);
        if (t.rank() == 0) {
          if (from == 0)
            std::copy_n(t.tile(i, j), count, out->tile(i, j));
          else
            MPI_Recv(out->tile(i, j), count, MPI_DOUBLE, from, tag, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        } else if (from == t.rank()) {
          MPI_Send(t.tile(i, j), count, MPI_DOUBLE, 0, tag, MPI_COMM_WORLD);
        }
      }
    }
  });
}

/// The serial tiled factorisation of `a` (the kernels' task order, one thread).
ck::tiled_matrix serial_factor(const ck::tiled_matrix& a) {
  const ck::dims d = a.size();
  ck::tiled_matrix l(d);
  for (std::size_t i = 0; i < d.tiles(); ++i)
    for (std::size_t j = 0; j <= i; ++j)
      std::copy_n(a.tile(i, j), d.b * d.b, l.tile(i, j));
  openblas_set_num_threads(1);
  ck::for_each_task(d.tiles(), [&](const ck::tile_task& t) { ck::run_task(l, t); });
  return l;
}

/// max |l - ref| / max |ref| over the lower triangle (diagonal tiles: their lower part only,
/// the strict upper part of a diagonal tile is left as the input's).
double max_relative_difference(const ck::tiled_matrix& l, const ck::tiled_matrix& ref) {
  const ck::dims d = l.size();
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < d.tiles(); ++i) {
    for (std::size_t j = 0; j <= i; ++j) {
      const double *x = l.tile(i, j), *y = ref.tile(i, j);
      for (std::size_t c = 0; c < d.b; ++c) {
        for (std::size_t r = i == j ? c : 0; r < d.b; ++r) {
          const double dx = std::abs(x[c * d.b + r] - y[c * d.b + r]);
          diff = std::isnan(dx) ? std::numeric_limits<double>::infinity() : std::max(diff, dx);
          scale = std::max(scale, std::abs(y[c * d.b + r]));
        }
      }
    }
  }
  return scale > 0 ? diff / scale : diff;
}

[[noreturn]] void not_built(const std::string& name) {
  std::string built;
  for (const auto& r : available_runtimes())
    built += (built.empty() ? "" : ", ") + r;
  throw std::invalid_argument("cholesky: runtime '" + name +
                              "' is not built here (built: " + built + ")");
}

double run_one(const std::string& name, locus::mpi::context& ctx, locus::runtime& rt, dist_tiles& t,
               locus_counts& c) {
  if (name == "locus") return factor_locus(ctx, rt, t, c);
  if (name == "mpi-omp") return factor_bsp(ctx, t, rt.num_workers());
#if LOCUS_MPI_BENCH_SCALAPACK
  if (name == "scalapack") return factor_scalapack(ctx, t);
#endif
#if LOCUS_MPI_BENCH_STARPU
  if (name == "starpu-mpi") return factor_starpu(ctx, t, rt.num_workers());
#endif
  not_built(name);
}

}  // namespace

}  // namespace chol

std::vector<result> cholesky(locus::mpi::context& ctx, locus::runtime& rt, const params& p) {
  namespace ck = cholesky_kernel;
  const chol::grid2d g = chol::parse_grid(p.grid, ctx.size());
  const std::vector<std::string> runtimes =
      p.runtimes.empty() ? chol::available_runtimes() : p.runtimes;
  const std::vector<std::string> built = chol::available_runtimes();
  for (const std::string& name : runtimes)
    if (std::find(built.begin(), built.end(), name) == built.end()) chol::not_built(name);
  std::vector<result> out;
  std::istringstream sizes(p.chol_sizes);
  for (std::string size; std::getline(sizes, size, ',');) {
    const ck::dims d = ck::parse_size(size);
    openblas_set_num_threads(static_cast<int>(ck::hardware_threads()));
    const ck::tiled_matrix a = ck::make_input(d);  // every rank: the same seed, the same A
    std::optional<ck::tiled_matrix> ref;
    if (ctx.rank() == 0) ref = chol::serial_factor(a);
    for (const std::string& name : runtimes) {
      chol::dist_tiles tiles(d, g, ctx.rank());
      std::vector<double> t;
      const bool lat = p.lat && name == "locus";
      if (lat) {
        (void)ctx.take_value_traces();
        ctx.trace_values(true);
      }
      const auto comm0 = ctx.stats();
      chol::locus_counts lc;
      lc.priorities = p.priorities;
      if (!p.tile_trace.empty() && name == "locus") lc.trace = std::make_shared<chol::tile_trace>();
      double cpu_s = 0;  // the process's CPU time in the timed regions
      for (int r = 0; r < p.reps; ++r) {
        tiles.load(a);
        openblas_set_num_threads(1);  // the tile kernels are single-threaded; ranks x workers
        const double cpu0 = chol::process_cpu_s();
        t.push_back(chol::run_one(name, ctx, rt, tiles, lc));
        cpu_s += chol::process_cpu_s() - cpu0;
      }
      const auto comm1 = ctx.stats();
      if (lc.trace) chol::write_trace(*lc.trace, p.tile_trace + "." + std::to_string(ctx.rank()));
      // The last repetition's factor, checked on rank 0 (untimed).
      std::optional<ck::tiled_matrix> l;
      if (ctx.rank() == 0) l.emplace(d);
      chol::gather(ctx, tiles, l ? &*l : nullptr);
      // After the gather (raw MPI): the graphs' sends have completed, so each is recorded.
      std::vector<locus::mpi::value_trace> traces;
      if (lat) {
        ctx.trace_values(false);
        traces = ctx.take_value_traces();
      }
      double residual = 0, diff = 0;
      bool verified = true;
      if (ctx.rank() == 0) {
        diff = chol::max_relative_difference(*l, *ref);
        openblas_set_num_threads(static_cast<int>(ck::hardware_threads()));
        residual = ck::relative_residual(a, ck::factor_view{l->tile(0, 0), d, true});
        verified = residual < 1e-12 * static_cast<double>(d.n) && diff < 1e-10;
      }
      const spread s = spread_of(t);
      const double n = static_cast<double>(d.n);
      result r{{"kernel", "cholesky"},
               {"size", size},
               {"runtime", name},
               {"ranks", ctx.size()},
               {"grid", std::to_string(g.p) + "x" + std::to_string(g.q)},
               {"workers", rt.num_workers()},
               {"reps", p.reps},
               {"median_s", s.median},
               {"min_s", s.min},
               {"max_s", s.max},
               {"times_s", t},
               {"gflops", n * n * n / 3.0 / s.median * 1e-9},
               {"residual", residual},
               {"max_rel_diff_serial", diff},
               {"verified", verified},
               // Rank 0's process CPU time per factorisation (every thread: the runtime's
               // workers, the communication worker, the main thread, OpenMP's or OpenBLAS's),
               // against ranks x workers x median_s for a runtime that keeps its threads busy.
               {"cpu_s", cpu_s / p.reps},
               // Rank 0's communication worker, per factorisation: CPU time and
               // sleeps (locus; the peers make few calls through it).
               {"comm_cpu_s", double(comm1.cpu_ns - comm0.cpu_ns) * 1e-9 / p.reps},
               {"comm_sleeps", double(comm1.sleeps - comm0.sleeps) / p.reps},
               {"comm_polls", double(comm1.polls - comm0.polls) / p.reps},
               {"comm_lazy_sleeps", double(comm1.lazy_sleeps - comm0.lazy_sleeps) / p.reps},
               {"comm_idle_wakeups", double(comm1.idle_wakeups - comm0.idle_wakeups) / p.reps}};
      // Every rank's locus workers' idle time per factorisation (graph creation to wait()'s
      // end), gathered on rank 0 (raw MPI on the communication worker, untimed).
      // Also every rank's communication worker CPU time per factorisation, and the progress
      // steps its locus workers made between tasks or idle (options::worker_progress) with the
      // requests they completed.
      if (name == "locus") {
        const std::size_t np = static_cast<std::size_t>(ctx.size());
        constexpr int n_each = 7;
        const double mine[n_each] = {
            lc.idle_s / p.reps,
            double(comm1.cpu_ns - comm0.cpu_ns) * 1e-9 / p.reps,
            double(comm1.worker_steps - comm0.worker_steps) / p.reps,
            double(comm1.worker_step_completed - comm0.worker_step_completed) / p.reps,
            double(comm1.idle_steps_pending - comm0.idle_steps_pending) / p.reps,
            double(comm1.idle_parks_pending - comm0.idle_parks_pending) / p.reps,
            lc.kernel_s / p.reps};
        std::vector<double> all(n_each * np);
        ctx.call([&] {
          MPI_Gather(mine, n_each, MPI_DOUBLE, all.data(), n_each, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        });
        std::vector<double> idle(np), cpu(np), steps(np), done(np), again(np), parks(np),
            kernel(np);
        for (std::size_t k = 0; k < np; ++k) {
          idle[k] = all[n_each * k];
          cpu[k] = all[n_each * k + 1];
          steps[k] = all[n_each * k + 2];
          done[k] = all[n_each * k + 3];
          again[k] = all[n_each * k + 4];
          parks[k] = all[n_each * k + 5];
          kernel[k] = all[n_each * k + 6];
        }
        r["worker_idle_s"] = idle;
        // Rank 0's tile kernels (worker-seconds) and tile tasks per factorisation: with
        // worker_idle_s, where the workers' time went (kernels, idle, the rest: the runtime).
        r["kernel_s"] = lc.kernel_s / p.reps;
        r["tile_tasks"] = double(lc.tasks) / p.reps;
        r["kernel_s_per_rank"] = kernel;
        r["scheduler"] = p.scheduler;
        r["priorities"] = lc.priorities;
        r["comm_cpu_s_per_rank"] = cpu;
        r["worker_steps_per_rank"] = steps;
        r["worker_step_completed_per_rank"] = done;
        // options::idle_progress: idle workers' repeated steps while an import was pending,
        // and their parks while one was.
        r["idle_steps_pending_per_rank"] = again;
        r["idle_parks_pending_per_rank"] = parks;
      }
      if (lat) {
        result l = latency_summary(ctx, traces);
        if (ctx.rank() == 0) {
          // An estimate of a clock offset outside its own bound on one host: the latency
          // figures are not to be trusted, and the run says so (exit 1, latency.cpp).
          if (!l.value("clocks_consistent", true)) r["verified"] = false;
          r["latency"] = std::move(l);
        }
      }
      out.push_back(std::move(r));
    }
  }
  return out;
}

}  // namespace locus_mpi_bench
