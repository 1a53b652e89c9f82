// cholesky, locus: one distributed graph (locus::mpi::dist_graph) per factorisation. Each rank
// creates the tasks that write its own tiles (the owner computes), in the serial task order;
// a task's slot 0 is the current version of the tile it writes (a local event), the other
// slots the final tiles it reads: L[k][k] after potrf, L[i][k] after trsm. A final tile is
// the distributed event of key i * nt + k, owned by the tile's rank: there the potrf or trsm
// that finishes it satisfies it; any rank that reads it asks for it when its graph is built,
// and the communication worker satisfies the rank's copy (a datablock) when the owner's value
// arrives. So every tile crosses to a rank at most once, and a rank's tasks start as soon as
// the tiles they read are there: no step-wide barrier. The graph is built inside the timed
// region, as in locus-bench's cholesky.
#include <locus/dataflow.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <memory>

#include "cholesky.hpp"

namespace locus_mpi_bench::chol {

namespace {

namespace df = locus::dataflow;
namespace ck = cholesky_kernel;
using op = ck::tile_task::op;

/// The size a rank declares for the tiles it reads: the tile's, so each arrives as one message;
/// 0 with LOCUS_MPI_BENCH_ANY_SIZE=1 (set), so each comes as a header then the bytes (the
/// protocol before 2026-11-26e, for comparison).
std::size_t declared_bytes(std::size_t bytes) {
  static const bool any = std::getenv("LOCUS_MPI_BENCH_ANY_SIZE") != nullptr;
  return any ? 0 : bytes;
}

/// The tile kernels' nanoseconds, summed over the tasks (relaxed: a sum read after wait()).
using kernel_clock = std::chrono::steady_clock;

/// Shared by the tasks (a task that outlives a failed wait() still has its counter).
using kernel_counter = std::shared_ptr<std::atomic<std::uint64_t>>;

/// A tile task's priority: the panel first. Column j's tasks rank above those of every later
/// column, and within a column potrf above trsm above the updates (syrk, gemm): the critical
/// path of the factorisation runs down the panels, and a rank that waits for another's panel
/// idles (docs/benchmarks-mpi.md, 2026-11-27d).
/// Saturated at 0xfffe (task_hint::priority has 16 bits; more than 16,383 tile columns would
/// share the top priority).
std::uint16_t priority_of(const ck::tile_task& t, std::size_t nt) {
  const std::size_t within = t.kind == op::potrf ? 3 : t.kind == op::trsm ? 2 : 1;
  return static_cast<std::uint16_t>(std::min<std::size_t>((nt - t.j) * 4 + within, 0xfffe));
}

double seconds(kernel_clock::time_point t) {
  return std::chrono::duration<double>(t.time_since_epoch()).count();
}

void build(locus::mpi::dist_graph& dg, dist_tiles& a, const kernel_counter& kernel_ns,
           locus_counts& c) {
  const std::size_t nt = a.tiles(), b = a.size().b, bytes = a.tile_bytes();
  const std::size_t declared = declared_bytes(bytes);
  const auto key = [nt](std::size_t i, std::size_t j) { return i * nt + j; };
  std::vector<df::event<df::datablock>> cur(nt * nt);  // this rank's tiles' latest versions
  for (std::size_t i = 0; i < nt; ++i)
    for (std::size_t j = 0; j <= i; ++j)
      if (a.mine(i, j)) cur[key(i, j)].satisfy(df::datablock::wrap(a.tile(i, j), bytes));
  ck::for_each_task(nt, [&](const ck::tile_task& t) {
    if (!a.mine(t.i, t.j)) return;
    std::size_t reads[2];
    std::uint32_t nreads = 0;
    if (t.kind == op::trsm) reads[nreads++] = key(t.k, t.k);
    if (t.kind == op::syrk || t.kind == op::gemm) reads[nreads++] = key(t.i, t.k);
    if (t.kind == op::gemm) reads[nreads++] = key(t.j, t.k);
    const std::size_t w = key(t.i, t.j);
    // potrf and trsm finish their tile: its distributed event is what readers wait for.
    const bool final_tile = t.kind == op::potrf || t.kind == op::trsm;
    df::event<df::datablock> out =
        final_tile ? dg.event<df::datablock>(w, bytes) : df::event<df::datablock>();
    ++c.tasks;
    std::shared_ptr<tile_trace> trace = c.trace;
    const df::task_hint hint{.priority = c.priorities ? priority_of(t, nt) : std::uint16_t{0}};
    df::edt e = dg.task(
        1 + nreads,
        [t, b, nreads, out, kernel_ns, trace](df::edt_args& in) mutable {
          double* x = in.get<df::datablock>(0).as<double>().data();
          const double* r0 = nreads > 0 ? in.read<double>(1).data() : nullptr;
          const double* r1 = nreads > 1 ? in.read<double>(2).data() : nullptr;
          const auto t0 = kernel_clock::now();
          switch (t.kind) {
            case op::potrf:
              ck::potrf(x, b);
              break;
            case op::trsm:
              ck::trsm(r0, x, b);
              break;
            case op::syrk:
              ck::syrk(r0, x, b);
              break;
            case op::gemm:
              ck::gemm(r0, r1, x, b);
              break;
          }
          const auto t1 = kernel_clock::now();
          kernel_ns->fetch_add(
              static_cast<std::uint64_t>(
                  std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count()),
              std::memory_order_relaxed);
          if (trace) {
            std::lock_guard lk(trace->mx);
            trace->spans.back().push_back({t, seconds(t0), seconds(t1)});
          }
          out.satisfy(in.get<df::datablock>(0));
        },
        hint);
    df::add_dependence(cur[w], e, 0);
    for (std::uint32_t s = 0; s < nreads; ++s)
      df::add_dependence(dg.event<df::datablock>(reads[s], declared), e, 1 + s);
    cur[w] = std::move(out);
  });
}

}  // namespace

double factor_locus(locus::mpi::context& ctx, locus::runtime& rt, dist_tiles& a, locus_counts& c) {
  const auto kernel_ns = std::make_shared<std::atomic<std::uint64_t>>(0);
  const double s = timed(ctx, [&] {
    if (c.trace) {
      std::lock_guard lk(c.trace->mx);
      c.trace->graphs.push_back(seconds(kernel_clock::now()));
      c.trace->spans.emplace_back();
    }
    const std::uint64_t idle0 = idle_ns(rt);
    const std::size_t nt = a.tiles();
    locus::mpi::dist_graph dg(rt, [&a, nt](std::uint64_t k) { return a.owner(k / nt, k % nt); });
    build(dg, a, kernel_ns, c);
    dg.wait();
    c.idle_s += double(idle_ns(rt) - idle0) * 1e-9;
  });
  // After wait(): every task's fetch_add happened before the graph was done.
  c.kernel_s += double(kernel_ns->load(std::memory_order_relaxed)) * 1e-9;
  return s;
}

}  // namespace locus_mpi_bench::chol
