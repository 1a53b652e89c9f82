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

/// One iteration record as a JSON object (the one form: to_json(records) and runtime_stats).
void put_iteration(detail::json_writer& j, const iteration_stats& r) {
  j.begin_object()
      .field("index", r.index)
      .field("time_ns", r.time_ns)
      .field("scheduler", r.scheduler)
      .field("stage", r.stage)
      .field("workload", r.workload)
      .field("cross_socket_takes", r.cross_socket_takes)
      .field("cf_roots", r.cf_roots)
      .field("cf_level", r.cf_level)
      .field("packing_offset", r.packing_offset);
  if (r.accounting) {
    j.key("local_share");
    if (r.local_share)
      j.value(*r.local_share);
    else
      j.null();
    j.field("bytes", r.bytes)
        .field("l3_misses", r.l3_misses)
        .field("l3_remote_misses", r.l3_remote_misses)
        .field("private_misses", r.private_misses)
        .key("bytes_per_socket")
        .begin_array();
    for (std::uint64_t b : r.bytes_per_socket)
      j.value(b);
    j.end_array();
  }
  j.end_object();
}

void put_iterations(detail::json_writer& j, const std::vector<iteration_stats>& records) {
  j.begin_array();
  for (const iteration_stats& r : records)
    put_iteration(j, r);
  j.end_array();
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
  if (!iterations.empty()) {
    w.key("iterations");
    put_iterations(w, iterations);
  }
  if (iterations_dropped != 0) w.field("iterations_dropped", iterations_dropped);
  w.end_object();
  return w.take();
}

std::string to_json(const std::vector<iteration_stats>& records) {
  detail::json_writer j;
  put_iterations(j, records);
  return j.take();
}

}  // namespace locus
