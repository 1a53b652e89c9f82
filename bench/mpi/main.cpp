// locus-mpi-bench: the mpi module's benchmarks, run under mpirun.
//   mpirun -np 2 locus-mpi-bench pingpong|heat|cholesky|all [--reps N] [--iters N] [--size RxC]
//          [--chol-sizes NxB,...] [--grid PxQ] [--scheduler slaw|flow] [--no-priorities]
//          [--tile-trace PREFIX] [--runtimes locus,mpi-omp,scalapack,starpu-mpi]
//          [--workers N] [--progress shared|dedicated] [--spin-us N] [--max-sleep-us N]
//          [--worker-poll-us N]
//          [--funneled] [--no-worker-progress] [--busy-sleep-us N] [--idle-progress-us N]
//          [--pin off|on|auto]
//          [--json FILE]
// It exits with 1 if a result was not verified.
// Rank 0 prints a table and writes the JSON (locus-bench's shape: machine, command, results).
#include <mpi.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <thread>

#include <locus/dataflow.hpp>

#include "bench.hpp"
#include "pinning.hpp"

namespace locus_mpi_bench {

double timed(locus::mpi::context& ctx, const std::function<void()>& f) {
  locus::mpi::barrier().wait();
  const auto t0 = std::chrono::steady_clock::now();
  f();
  locus::mpi::barrier().wait();
  (void)ctx;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

spread spread_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return {v[v.size() / 2], v.front(), v.back()};
}

}  // namespace locus_mpi_bench

int main(int argc, char** argv) {
  using namespace locus_mpi_bench;
  std::string command = argv[0];
  for (int i = 1; i < argc; ++i)
    command += std::string(" ") + argv[i];
  CLI::App app{"locus-mpi-bench: the mpi module's benchmarks (run under mpirun)"};
  std::string kernel = "all", json_path, progress = "shared";
  params p;
  unsigned workers = 1;
  app.add_option("kernel", kernel, "pingpong, heat, cholesky or all")
      ->check(CLI::IsMember({"pingpong", "heat", "cholesky", "all"}));
  app.add_option("--reps", p.reps, "repetitions (median reported)")->check(CLI::PositiveNumber);
  app.add_option("--iters", p.iters, "round trips (pingpong) or steps (heat); 0: default");
  app.add_option("--size", p.sizes, "heat grid RxC (default 2048x2048)");
  app.add_option("--pp-bytes", p.pp_bytes, "pingpong message sizes in bytes (default: 8 1048576)");
  app.add_option("--chol-sizes", p.chol_sizes, "cholesky sizes NxB[,NxB...] (default 4096x256)");
  app.add_option("--grid", p.grid,
                 "cholesky process grid PxQ, P * Q = ranks (default: the most square, P >= Q)");
  std::string& sched = p.scheduler;
  app.add_option("--scheduler", sched,
                 "locus's scheduler: slaw (the default scheduler: a ready graph task goes on the "
                 "enabling worker's deque) or flow (dataflow::flow_scheduler, ready queues in "
                 "priority order, then newest first)")
      ->check(CLI::IsMember({"slaw", "flow"}));
  bool no_priorities = false;
  app.add_flag("--no-priorities", no_priorities,
               "cholesky, locus: tile tasks without priorities (all 0)");
  app.add_option("--tile-trace", p.tile_trace,
                 "cholesky, locus: write each rank's tile tasks (start, end) to PREFIX.RANK");
  app.add_option("--runtimes", p.runtimes, "cholesky runtimes (default: all built)")
      ->delimiter(',');
  app.add_option("--workers", workers, "locus workers (and OpenMP threads) per rank")
      ->check(CLI::PositiveNumber);
  app.add_option("--progress", progress, "the communication worker: shared or dedicated")
      ->check(CLI::IsMember({"shared", "dedicated"}));
  bool funneled = false;
  app.add_flag("--funneled", funneled,
               "every MPI operation through the communication worker (options::direct off)");
  long worker_poll_us = -1;
  app.add_option("--worker-poll-us", worker_poll_us,
                 "direct start: µs idle workers poll a pending request before the communication "
                 "worker takes it (0: at once; default: the module's)");
  long per_mib_us = -1;
  app.add_option("--worker-poll-per-mib-us", per_mib_us,
                 "direct start: µs added to --worker-poll-us per MiB of the message (default: "
                 "the module's)");
  long spin_us = -1;
  app.add_option("--spin-us", spin_us,
                 "shared progress: µs of polling after activity (default: the module's)");
  long max_sleep_us = -1;
  app.add_option("--max-sleep-us", max_sleep_us,
                 "shared progress: the longest sleep while requests are pending (default: the "
                 "module's)");
  bool no_worker_progress = false;
  app.add_flag("--no-worker-progress", no_worker_progress,
               "direct start: only the communication worker progresses (options::worker_progress "
               "off)");
  long busy_sleep_us = -1;
  app.add_option("--busy-sleep-us", busy_sleep_us,
                 "worker progress: the communication worker's sleep step while every worker "
                 "computes (default: the module's)");
  long idle_progress_us = -1;
  app.add_option("--idle-progress-us", idle_progress_us,
                 "worker progress: µs an idle worker keeps stepping while a receive its rank's "
                 "tasks wait on is pending (0: one step, then it parks; default: the module's)");
  app.add_flag("--lat", p.lat,
               "cholesky, locus: trace every remote tile and add the latency of a remote "
               "dependence (\"latency\") to the JSON");
  std::string pin = "off";
  app.add_option("--pin", pin,
                 "pin each locus worker to one of the rank's CPUs: off (default), on, or auto "
                 "(when no other rank on the host may use them and there is one per worker)")
      ->check(CLI::IsMember({"auto", "on", "off"}));
  app.add_option("--json", json_path, "write the results here (rank 0)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  p.priorities = !no_priorities;
  locus::mpi::options o;
  o.progress = progress == "dedicated" ? locus::mpi::progress_mode::dedicated
                                       : locus::mpi::progress_mode::shared;
  if (max_sleep_us > 0) o.max_sleep = std::chrono::microseconds(max_sleep_us);
  if (spin_us >= 0) o.spin = std::chrono::microseconds(spin_us);
  if (worker_poll_us >= 0) o.worker_poll = std::chrono::microseconds(worker_poll_us);
  if (per_mib_us >= 0) o.worker_poll_per_mib = std::chrono::microseconds(per_mib_us);
  o.direct = !funneled;
  o.worker_progress = !no_worker_progress;
  if (busy_sleep_us > 0) o.busy_sleep = std::chrono::microseconds(busy_sleep_us);
  if (idle_progress_us >= 0) o.idle_progress = std::chrono::microseconds(idle_progress_us);
  // StarPU-MPI's progress thread calls MPI beside the communication worker: MPI_THREAD_MULTIPLE,
  // asked for here only when that peer runs (the context adopts this MPI; the others run on
  // the module's own FUNNELED initialisation).
  const bool multiple = (kernel == "cholesky" || kernel == "all") &&
                        (p.runtimes.empty() || std::find(p.runtimes.begin(), p.runtimes.end(),
                                                         "starpu-mpi") != p.runtimes.end());
  bool we_init = false;
#if LOCUS_MPI_BENCH_STARPU
  if (multiple) {
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    we_init = true;
  }
#else
  (void)multiple;
#endif
  std::optional<locus::mpi::context> ctx_storage;
  ctx_storage.emplace(argc, argv, o);
  locus::mpi::context& ctx = *ctx_storage;
  locus::config cfg;
  cfg.workers = workers;
  const pin_choice pinned = choose_pinning(ctx, pin, workers);
  cfg.pin = pinned.pin;
  const std::shared_ptr<locus::dataflow::flow_scheduler> flow =
      sched == "flow" ? locus::dataflow::flow_scheduler::make() : nullptr;
  if (flow) cfg.custom_scheduler = flow->scheduler();
  std::optional<locus::runtime> rt_storage;
  rt_storage.emplace(cfg);
  locus::runtime& rt = *rt_storage;
  std::vector<result> all;
  try {
    if (kernel == "pingpong" || kernel == "all")
      for (auto& r : pingpong(ctx, rt, p))
        all.push_back(r);
    if (kernel == "heat" || kernel == "all")
      for (auto& r : heat(ctx, rt, p))
        all.push_back(r);
    if (kernel == "cholesky" || kernel == "all") {
#if LOCUS_MPI_BENCH_CHOLESKY
      for (auto& r : cholesky(ctx, rt, p))
        all.push_back(r);
#else
      if (kernel == "cholesky")
        throw std::invalid_argument("cholesky is not built (no OpenBLAS found)");
#endif
    }
  } catch (const std::exception& e) {
    // Every rank is told (a rank waiting in a locus operation fails; one inside raw MPI is
    // ended by the context's fault timeout), then this rank leaves with the error.
    std::fprintf(stderr, "locus-mpi-bench: rank %d: error: %s\n", ctx.rank(), e.what());
    ctx.fail(e.what());
    rt_storage.reset();
    ctx_storage.reset();
    if (we_init) MPI_Finalize();
    return 2;
  }
  bool ok = true;
  if (ctx.rank() == 0) {
    std::printf("%-9s %-16s %-10s %5s %7s %12s %12s %12s %9s %s\n", "kernel", "size", "runtime",
                "ranks", "workers", "median_s", "latency_us", "MB/s", "GFLOP/s", "verified");
    for (const auto& r : all) {
      std::printf(
          "%-9s %-16s %-10s %5d %7u %12.6f %12s %12s %9s %s\n",
          r["kernel"].get<std::string>().c_str(), r["size"].get<std::string>().c_str(),
          r["runtime"].get<std::string>().c_str(), r["ranks"].get<int>(),
          r["workers"].get<unsigned>(), r["median_s"].get<double>(),
          r.contains("latency_us") ? std::to_string(r["latency_us"].get<double>()).c_str() : "-",
          r.contains("bandwidth_MBps") ? std::to_string(r["bandwidth_MBps"].get<double>()).c_str()
                                       : "-",
          r.contains("gflops") ? std::to_string(r["gflops"].get<double>()).substr(0, 7).c_str()
                               : "-",
          r["verified"].get<bool>() ? "yes" : "NO");
      ok = ok && r["verified"].get<bool>();
    }
    if (!json_path.empty()) {
      nlohmann::json doc{{"machine",
                          {{"hardware_threads", std::thread::hardware_concurrency()},
                           {"note", "shared machine; ranks x workers as given"}}},
                         {"pinned", pinned.pin},
                         {"pin_reason", pinned.why},
                         {"command", command},
                         {"results", all}};
      std::ofstream(json_path) << doc.dump(2) << "\n";
    }
  }
  rt_storage.reset();
  ctx_storage.reset();
  if (we_init) MPI_Finalize();
  return ok ? 0 : 1;
}
