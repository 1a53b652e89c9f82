// locus-mpi-bench: whether a rank pins its locus workers (--pin auto|on|off, pinning.hpp).
#include "pinning.hpp"

#include <mpi.h>
#include <sched.h>

#include <cstdint>
#include <vector>

namespace locus_mpi_bench {

namespace {

constexpr int k_words = 16;  // CPUs 0..1023: the mask each rank sends

/// This thread's allowed CPUs as a bit mask (the rank's binding: mpirun sets it on the process).
std::vector<std::uint64_t> allowed_mask(int& count) {
  std::vector<std::uint64_t> m(k_words, 0);
  cpu_set_t set;
  CPU_ZERO(&set);
  count = 0;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return m;
  for (int c = 0; c < k_words * 64 && c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) {
      m[static_cast<std::size_t>(c / 64)] |= std::uint64_t{1} << (c % 64);
      ++count;
    }
  return m;
}

}  // namespace

pin_choice choose_pinning(locus::mpi::context& ctx, const std::string& mode, unsigned workers) {
  int count = 0;
  std::vector<std::uint64_t> mine = allowed_mask(count);
  if (mode == "on") return {true, "--pin on"};
  if (mode == "off") return {false, "--pin off"};
  // auto: every rank's host name and mask, so a rank pins only if no rank on its host may run
  // on one of its CPUs (pinning worker w to the w-th allowed CPU in each of two ranks that share
  // CPUs would put two workers on one CPU while others stay free).
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int len = 0;
  const int n = ctx.size();
  std::vector<char> names(static_cast<std::size_t>(n) * MPI_MAX_PROCESSOR_NAME);
  std::vector<std::uint64_t> masks(static_cast<std::size_t>(n) * k_words);
  ctx.call([&] {
    MPI_Get_processor_name(name, &len);
    MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, names.data(), MPI_MAX_PROCESSOR_NAME,
                  MPI_CHAR, MPI_COMM_WORLD);
    MPI_Allgather(mine.data(), k_words, MPI_UINT64_T, masks.data(), k_words, MPI_UINT64_T,
                  MPI_COMM_WORLD);
  });
  const std::string host(name);
  for (int r = 0; r < n; ++r) {
    if (r == ctx.rank()) continue;
    if (std::string(&names[static_cast<std::size_t>(r) * MPI_MAX_PROCESSOR_NAME]) != host) continue;
    for (int w = 0; w < k_words; ++w)
      if ((masks[static_cast<std::size_t>(r) * k_words + static_cast<std::size_t>(w)] &
           mine[static_cast<std::size_t>(w)]) != 0)
        return {false, "auto: rank " + std::to_string(r) + " shares a CPU with this rank"};
  }
  if (static_cast<unsigned>(count) < workers)
    return {false,
            "auto: " + std::to_string(count) + " CPUs for " + std::to_string(workers) + " workers"};
  return {true, "auto: this rank's " + std::to_string(count) + " CPUs are its own"};
}

}  // namespace locus_mpi_bench
