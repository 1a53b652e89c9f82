// Counter snapshots: sums, the one-line summary and the JSON form.
#include "locus/stats.hpp"

#include <cstdio>
#include <sstream>

namespace locus {

worker_stats& worker_stats::operator+=(const worker_stats& o) noexcept {
  spawns_work_first += o.spawns_work_first;
  spawns_help_first += o.spawns_help_first;
  spawns_remote += o.spawns_remote;
  stack_condition += o.stack_condition;
  fresh_condition += o.fresh_condition;
  policy_switches += o.policy_switches;
  steals_attempted += o.steals_attempted;
  steals_succeeded += o.steals_succeeded;
  mailbox_takes += o.mailbox_takes;
  syncs_suspended += o.syncs_suspended;
  idle_ns += o.idle_ns;
  sleeps += o.sleeps;
  peak_stack_bytes += o.peak_stack_bytes;
  return *this;
}

worker_stats runtime_stats::total() const noexcept {
  worker_stats t;
  for (const auto& w : workers)
    t += w;
  return t;
}

std::string runtime_stats::summary() const {
  const worker_stats t = total();
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "workers=%zu | spawns wf=%llu hf=%llu remote=%llu | adaptive S=%llu F=%llu "
                "switches=%llu | steals %llu/%llu | mailbox %llu | syncs-waited %llu | "
                "idle %.3fs sleeps %llu | peak-stack %.1f KiB",
                workers.size(), static_cast<unsigned long long>(t.spawns_work_first),
                static_cast<unsigned long long>(t.spawns_help_first),
                static_cast<unsigned long long>(t.spawns_remote),
                static_cast<unsigned long long>(t.stack_condition),
                static_cast<unsigned long long>(t.fresh_condition),
                static_cast<unsigned long long>(t.policy_switches),
                static_cast<unsigned long long>(t.steals_succeeded),
                static_cast<unsigned long long>(t.steals_attempted),
                static_cast<unsigned long long>(t.mailbox_takes),
                static_cast<unsigned long long>(t.syncs_suspended),
                static_cast<double>(t.idle_ns) * 1e-9, static_cast<unsigned long long>(t.sleeps),
                static_cast<double>(t.peak_stack_bytes) / 1024.0);
  return buf;
}

namespace {
void put_fields(std::ostringstream& o, const worker_stats& s) {
  o << "\"spawns_work_first\":" << s.spawns_work_first
    << ",\"spawns_help_first\":" << s.spawns_help_first << ",\"spawns_remote\":" << s.spawns_remote
    << ",\"stack_condition\":" << s.stack_condition << ",\"fresh_condition\":" << s.fresh_condition
    << ",\"policy_switches\":" << s.policy_switches
    << ",\"steals_attempted\":" << s.steals_attempted
    << ",\"steals_succeeded\":" << s.steals_succeeded << ",\"mailbox_takes\":" << s.mailbox_takes
    << ",\"syncs_suspended\":" << s.syncs_suspended << ",\"idle_ns\":" << s.idle_ns
    << ",\"sleeps\":" << s.sleeps << ",\"peak_stack_bytes\":" << s.peak_stack_bytes;
}
}  // namespace

std::string runtime_stats::to_json() const {
  std::ostringstream o;
  o << '{';
  put_fields(o, total());
  o << ",\"workers\":[";
  for (std::size_t i = 0; i < workers.size(); ++i) {
    if (i) o << ',';
    o << "{\"place\":" << workers[i].place << ',';
    put_fields(o, workers[i]);
    o << '}';
  }
  o << "]}";
  return o.str();
}

}  // namespace locus
