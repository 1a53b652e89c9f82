// bench/harness/results.cpp — interpreting child reports and summarizing repetitions.
#include "results.hpp"

#include <algorithm>
#include <exception>

namespace bench {

rep_result interpret_child(const child_outcome& child, double timeout_s) {
  rep_result r;
  r.peak_rss_kib = child.peak_rss_kib;
  json report;
  bool parsed = false;
  std::string parse_problem;
  if (!child.line.empty()) {
    try {
      report = json::parse(child.line);
      parsed = report.is_object();
      if (!parsed) parse_problem = "report is not a JSON object";
    } catch (const json::parse_error& e) {
      parse_problem = e.what();
    }
  }
  // A child that threw still exits with status 1 and says why; prefer its message.
  if (parsed) {
    const json* ok = member(report, "ok");
    if (ok != nullptr && ok->is_boolean() && !ok->get<bool>()) {
      const json* err = member(report, "error");
      r.detail =
          "error: " + (err != nullptr && err->is_string() ? err->get<std::string>() : "unknown");
      return r;
    }
  }
  if (!child.clean_exit()) {
    r.detail = child.describe_failure(timeout_s);
    return r;
  }
  if (!parsed) {
    r.detail = "malformed report from child: " +
               (child.line.empty() ? std::string("no report") : parse_problem);
    return r;
  }
  const json* seconds = member(report, "seconds");
  const json* verified = member(report, "verified");
  const json* detail = member(report, "detail");
  const json* stats = member(report, "stats");
  if (seconds == nullptr || !seconds->is_number() || verified == nullptr ||
      !verified->is_boolean()) {
    r.detail = "malformed report from child: missing seconds or verified";
    return r;
  }
  r.ok = true;
  r.seconds = seconds->get<double>();
  r.verified = verified->get<bool>();
  if (detail != nullptr && detail->is_string()) r.detail = detail->get<std::string>();
  if (stats != nullptr) r.stats = *stats;
  return r;
}

std::optional<double> config_summary::spread_percent() const {
  if (!median_s || !min_s || !max_s || *median_s <= 0) return std::nullopt;
  return (*max_s - *min_s) / *median_s * 100.0;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

std::string_view build_requirement(runtime_kind rt) noexcept {
  switch (rt) {
    case runtime_kind::tbb:
      return "LOCUS_BENCH_PEERS=OFF or oneTBB not found";
    case runtime_kind::omp:
    case runtime_kind::omp_tasks:
      return "LOCUS_BENCH_PEERS=OFF or OpenMP not found";
    case runtime_kind::starpu:
      return "LOCUS_BENCH_PEERS=OFF or StarPU (pkg-config starpu-1.3) not found";
    case runtime_kind::blas:
      return "LOCUS_BENCH_PEERS=OFF or OpenBLAS (pkg-config openblas) not found";
    case runtime_kind::serial:
    case runtime_kind::locus:
      break;
  }
  return "always built";
}

std::string not_implemented_detail(const bench_config& c) {
  std::string rt(to_string(c.runtime));
  if (c.kernel->implementation(c.runtime) != nullptr && !c.kernel->runs(c.schedule)) {
    const char* what = needs_design(c.schedule) && c.kernel->replays ? "designed" : "replay";
    return "n/a (not implemented): no " + std::string(what) + " version of " +
           std::string(c.kernel->name) + " (--schedule " + std::string(schedule_name(c.schedule)) +
           ")";
  }
  if (c.flow.on) {
    const std::string flow = " (--flow " + flow_name(c.flow) + ")";
    if (c.runtime != runtime_kind::locus) {
      return "n/a (not implemented): the flow options are for locus only" + flow;
    }
    if (c.kernel->implementation(c.runtime) != nullptr && !c.kernel->runs(c.flow)) {
      return "n/a (not implemented): no dataflow version of " + std::string(c.kernel->name) + flow;
    }
    if (c.schedule != schedule_mode::random) {
      return "n/a (not implemented): --schedule " + std::string(schedule_name(c.schedule)) +
             " does not combine with flow options" + flow;
    }
  }
  if (!runtime_built(c.runtime)) {
    return "n/a (not implemented): " + rt + " not built (" +
           std::string(build_requirement(c.runtime)) + ")";
  }
  std::string file = rt;  // omp-tasks -> omp_tasks.cpp
  for (char& ch : file)
    if (ch == '-') ch = '_';
  return "n/a (not implemented): no " + rt + " implementation of " + std::string(c.kernel->name) +
         " linked in (bench/kernels/" + std::string(c.kernel->name) + "/" + file + ".cpp)";
}

config_summary summarize(const bench_config& c, const std::vector<rep_result>& reps) {
  config_summary s;
  s.config = c;
  if (!c.implemented()) {
    s.status = run_status::not_implemented;
    s.detail = not_implemented_detail(c);
    return s;
  }
  s.reps = static_cast<unsigned>(reps.size());
  std::vector<double> times;
  std::string first_failure;
  for (const auto& r : reps) {
    s.peak_rss_kib = std::max(s.peak_rss_kib, r.peak_rss_kib);
    if (r.ok) {
      times.push_back(r.seconds);
      s.stats = r.stats;
    }
    if (first_failure.empty()) {
      if (!r.ok) {
        first_failure = r.detail;
      } else if (!r.verified) {
        first_failure = "verification failed: " + r.detail;
      }
    }
  }
  if (!times.empty()) {
    s.median_s = median(times);
    s.min_s = *std::min_element(times.begin(), times.end());
    s.max_s = *std::max_element(times.begin(), times.end());
  }
  s.verified = !reps.empty() && first_failure.empty();
  s.status = s.verified ? run_status::ok : run_status::failed;
  if (!first_failure.empty()) {
    s.detail = first_failure;
  } else if (!reps.empty()) {
    s.detail = reps.back().detail;
  } else {
    s.detail = "no runs";
  }
  return s;
}

}  // namespace bench
