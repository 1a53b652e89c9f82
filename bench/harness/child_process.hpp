// bench/harness/child_process.hpp — runs a program in a child process, reads the one line
// it reports on a dedicated pipe, and collects its exit status and peak memory.
#pragma once

#include <string>
#include <vector>

namespace bench {

/// How a child ended.
struct child_outcome {
  bool started = false;    ///< fork and exec succeeded
  bool timed_out = false;  ///< killed after the time limit
  int exit_code = -1;      ///< exit status when it exited normally, else -1
  int signal = 0;          ///< the signal that ended it, else 0
  long peak_rss_kib = 0;   ///< rusage.ru_maxrss from wait4 (KiB on Linux)
  std::string line;        ///< everything it wrote on the result pipe, trailing newline removed
  std::string error;       ///< why it could not be started, when !started

  /// Exited normally with status 0.
  [[nodiscard]] bool clean_exit() const noexcept { return started && !timed_out && exit_code == 0; }
  /// "exit status 3", "killed by signal 11 (Segmentation fault)", "timed out after 5 s", ...
  [[nodiscard]] std::string describe_failure(double timeout_s) const;
};

/// The largest timeout run_child applies (a year, in seconds; --timeout refuses more): a
/// child's deadline is steady_clock::now() plus the timeout in nanoseconds, which overflows
/// past about 9.2e9 s. A larger one means no limit.
inline constexpr double max_timeout_s = 365.0 * 24 * 3600;

/// Runs `path` with `argv` (argv[0] included). The child finds the write end of a pipe at
/// file descriptor `result_fd` (3 or more); its stdin, stdout and stderr are inherited.
/// With timeout_s > 0 the child is killed with SIGKILL when it runs longer.
///
/// Peak memory note: Linux keeps the high-water mark of the address space replaced by exec,
/// so a forked child's ru_maxrss is at least the parent's resident size at the fork; the
/// harness parent stays small, which keeps that floor at a few MiB.
[[nodiscard]] child_outcome run_child(const std::string& path, const std::vector<std::string>& argv,
                                      int result_fd, double timeout_s);

}  // namespace bench
