// bench/harness/grid.hpp — the configurations a command line asks for, and the order in
// which their runs are scheduled.
#pragma once

#include <locus/config.hpp>

#include <cstddef>
#include <string>
#include <vector>

#include "../registry.hpp"
#include "cli.hpp"

namespace bench {

/// One point of the grid. policy and victims mean something only for runtime locus; the
/// other runtimes carry the defaults and print as "-".
struct bench_config {
  const kernel_info* kernel = nullptr;
  std::string size;  ///< resolved: the kernel's own value
  runtime_kind runtime = runtime_kind::serial;
  locus::spawn_policy policy = locus::spawn_policy::adaptive;
  locus::victim_policy victims = locus::victim_policy::hierarchical;
  unsigned workers = 1;
  schedule_mode schedule = schedule_mode::random;  ///< locus only
  flow_choice flow;                                ///< locus only; off for the others

  /// The policy / victims / schedule / flow column text: the name for locus, "-" otherwise.
  [[nodiscard]] std::string policy_text() const;
  [[nodiscard]] std::string victims_text() const;
  [[nodiscard]] std::string schedule_text() const;
  [[nodiscard]] std::string flow_text() const;
  /// "fib 35 locus adaptive hierarchical w=2" (policy and victims only for locus; the schedule
  /// too when it is not random: "memcpy 8MiB locus adaptive random stows w=2", and the flow
  /// options when not off: "cholesky 4096x256 locus adaptive random flow=one+priority w=2").
  [[nodiscard]] std::string label() const;
  /// Whether this binary has an implementation to run (for a schedule other than random, a
  /// locus implementation that replays: kernel_info::replays; for flow options other than off,
  /// one that takes them: kernel_info::flows, under the random schedule).
  [[nodiscard]] bool implemented() const noexcept;
};

/// Expands the lists into configurations, ordered kernel, size, runtime (in the order given),
/// policy, victims, schedule, flow, workers. Sizes are resolved per kernel and repeats dropped
/// (e.g. fj's small and default are the same). serial appears once per kernel and size, at 1
/// worker; tbb, omp, starpu and blas once per workers value; locus once per policy x victims x
/// schedule x flow x workers. The other runtimes carry flow off, whatever --flow says. When the
/// runtimes are the defaults, starpu and blas are left out for a kernel without them.
[[nodiscard]] std::vector<bench_config> expand_grid(const options& o);

/// One scheduled run: configuration index and repetition (1-based).
struct scheduled_run {
  std::size_t config = 0;
  unsigned rep = 1;
};

/// Interleaved order: for each repetition, every implemented configuration once, so slow
/// drift of the machine (thermal, background load) hits all configurations alike.
/// Configurations without an implementation are not scheduled.
[[nodiscard]] std::vector<scheduled_run> schedule(const std::vector<bench_config>& configs,
                                                  unsigned reps);

}  // namespace bench
