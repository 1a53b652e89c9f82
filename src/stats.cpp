// Counter snapshots: sums, the one-line summary and the JSON form, all driven by stat_fields
// (locus/stats.hpp), so that a counter is named once.
#include "locus/stats.hpp"

#include <array>
#include <cstdio>

#include "locus/detail/json_writer.hpp"

namespace locus {

worker_stats& worker_stats::operator+=(const worker_stats& o) noexcept {
  for (const stat_field& f : stat_fields)
    this->*f.member += o.*f.member;
  return *this;
}

worker_stats runtime_stats::total() const noexcept {
  worker_stats t;
  for (const auto& w : workers)
    t += w;
  return t;
}

namespace {

std::string format_value(const stat_field& f, std::uint64_t v) {
  std::array<char, 48> buf{};
  switch (f.unit) {
    case stat_unit::seconds:
      std::snprintf(buf.data(), buf.size(), "%.3fs", static_cast<double>(v) * 1e-9);
      return buf.data();
    case stat_unit::kib:
      std::snprintf(buf.data(), buf.size(), "%.1fKiB", static_cast<double>(v) / 1024.0);
      return buf.data();
    case stat_unit::count:
      break;
  }
  return std::to_string(v);
}

void put_fields(detail::json_writer& w, const worker_stats& s) {
  for (const stat_field& f : stat_fields)
    w.field(f.name, s.*f.member);
}

}  // namespace

std::string runtime_stats::summary() const {
  const worker_stats t = total();
  std::string s = "workers=" + std::to_string(workers.size());
  std::string_view group;
  for (const stat_field& f : stat_fields) {
    if (f.group != group) {
      group = f.group;
      s += " | ";
      s += group;
    }
    s += ' ';
    s += f.label;
    s += '=';
    s += format_value(f, t.*f.member);
  }
  return s;
}

std::string runtime_stats::to_json() const {
  detail::json_writer w;
  w.begin_object();
  put_fields(w, total());
  w.key("workers").begin_array();
  for (const worker_stats& ws : workers) {
    w.begin_object();
    w.field("place", ws.place).field("core", ws.core).field("socket", ws.socket);
    put_fields(w, ws);
    w.end_object();
  }
  w.end_array();
  w.end_object();
  return w.take();
}

}  // namespace locus
