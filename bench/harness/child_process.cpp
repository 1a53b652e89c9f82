// bench/harness/child_process.cpp — fork, exec, read the result pipe, wait4.
#include "child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace bench {

namespace {

// In the forked child only async-signal-safe calls are allowed before exec: no allocation,
// hence argv is prepared by the parent.
[[noreturn]] void exec_child(const std::string& path, char* const* argv, int pipe_write,
                             int result_fd) {
  if (pipe_write == result_fd) {
    // dup2 onto itself keeps close-on-exec; clear it so the pipe survives exec.
    ::fcntl(result_fd, F_SETFD, 0);
  } else if (::dup2(pipe_write, result_fd) < 0) {
    ::_exit(127);
  }
  ::execv(path.c_str(), argv);
  ::_exit(127);
}

// Reads the pipe until the child closes it; false when the deadline passed first.
bool read_until_eof(int fd, std::string& out, double timeout_s) {
  using clock = std::chrono::steady_clock;
  // No limit past max_timeout_s (the command line refuses more): the deadline must not
  // overflow clock::duration (signed nanoseconds).
  if (!(timeout_s <= max_timeout_s)) timeout_s = 0;
  const auto deadline = clock::now() + std::chrono::duration_cast<clock::duration>(
                                           std::chrono::duration<double>(timeout_s));
  char buf[4096];
  for (;;) {
    int wait_ms = -1;
    if (timeout_s > 0) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now());
      if (left.count() <= 0) return false;
      wait_ms = static_cast<int>(std::min<long long>(left.count(), 1 << 30));
    }
    pollfd p{fd, POLLIN, 0};
    int r = ::poll(&p, 1, wait_ms);
    if (r < 0 && errno == EINTR) continue;
    if (r == 0) return false;
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return true;
    out.append(buf, static_cast<std::size_t>(n));
  }
}

}  // namespace

std::string child_outcome::describe_failure(double timeout_s) const {
  if (!started) return "could not start: " + error;
  if (timed_out) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "timed out after %g s", timeout_s);
    return buf;
  }
  if (signal != 0) {
    const char* name = ::strsignal(signal);
    return "killed by signal " + std::to_string(signal) +
           (name ? std::string(" (") + name + ")" : "");
  }
  if (exit_code == 127) return "exit status 127 (exec failed?)";
  return "exit status " + std::to_string(exit_code);
}

child_outcome run_child(const std::string& path, const std::vector<std::string>& argv,
                        int result_fd, double timeout_s) {
  child_outcome res;
  std::vector<char*> cargv;
  cargv.reserve(argv.size() + 1);
  for (const auto& a : argv)
    cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);

  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    res.error = std::string("pipe: ") + std::strerror(errno);
    return res;
  }
  pid_t pid = ::fork();
  if (pid < 0) {
    res.error = std::string("fork: ") + std::strerror(errno);
    ::close(fds[0]);
    ::close(fds[1]);
    return res;
  }
  if (pid == 0) exec_child(path, cargv.data(), fds[1], result_fd);

  res.started = true;
  ::close(fds[1]);
  if (!read_until_eof(fds[0], res.line, timeout_s)) {
    res.timed_out = true;
    ::kill(pid, SIGKILL);
  }
  ::close(fds[0]);

  int status = 0;
  rusage ru{};
  while (::wait4(pid, &status, 0, &ru) < 0) {
    if (errno != EINTR) {
      res.error = std::string("wait4: ") + std::strerror(errno);
      res.started = false;
      return res;
    }
  }
  res.peak_rss_kib = ru.ru_maxrss;
  if (WIFEXITED(status)) res.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) res.signal = WTERMSIG(status);
  if (res.timed_out) res.signal = 0;
  while (!res.line.empty() && (res.line.back() == '\n' || res.line.back() == '\r')) {
    res.line.pop_back();
  }
  return res;
}

}  // namespace bench
