// bench/harness/progress.hpp — a one-line progress display on stderr, rewritten in place
// with '\r'; silent when stderr is not a terminal so logs and pipes stay clean.
#pragma once

#include <cstddef>
#include <string>

namespace bench {

class progress_line {
 public:
  /// Enabled when file descriptor `fd` is a terminal.
  explicit progress_line(int fd = 2);
  /// Forces enabled or disabled (tests).
  progress_line(int fd, bool enabled) : m_fd(fd), m_enabled(enabled) {}
  progress_line(const progress_line&) = delete;
  progress_line& operator=(const progress_line&) = delete;
  ~progress_line() { clear(); }

  /// "[12/48] fib 35 locus adaptive hierarchical w=2 rep 3/5"
  [[nodiscard]] static std::string text(std::size_t index, std::size_t total,
                                        const std::string& label, unsigned rep, unsigned reps);

  /// Shows run `index` (1-based) of `total`.
  void show(std::size_t index, std::size_t total, const std::string& label, unsigned rep,
            unsigned reps);
  /// Erases the line (before printing anything else to the terminal).
  void clear();
  [[nodiscard]] bool enabled() const noexcept { return m_enabled; }

 private:
  void put(const std::string& s) const;

  int m_fd;
  bool m_enabled;
  bool m_shown = false;
};

}  // namespace bench
