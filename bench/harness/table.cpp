// bench/harness/table.cpp — column layout and formatting of the results table.
#include "table.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

namespace bench {

namespace {

std::string fmt(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string fmt_opt(const char* format, const std::optional<double>& v) {
  return v ? fmt(format, *v) : "-";
}

// The counter names the runtime's stats may use for the three columns shown; the lead's
// runtime_stats::to_json() decides, and the first name present wins.
std::string counter_cell(const json& stats, std::initializer_list<std::string_view> names) {
  auto v = find_counter(stats, names);
  return v ? fmt("%.0f", *v) : "-";
}

std::optional<double> serial_median(const std::vector<config_summary>& rows,
                                    const config_summary& row) {
  for (const auto& r : rows) {
    if (r.config.kernel == row.config.kernel && r.config.size == row.config.size &&
        r.config.runtime == runtime_kind::serial && r.status == run_status::ok) {
      return r.median_s;
    }
  }
  return std::nullopt;
}

std::string status_cell(const config_summary& s) {
  switch (s.status) {
    case run_status::ok:
      return "yes";
    case run_status::failed:
      return "FAILED";
    case run_status::not_implemented:
      return "n/a (not implemented)";
  }
  return "?";
}

std::vector<std::string> row_cells(const std::vector<config_summary>& rows,
                                   const config_summary& s) {
  const bench_config& c = s.config;
  std::optional<double> speedup;
  if (auto base = serial_median(rows, s); base && s.median_s && *s.median_s > 0) {
    speedup = *base / *s.median_s;
  }
  bool locus = c.runtime == runtime_kind::locus && s.status != run_status::not_implemented;
  return {std::string(c.kernel->name),
          c.size,
          std::string(to_string(c.runtime)),
          c.policy_text(),
          c.victims_text(),
          c.schedule_text(),
          c.flow_text(),
          std::to_string(c.workers),
          fmt_opt("%.6f", s.median_s),
          fmt_opt("%.6f", s.min_s),
          fmt_opt("%.6f", s.max_s),
          fmt_opt("%.1f", s.spread_percent()),
          fmt_opt("%.2f", speedup),
          status_cell(s),
          s.peak_rss_kib > 0 ? fmt("%.1f", static_cast<double>(s.peak_rss_kib) / 1024.0) : "-",
          locus ? counter_cell(s.stats, {"steals_succeeded", "steals"}) : "-",
          locus ? counter_cell(s.stats, {"spawns_work_first"}) : "-",
          locus ? counter_cell(s.stats, {"spawns_help_first"}) : "-"};
}

}  // namespace

std::optional<double> find_counter(const json& stats,
                                   std::initializer_list<std::string_view> names) {
  for (const json* scope : {&stats, member(stats, "total"), member(stats, "totals")}) {
    if (scope == nullptr) continue;
    for (auto name : names) {
      const json* v = member(*scope, name);
      if (v != nullptr && v->is_number()) return v->get<double>();
    }
  }
  return std::nullopt;
}

void print_table(std::ostream& out, const std::vector<config_summary>& rows) {
  const std::vector<std::string> header = {
      "kernel",  "size",     "runtime",  "policy", "victims",   "schedule",
      "flow",    "w",        "median s", "min s",  "max s",     "spread%",
      "speedup", "verified", "RSS MiB",  "steals", "wf spawns", "hf spawns"};
  // Text columns are left-aligned, numbers right-aligned.
  const std::vector<bool> left = {true,  true,  true,  true,  true, true,  true,  false, false,
                                  false, false, false, false, true, false, false, false, false};
  std::vector<std::vector<std::string>> cells;
  cells.reserve(rows.size());
  for (const auto& r : rows)
    cells.push_back(row_cells(rows, r));
  std::vector<std::size_t> width(header.size());
  for (std::size_t i = 0; i < header.size(); ++i) {
    width[i] = header[i].size();
    for (const auto& row : cells)
      width[i] = std::max(width[i], row[i].size());
  }
  auto print_row = [&](const std::vector<std::string>& row) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      std::string pad(width[i] - row[i].size(), ' ');
      line += left[i] ? row[i] + pad : pad + row[i];
      if (i + 1 < row.size()) line += "  ";
    }
    while (!line.empty() && line.back() == ' ')
      line.pop_back();
    out << line << '\n';
  };
  print_row(header);
  std::size_t total = 0;
  for (auto w : width)
    total += w + 2;
  out << std::string(total - 2, '-') << '\n';
  for (const auto& row : cells)
    print_row(row);

  bool noted = false;
  for (const auto& r : rows) {
    if (r.status == run_status::ok) continue;
    if (!noted) out << '\n';
    noted = true;
    out << (r.status == run_status::failed ? "FAILED " : "") << r.config.label() << ": " << r.detail
        << '\n';
  }
}

}  // namespace bench
