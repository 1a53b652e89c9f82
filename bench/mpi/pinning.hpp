// locus-mpi-bench: whether a rank pins its locus workers, one to each CPU it may run on.
//
// Pinning (locus::config::pin) keeps a worker on one core, so the tiles it wrote stay in that
// core's caches; unpinned workers, with the rank's main thread and its communication worker,
// float over the rank's CPUs. The runtime pins within the CPUs the process may use (the
// binding mpirun gave the rank), so it is safe whenever no other rank on the same host may use
// them: `auto` checks that (every rank's host name and CPU mask, gathered once) and that the
// rank has a CPU per worker. `on` and `off` force it; `off` is the default (the 16-core
// device showed no difference between pinned and unpinned workers at 1 rank x 4, 2026-11-26e).
#pragma once

#include <locus/mpi.hpp>

#include <string>

namespace locus_mpi_bench {

struct pin_choice {
  bool pin = false;
  std::string why;  ///< for the JSON and the log
};

/// Collective over the job when `mode` is "auto" (every rank must call it).
pin_choice choose_pinning(locus::mpi::context& ctx, const std::string& mode, unsigned workers);

}  // namespace locus_mpi_bench
