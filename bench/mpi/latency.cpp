// locus-mpi-bench --lat: the latency of a remote dependence, from context::trace_values. Every
// rank's records are gathered on rank 0 (raw MPI on the communication worker, untimed), where
// each value's owner record (the export) is joined with its reader's (the import) by (graph,
// key, reader). Times are each rank's steady clock (CLOCK_MONOTONIC). Ranks on one host share
// it; a rank on another host has its own origin, so rank 0 first estimates each rank's offset
// (clock_offsets, below) and moves that rank's times onto its own clock before joining.
#include <mpi.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <map>
#include <tuple>

#include "bench.hpp"
#include "clock_sync.hpp"

namespace locus_mpi_bench {

namespace {

constexpr int k_words = 8;  // one record on the wire

/// p10 / p50 / p90 / max / mean of `v` in microseconds (n = 0: only n).
nlohmann::json summary(std::vector<double> v) {
  nlohmann::json j{{"n", v.size()}};
  if (v.empty()) return j;
  std::sort(v.begin(), v.end());
  const auto at = [&v](double q) {
    return v[std::min(v.size() - 1, static_cast<std::size_t>(q * double(v.size())))];
  };
  double sum = 0;
  for (double x : v)
    sum += x;
  j["p10_us"] = at(0.1);
  j["p50_us"] = at(0.5);
  j["p90_us"] = at(0.9);
  j["max_us"] = v.back();
  j["mean_us"] = sum / double(v.size());
  return j;
}

constexpr int k_clock_rounds = 32;
constexpr int k_clock_tag = 7301;  // raw MPI on MPI_COMM_WORLD, inside context::call

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// On the communication worker of every rank (context::call); the result on rank 0 only.
std::vector<clock_offset> clock_offsets(int rank, int np) {
  std::array<char, MPI_MAX_PROCESSOR_NAME> name{};
  int len = 0;
  MPI_Get_processor_name(name.data(), &len);
  std::vector<char> names(rank == 0 ? static_cast<std::size_t>(np) * name.size() : 0);
  MPI_Gather(name.data(), static_cast<int>(name.size()), MPI_CHAR, names.data(),
             static_cast<int>(name.size()), MPI_CHAR, 0, MPI_COMM_WORLD);
  std::vector<clock_offset> out(rank == 0 ? static_cast<std::size_t>(np) : 0);
  for (int r = 1; r < np; ++r) {
    if (rank == 0) {
      std::array<clock_sample, k_clock_rounds> rounds{};
      for (clock_sample& c : rounds) {
        c.t0 = now_ns();
        MPI_Send(&c.t0, 1, MPI_INT64_T, r, k_clock_tag, MPI_COMM_WORLD);
        MPI_Recv(&c.tr, 1, MPI_INT64_T, r, k_clock_tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        c.t1 = now_ns();
      }
      auto& o = out[static_cast<std::size_t>(r)];
      o = estimate_offset(rounds);
      o.same_host =
          std::strncmp(names.data(), names.data() + static_cast<std::size_t>(r) * name.size(),
                       name.size()) == 0;
    } else if (rank == r) {
      for (int k = 0; k < k_clock_rounds; ++k) {
        std::int64_t t0 = 0;
        MPI_Recv(&t0, 1, MPI_INT64_T, 0, k_clock_tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        std::int64_t tr = now_ns();
        MPI_Send(&tr, 1, MPI_INT64_T, 0, k_clock_tag, MPI_COMM_WORLD);
      }
    }
  }
  return out;
}

}  // namespace

result latency_summary(locus::mpi::context& ctx, const std::vector<locus::mpi::value_trace>& mine) {
  std::vector<std::int64_t> out;
  out.reserve(mine.size() * k_words);
  for (const auto& t : mine) {
    const std::int64_t flags = (t.is_export ? 1 : 0) | (t.mid_on_comm ? 2 : 0) |
                               (t.last_on_comm ? 4 : 0) | (std::int64_t{t.peer} << 8);
    out.insert(out.end(), {static_cast<std::int64_t>(t.epoch), static_cast<std::int64_t>(t.key),
                           flags, t.t_first, t.t_mid, t.t_last, t.t_request, 0});
  }
  const int np = ctx.size();
  std::vector<int> counts(static_cast<std::size_t>(np)), displs(static_cast<std::size_t>(np));
  std::vector<std::int64_t> all;
  std::vector<clock_offset> offsets;
  ctx.call([&] {
    offsets = clock_offsets(ctx.rank(), np);
    const int n = static_cast<int>(out.size());
    MPI_Gather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    int total = 0;
    for (int r = 0; r < np; ++r) {
      displs[static_cast<std::size_t>(r)] = total;
      total += counts[static_cast<std::size_t>(r)];
    }
    if (ctx.rank() == 0) all.resize(static_cast<std::size_t>(total));
    MPI_Gatherv(out.data(), n, MPI_INT64_T, all.data(), counts.data(), displs.data(), MPI_INT64_T,
                0, MPI_COMM_WORLD);
  });
  if (ctx.rank() != 0) return {};
  // (epoch, key, reader) -> the owner's export record and the reader's import record.
  struct rec {
    std::int64_t first = 0, mid = 0, last = 0, request = 0;
    bool mid_comm = false, last_comm = false, seen = false;
  };
  std::map<std::tuple<std::int64_t, std::int64_t, int>, std::pair<rec, rec>> values;
  // The clocks: each rank's offset to rank 0's (error: the bound of its estimate). On rank 0's
  // host the estimate must lie within its bound (one clock): the check of the method, which
  // fails the run's verification if it does not. On another host it is applied.
  nlohmann::json clocks = nlohmann::json::array();
  bool clocks_ok = true;
  for (int r = 1; r < np; ++r) {
    const clock_offset& o = offsets[static_cast<std::size_t>(r)];
    if (o.same_host && !within_bound(o)) clocks_ok = false;
    clocks.push_back({{"rank", r},
                      {"offset_us", double(o.offset_ns) * 1e-3},
                      {"error_us", double(o.error_ns) * 1e-3},
                      {"same_host", o.same_host},
                      {"applied", !o.same_host}});
  }
  for (int r = 0; r < np; ++r) {
    const auto b = static_cast<std::size_t>(displs[static_cast<std::size_t>(r)]);
    // Rank r's records, moved onto rank 0's clock (words 3-6: first, mid, last, request).
    shift_times(
        std::span(all).subspan(b, static_cast<std::size_t>(counts[static_cast<std::size_t>(r)])),
        k_words, 3, 6, shift_of(offsets[static_cast<std::size_t>(r)]));
    for (std::size_t i = b; i < b + static_cast<std::size_t>(counts[static_cast<std::size_t>(r)]);
         i += k_words) {
      const std::int64_t flags = all[i + 2];
      const bool exp = (flags & 1) != 0;
      const int peer = static_cast<int>(flags >> 8);
      auto& pr = values[{all[i], all[i + 1], exp ? peer : r}];
      rec& x = exp ? pr.first : pr.second;
      x = rec{all[i + 3],       all[i + 4],       all[i + 5], all[i + 6],
              (flags & 2) != 0, (flags & 4) != 0, true};
    }
  }
  std::vector<double> asked_seen, final_posted, posted_received, received_ready, final_ready,
      send_done, asked_late;
  std::size_t joined = 0, posted_by_comm = 0, received_by_comm = 0, send_done_by_comm = 0;
  const auto us = [](std::int64_t ns) { return double(ns) * 1e-3; };
  nlohmann::json worst = nlohmann::json::array();  // the slowest values, whole and by step
  std::vector<std::pair<double, nlohmann::json>> slow;
  for (const auto& [k, pr] : values) {
    const rec& e = pr.first;
    const rec& i = pr.second;
    if (!e.seen || !i.seen) continue;
    ++joined;
    if (e.request != 0) asked_seen.push_back(us(e.request - i.first));
    final_posted.push_back(us(e.mid - e.first));
    posted_received.push_back(us(i.mid - e.mid));
    received_ready.push_back(us(i.last - i.mid));
    final_ready.push_back(us(i.last - e.first));
    send_done.push_back(us(e.last - e.mid));
    // The request came after the value was final: its receipt, not the export, set the send.
    if (i.first > e.first) asked_late.push_back(us(i.first - e.first));
    slow.emplace_back(us(i.last - e.first),
                      nlohmann::json{{"graph", std::get<0>(k)},
                                     {"key", std::get<1>(k)},
                                     {"reader", std::get<2>(k)},
                                     {"final_to_ready_us", us(i.last - e.first)},
                                     {"asked_to_final_us", us(e.first - i.first)},
                                     {"asked_to_request_seen_us", us(e.request - i.first)},
                                     {"final_to_posted_us", us(e.mid - e.first)},
                                     {"posted_by_comm_worker", e.mid_comm},
                                     {"posted_to_received_us", us(i.mid - e.mid)},
                                     {"received_by_comm_worker", i.mid_comm}});
    posted_by_comm += e.mid_comm ? 1 : 0;
    received_by_comm += i.mid_comm ? 1 : 0;
    send_done_by_comm += e.last_comm ? 1 : 0;
  }
  std::sort(slow.begin(), slow.end(),
            [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t n = 0; n < slow.size() && n < 8; ++n)
    worst.push_back(slow[n].second);
  return result{{"values", joined},
                {"clock_offsets", clocks},
                {"clocks_consistent", clocks_ok},
                {"slowest", worst},
                {"records", all.size() / k_words},
                {"asked_to_request_seen", summary(asked_seen)},
                {"final_to_posted", summary(final_posted)},
                {"posted_to_received", summary(posted_received)},
                {"received_to_ready", summary(received_ready)},
                {"final_to_ready", summary(final_ready)},
                {"posted_to_send_done", summary(send_done)},
                {"asked_after_final", summary(asked_late)},
                {"posted_by_comm_worker", posted_by_comm},
                {"received_by_comm_worker", received_by_comm},
                {"send_done_by_comm_worker", send_done_by_comm}};
}

}  // namespace locus_mpi_bench
