// bench/harness/cli.hpp — the locus-bench command line.
//
//   locus-bench KERNEL[,KERNEL...|all] [--size S[,S...]] [--runtime R[,R...]]
//               [--policy P[,P...]] [--victims V[,V...]] [--workers N[,N...]]
//               [--schedule M[,M...]] [--flow F[,F...]] [--reps R] [--json FILE]
//               [--timeout SECONDS]
//   locus-bench --list | --help
//
// The option values' names (policies, schedules, runtimes, --flow tokens ...) are names.hpp's.
//
// A hidden `--child --result-fd FD` mode runs exactly one configuration once and reports
// the result on FD; the parent uses it to run every measurement in a fresh process.
#pragma once

#include <locus/config.hpp>

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "../registry.hpp"
#include "names.hpp"

namespace bench {

/// A command-line error; main prints the message and the usage hint and exits with 2.
class cli_error : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// Values used for options the command line leaves out. main fills them from the
/// environment (locus::config::from_env()) and the machine; tests pass fixed ones.
struct cli_defaults {
  std::vector<runtime_kind> runtimes{runtime_kind::serial, runtime_kind::locus};
  std::vector<locus::spawn_policy> policies{locus::spawn_policy::adaptive};
  std::vector<locus::victim_policy> victims{locus::victim_policy::hierarchical};
  std::vector<unsigned> workers{1};
  std::vector<schedule_mode> schedules{schedule_mode::random};
  std::vector<flow_choice> flows{flow_choice{}};  ///< off
  unsigned reps = 5;
};

/// The parsed command line. Lists keep the user's order with duplicates removed.
struct options {
  std::vector<const kernel_info*> kernels;
  std::vector<std::string> sizes{"default"};  ///< "small", "default" or the kernel's own value
  std::vector<runtime_kind> runtimes;
  bool runtimes_defaulted = false;  ///< no --runtime: starpu / blas only where implemented
  std::vector<locus::spawn_policy> policies;
  std::vector<locus::victim_policy> victims;
  std::vector<unsigned> workers;
  std::vector<schedule_mode> schedules;  ///< locus only (--schedule)
  std::vector<flow_choice> flows;        ///< locus only (--flow)
  unsigned reps = 0;
  std::string json_path;  ///< empty: no JSON file
  double timeout_s = 0;   ///< per run; 0: no limit; at most max_timeout_s
  /// Locus runs only, passed to the child processes as LOCUS_TOPOLOGY, LOCUS_SCHEDULER and
  /// LOCUS_ACCOUNTING (empty / false: the environment's own).
  std::string topology;
  std::string scheduler;
  bool accounting = false;
  /// Locus runs write a Chrome trace each into this folder (LOCUS_BENCH_TRACE in the
  /// children; locus/ext/tracing.hpp). Empty: no traces.
  std::string trace_dir;
  bool help = false;   ///< --help: print usage, nothing else
  bool list = false;   ///< --list: print the kernel table, nothing else
  bool child = false;  ///< hidden: run one configuration once, report on result_fd
  int result_fd = -1;  ///< hidden: the pipe to report on (child mode only)
};

/// Parses argv[1..]; throws cli_error naming the bad argument and what was expected.
[[nodiscard]] options parse_cli(const std::vector<std::string>& args, const cli_defaults& defaults);

/// The usage text printed by --help.
[[nodiscard]] std::string usage();

/// Splits "a,b,c" into its items; an empty item is an error naming `what`.
[[nodiscard]] std::vector<std::string> split_list(std::string_view s, std::string_view what);
/// Splits `s` at every `sep`, empty pieces included ("a++b": a, "", b).
[[nodiscard]] std::vector<std::string_view> split(std::string_view s, char sep);

}  // namespace bench
