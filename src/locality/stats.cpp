// locality/stats.cpp — shares, the straggler socket, and the one-line and JSON reports.
#include <locus/locality/stats.hpp>

#include "locus/detail/json_writer.hpp"

#include <array>
#include <cstdio>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <utility>

namespace locus {
namespace {

std::string percent(std::uint64_t part, std::uint64_t whole) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%",
                whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole));
  return buf;
}

std::string size_text(std::uint64_t bytes) {
  constexpr std::array<const char*, 5> units{"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  std::size_t u = 0;
  while (v >= 1024.0 && u + 1 < units.size()) {
    v /= 1024.0;
    ++u;
  }
  char buf[32];
  if (u == 0)
    std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(bytes));
  else
    std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
  return buf;
}

using detail::json_writer;

/// A share, or null when there is nothing to share (no bytes placed).
void share_field(json_writer& w, std::string_view k, std::optional<double> v) {
  w.key(k);
  if (v)
    w.value(*v);
  else
    w.null();
}

void write_distances(json_writer& w, std::string_view k, const distance_counts& b) {
  w.key(k);
  w.begin_object();
  w.field("same_core", b.same_core);
  w.field("same_l3", b.same_l3);
  w.field("same_numa", b.same_numa);
  w.field("same_socket", b.same_socket);
  w.field("remote", b.remote);
  w.field("unplaced", b.unplaced);
  w.end_object();
}

void write_bytes(json_writer& w, const locality_bytes& b) {
  write_distances(w, "bytes", b);
}

void write_level(json_writer& w, std::string_view k, const level_counts& c) {
  w.key(k);
  w.begin_object();
  w.field("hits", c.lines.hits);
  w.field("misses", c.lines.misses);
  w.field("evictions", c.lines.evictions);
  write_distances(w, "misses_by_distance", c.misses);
  w.end_object();
}

template <class F>
void write_array(json_writer& w, std::string_view k, std::size_t n, F&& each) {
  w.key(k);
  w.begin_array();
  for (std::size_t i = 0; i < n; ++i)
    each(i);
  w.end_array();
}

}  // namespace

std::optional<double> distance_counts::local_share() const noexcept {
  const std::uint64_t all = placed();
  if (all == 0) return std::nullopt;
  return static_cast<double>(local()) / static_cast<double>(all);
}

distance_counts& distance_counts::operator+=(const distance_counts& o) noexcept {
  same_core += o.same_core;
  same_l3 += o.same_l3;
  same_numa += o.same_numa;
  same_socket += o.same_socket;
  remote += o.remote;
  unplaced += o.unplaced;
  return *this;
}

int locality_stats::straggler_socket() const noexcept {
  int best = -1;
  std::uint64_t most = 0;
  for (std::size_t s = 0; s < per_socket.size(); ++s) {
    if (per_socket[s].remote > most) {
      most = per_socket[s].remote;
      best = static_cast<int>(s);
    }
  }
  return best;
}

std::string locality_stats::summary() const {
  const std::uint64_t placed = total.placed();
  std::string s = "locality: ";
  if (placed == 0) {
    s += "no data (nothing placed was accessed)";
  } else {
    s += percent(total.local(), placed) + " local of " + size_text(placed) + " (core " +
         percent(total.same_core, placed) + ", l3 " + percent(total.same_l3, placed);
    if (total.same_numa != 0) s += ", numa " + percent(total.same_numa, placed);
    s += ", socket " + percent(total.same_socket, placed) + ", remote " +
         percent(total.remote, placed) + ")";
  }
  s += ", " + size_text(total.unplaced) + " unplaced";
  const int straggler = straggler_socket();
  s += straggler < 0 ? ", no straggler socket" : ", straggler socket " + std::to_string(straggler);
  if (!cache_modelled) return s + "; cache model off (homes only)";
  const auto level = [&](const level_counts& c) {
    return std::to_string(c.lines.misses) + " misses (" + std::to_string(c.misses.remote) +
           " remote), " + std::to_string(c.lines.hits) + " hits";
  };
  if (private_bytes != 0) s += "; private model: " + level(private_total);
  s += "; L3 model: " + level(l3_total) + " of " + std::to_string(line_bytes) + " B lines";
  if (l3_ways != 0) s += ", " + std::to_string(l3_ways) + "-way";
  return s;
}

std::string locality_stats::to_json() const {
  json_writer w;
  w.begin_object();
  share_field(w, "local_share", local_share());
  write_bytes(w, total);
  w.field("straggler_socket", straggler_socket());
  w.field("cache_model", cache_modelled);
  w.field("line_bytes", static_cast<std::uint64_t>(line_bytes));
  w.field("l3_ways", static_cast<std::uint64_t>(l3_ways));
  w.field("private_bytes", static_cast<std::uint64_t>(private_bytes));
  write_level(w, "l3", l3_total);
  write_level(w, "private", private_total);
  // A plain pair, not a structured binding: clang 14 cannot capture those in a lambda.
  for (const auto& column :
       {std::pair{"l3_hits", &cache_counts::hits}, std::pair{"l3_misses", &cache_counts::misses},
        std::pair{"l3_evictions", &cache_counts::evictions}}) {
    write_array(w, column.first, l3_per_socket.size(),
                [&](std::size_t i) { w.value(l3_per_socket[i].lines.*column.second); });
  }
  write_array(w, "per_socket", per_socket.size(), [&](std::size_t i) {
    w.begin_object();
    w.field("socket", static_cast<std::uint64_t>(i));
    share_field(w, "local_share", per_socket[i].local_share());
    write_bytes(w, per_socket[i]);
    const level_counts l3 = i < l3_per_socket.size() ? l3_per_socket[i] : level_counts{};
    w.field("l3_hits", l3.lines.hits);
    w.field("l3_misses", l3.lines.misses);
    write_level(w, "l3", l3);
    write_level(w, "private",
                i < private_per_socket.size() ? private_per_socket[i] : level_counts{});
    w.end_object();
  });
  write_array(w, "per_l3", l3_per_group.size(), [&](std::size_t i) {
    w.begin_object();
    w.field("group", static_cast<std::uint64_t>(i));
    w.field("hits", l3_per_group[i].lines.hits);
    w.field("misses", l3_per_group[i].lines.misses);
    w.field("evictions", l3_per_group[i].lines.evictions);
    write_distances(w, "misses_by_distance", l3_per_group[i].misses);
    w.end_object();
  });
  write_array(w, "per_worker", per_worker.size(), [&](std::size_t i) {
    w.begin_object();
    w.field("worker", static_cast<std::uint64_t>(i));
    share_field(w, "local_share", per_worker[i].local_share());
    write_bytes(w, per_worker[i]);
    write_level(w, "l3", i < l3_per_worker.size() ? l3_per_worker[i] : level_counts{});
    write_level(w, "private",
                i < private_per_worker.size() ? private_per_worker[i] : level_counts{});
    w.end_object();
  });
  w.end_object();
  return w.take();
}

}  // namespace locus
