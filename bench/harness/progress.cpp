// bench/harness/progress.cpp
#include "progress.hpp"

#include <unistd.h>

#include <cerrno>

namespace bench {

progress_line::progress_line(int fd) : m_fd(fd), m_enabled(::isatty(fd) == 1) {}

std::string progress_line::text(std::size_t index, std::size_t total, const std::string& label,
                                unsigned rep, unsigned reps) {
  return "[" + std::to_string(index) + "/" + std::to_string(total) + "] " + label + " rep " +
         std::to_string(rep) + "/" + std::to_string(reps);
}

void progress_line::show(std::size_t index, std::size_t total, const std::string& label,
                         unsigned rep, unsigned reps) {
  if (!m_enabled) return;
  // "\x1b[K" erases what a longer previous line left to the right of the cursor.
  put("\r" + text(index, total, label, rep, reps) + "\x1b[K");
  m_shown = true;
}

void progress_line::clear() {
  if (!m_enabled || !m_shown) return;
  put("\r\x1b[K");
  m_shown = false;
}

void progress_line::put(const std::string& s) const {
  std::size_t done = 0;
  while (done < s.size()) {
    ssize_t n = ::write(m_fd, s.data() + done, s.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace bench
