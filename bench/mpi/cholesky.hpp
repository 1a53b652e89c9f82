// locus-mpi-bench cholesky: the distributed tiled Cholesky factorisation A = L Lᵀ and its peers.
//
// The matrix is bench/kernels/cholesky's (common.hpp: the input A = M Mᵀ + n I, the tile
// kernels potrf / trsm / syrk / gemm on single-threaded OpenBLAS, the serial task order, the
// residual). Its lower b x b tiles are spread 2-D block-cyclically over a P x Q grid of ranks:
// tile (i, j) lives on rank (i mod P) * Q + (j mod Q), the layout ScaLAPACK's BLACS grid uses
// with row-major process order, so every runtime starts from the same tiles on the same ranks.
//
// Each runtime's function factors the tiles of a dist_tiles in place (each rank its own) and
// returns the seconds of its timed part (every rank between two barriers); what it does to
// convert to and from its own layout is untimed. The driver (cholesky.cpp) gathers L on rank 0
// after the last repetition and checks it: against the serial tiled run (the same tile
// operations in the same order per tile, so the difference is rounding only) and by the
// residual ‖A − L Lᵀ‖_F / ‖A‖_F < 1e-12 n.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "../kernels/cholesky/common.hpp"
#include "bench.hpp"

namespace locus_mpi_bench::chol {

/// A P x Q process grid (P rows); P * Q = ranks.
struct grid2d {
  int p = 1, q = 1;
};
/// The most square grid of `ranks` with P >= Q (2 -> 2x1, 4 -> 2x2, 6 -> 3x2).
[[nodiscard]] grid2d grid_for(int ranks);
/// The grid `spec` names ("PxQ", P, Q >= 1, P * Q = ranks), or grid_for(ranks) when it is
/// empty; throws std::invalid_argument (naming the spec and the ranks) otherwise.
[[nodiscard]] grid2d parse_grid(const std::string& spec, int ranks);

/// This rank's lower tiles of a block-cyclic matrix, each b x b column-major (ld b), contiguous.
class dist_tiles {
 public:
  dist_tiles(cholesky_kernel::dims d, grid2d g, int rank);

  [[nodiscard]] const cholesky_kernel::dims& size() const noexcept { return m_d; }
  [[nodiscard]] const grid2d& grid() const noexcept { return m_g; }
  [[nodiscard]] std::size_t tiles() const noexcept { return m_d.tiles(); }
  [[nodiscard]] int rank() const noexcept { return m_rank; }
  /// The rank that holds tile (i, j).
  [[nodiscard]] int owner(std::size_t i, std::size_t j) const noexcept {
    return static_cast<int>(i % static_cast<std::size_t>(m_g.p)) * m_g.q +
           static_cast<int>(j % static_cast<std::size_t>(m_g.q));
  }
  [[nodiscard]] bool mine(std::size_t i, std::size_t j) const noexcept {
    return owner(i, j) == m_rank;
  }
  /// Tile (i, j), i >= j, held here (throws std::logic_error otherwise).
  [[nodiscard]] double* tile(std::size_t i, std::size_t j);
  /// Copies this rank's tiles of `a` in.
  void load(const cholesky_kernel::tiled_matrix& a);
  [[nodiscard]] std::size_t tile_bytes() const noexcept { return m_d.b * m_d.b * sizeof(double); }

 private:
  cholesky_kernel::dims m_d;
  grid2d m_g;
  int m_rank;
  std::vector<std::size_t> m_slot;  ///< per tile (i * nt + j): index into m_data's tiles, or npos
  std::unique_ptr<double[]> m_data;
};

/// The process's CPU time so far (every thread, user and system), seconds.
[[nodiscard]] double process_cpu_s();
/// Every worker's idle time so far (runtime::stats; monotone between two resets).
[[nodiscard]] std::uint64_t idle_ns(const locus::runtime& rt);

/// What locus's factorisations add up (this rank, every repetition): the workers' idle time
/// (looking for work or asleep, every worker summed) from the graph's creation to the end of
/// its wait(); the tile kernels' time (every task's kernel call, summed: worker-seconds); the
/// graph's tasks.
/// The tile kernels a rank ran (--tile-trace): per factorisation its start (the graph's
/// creation), then each task with its kernel's start and end; steady-clock seconds, one clock
/// for the ranks of one host. Tasks append under the mutex (a trace is a diagnosis, not a
/// measurement: the timed runs leave it off).
struct tile_trace {
  struct span {
    cholesky_kernel::tile_task t;
    double start, end;
  };
  std::mutex mx;
  std::vector<double> graphs;
  std::vector<std::vector<span>> spans;  ///< per factorisation
};

struct locus_counts {
  double idle_s = 0, kernel_s = 0;
  std::uint64_t tasks = 0;
  std::shared_ptr<tile_trace> trace;  ///< null: no trace
  /// Give the tile tasks priorities (the panel first; they order the ready queues of a flow
  /// scheduler, and the default scheduler ignores them).
  bool priorities = true;
};

/// Writes `t` to `path` (one line per factorisation start and per task; the file's first line
/// says the format); throws std::runtime_error if it cannot.
void write_trace(const tile_trace& t, const std::string& path);

/// The runtimes; each returns the timed seconds. `workers`: threads per rank for the ones that
/// take a count (OpenMP); locus uses the runtime's workers and adds to `c`.
double factor_locus(locus::mpi::context& ctx, locus::runtime& rt, dist_tiles& a, locus_counts& c);
double factor_bsp(locus::mpi::context& ctx, dist_tiles& a, unsigned workers);
#if LOCUS_MPI_BENCH_SCALAPACK
double factor_scalapack(locus::mpi::context& ctx, dist_tiles& a);
#endif
#if LOCUS_MPI_BENCH_STARPU
double factor_starpu(locus::mpi::context& ctx, dist_tiles& a, unsigned workers);
#endif

/// The runtimes this build has, in the order they run.
[[nodiscard]] std::vector<std::string> available_runtimes();

}  // namespace locus_mpi_bench::chol
