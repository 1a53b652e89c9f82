// bench/harness/progress.cpp
#include "progress.hpp"

#include <unistd.h>

#include <cerrno>

namespace bench {

progress_line::progress_line(int fd) : m_fd(fd), m_enabled(::isatty(fd) == 1) {}

std::string progress_line::text(std::size_t index, std::size_t total, const std::string& label,
                                unsigned rep, unsigned reps) {
  // Built by appending: chained operator+ on temporaries trips a GCC 12 -Wrestrict false
  // positive.
  std::string s = "[";
  s += std::to_string(index);
  s += '/';
  s += std::to_string(total);
  s += "] ";
  s += label;
  s += " rep ";
  s += std::to_string(rep);
  s += '/';
  s += std::to_string(reps);
  return s;
}

void progress_line::show(std::size_t index, std::size_t total, const std::string& label,
                         unsigned rep, unsigned reps) {
  if (!m_enabled) return;
  // "\x1b[K" erases what a longer previous line left to the right of the cursor.
  std::string line = "\r";
  line += text(index, total, label, rep, reps);
  line += "\x1b[K";
  put(line);
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
