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

json optional_number(const std::optional<double>& d) {
  return d ? json(*d) : json(nullptr);
}

}  // namespace

json machine_json() {
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0) std::strcpy(host, "unknown");
  utsname u{};
  std::string os =
      ::uname(&u) == 0 ? std::string(u.sysname) + " " + u.release + " " + u.machine : "unknown";
  json m = {{"nproc", ::sysconf(_SC_NPROCESSORS_ONLN)},
            {"cpu_model", cpu_model()},
            {"hostname", host},
            {"os", os}};
#if defined(__clang__)
  m["compiler"] = std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
  m["compiler"] = std::string("gcc ") + __VERSION__;
#endif
  m["peers"] = json::object();
  for (auto rt : all_runtimes) {
    if (rt != runtime_kind::serial && rt != runtime_kind::locus) {
      m["peers"][std::string(to_string(rt))] = runtime_built(rt);
    }
  }
  return m;
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

json result_json(const config_summary& s) {
  const bench_config& c = s.config;
  return {{"kernel", c.kernel->name},
          {"size", c.size},
          {"runtime", to_string(c.runtime)},
          {"policy", c.policy_text()},
          {"victims", c.victims_text()},
          {"schedule", c.schedule_text()},
          {"flow", c.flow_text()},
          {"workers", c.workers},
          {"reps", s.reps},
          {"median_s", optional_number(s.median_s)},
          {"min_s", optional_number(s.min_s)},
          {"max_s", optional_number(s.max_s)},
          {"verified", s.verified},
          {"peak_rss_kib", s.peak_rss_kib},
          {"stats", s.stats.is_null() ? json::object() : s.stats},
          {"detail", s.detail}};
}

std::string report_json(const json& machine, const std::string& command,
                        const std::vector<config_summary>& results) {
  // Each part is serialized by the library; only the line breaks between them are laid out
  // here, one result per line (json::dump with an indent would put every field on its own).
  std::string out =
      "{\"machine\":" + dump(machine) + ",\n\"command\":" + dump(command) + ",\n\"results\":[";
  for (std::size_t i = 0; i < results.size(); ++i) {
    out += i == 0 ? "\n" : ",\n";
    out += dump(result_json(results[i]));
  }
  return out + "\n]}\n";
}

void write_report(const std::string& path, const json& machine, const std::string& command,
                  const std::vector<config_summary>& results) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error("--json: cannot open '" + path + "': " + std::strerror(errno));
  out << report_json(machine, command, results);
  out.close();
  if (!out) throw std::runtime_error("--json: error writing '" + path + "'");
}

}  // namespace bench
