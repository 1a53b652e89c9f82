// bench/harness/report.cpp — machine description and the JSON results document.
#include "report.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace bench {

namespace {

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  // x86 says "model name"; many aarch64 kernels say nothing useful, so fall back.
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0 || line.rfind("Model", 0) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos) {
        auto start = line.find_first_not_of(" \t", colon + 1);
        return start == std::string::npos ? "" : line.substr(start);
      }
    }
  }
  return "unknown";
}

std::string optional_number(const std::optional<double>& d) {
  return d ? json::number(*d) : "null";
}

}  // namespace

std::string machine_json() {
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0) std::strcpy(host, "unknown");
  utsname u{};
  std::string os =
      ::uname(&u) == 0 ? std::string(u.sysname) + " " + u.release + " " + u.machine : "unknown";
  std::string peers = json::object_writer{}
                          .boolean("tbb", runtime_built(runtime_kind::tbb))
                          .boolean("omp", runtime_built(runtime_kind::omp))
                          .str();
  return json::object_writer{}
      .num("nproc", static_cast<double>(::sysconf(_SC_NPROCESSORS_ONLN)))
      .str("cpu_model", cpu_model())
      .str("hostname", host)
      .str("os", os)
#if defined(__clang__)
      .str("compiler", std::string("clang ") + __clang_version__)
#elif defined(__GNUC__)
      .str("compiler", std::string("gcc ") + __VERSION__)
#endif
      .raw("peers", peers)
      .str();
}

std::string command_line(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) {
    if (!out.empty()) out += ' ';
    bool plain = !a.empty() && a.find_first_not_of(
                                   "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                   "0123456789-_./=,:+@%") == std::string::npos;
    if (plain) {
      out += a;
      continue;
    }
    out += '\'';
    for (char c : a)
      out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += '\'';
  }
  return out;
}

std::string result_json(const config_summary& s) {
  const bench_config& c = s.config;
  return json::object_writer{}
      .str("kernel", c.kernel->name)
      .str("size", c.size)
      .str("runtime", to_string(c.runtime))
      .str("policy", c.policy_text())
      .str("victims", c.victims_text())
      .num("workers", c.workers)
      .num("reps", s.reps)
      .raw("median_s", optional_number(s.median_s))
      .raw("min_s", optional_number(s.min_s))
      .raw("max_s", optional_number(s.max_s))
      .boolean("verified", s.verified)
      .num("peak_rss_kib", static_cast<double>(s.peak_rss_kib))
      .raw("stats", s.stats.is_null() ? "{}" : s.stats.dump())
      .str("detail", s.detail)
      .str();
}

std::string report_json(const std::string& machine, const std::string& command,
                        const std::vector<config_summary>& results) {
  std::string out =
      "{\"machine\":" + machine + ",\n\"command\":" + json::quote(command) + ",\n\"results\":[";
  for (std::size_t i = 0; i < results.size(); ++i) {
    out += i == 0 ? "\n" : ",\n";
    out += result_json(results[i]);
  }
  return out + "\n]}\n";
}

void write_report(const std::string& path, const std::string& machine, const std::string& command,
                  const std::vector<config_summary>& results) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error("--json: cannot open '" + path + "': " + std::strerror(errno));
  out << report_json(machine, command, results);
  out.close();
  if (!out) throw std::runtime_error("--json: error writing '" + path + "'");
}

}  // namespace bench
