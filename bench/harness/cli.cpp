// bench/harness/cli.cpp — the locus-bench command line: CLI11 splits it into options, flags and
// KERNEL; the values (comma lists, names, numbers) are checked here, with messages that name
// the option and say what it accepts.
#include "cli.hpp"

#include "child_process.hpp"

#include <CLI/CLI.hpp>
#include <locus/schedule/replay.hpp>
#include <locus/topology.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <functional>
#include <initializer_list>
#include <map>
#include <utility>

namespace bench {

namespace {

constexpr unsigned max_workers = 4096;  // the same bound locus::config accepts

template <class T>
void push_unique(std::vector<T>& v, const T& x) {
  if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
}

// Parses a comma list with `one` and removes repeats, keeping the first occurrence.
template <class T>
std::vector<T> parse_list(std::string_view s, std::string_view what,
                          const std::function<T(std::string_view)>& one) {
  std::vector<T> out;
  for (const auto& item : split_list(s, what))
    push_unique(out, one(item));
  return out;
}

unsigned parse_positive(std::string_view s, std::string_view what, unsigned max) {
  unsigned v = 0;
  auto res = std::from_chars(s.data(), s.data() + s.size(), v);
  if (res.ec != std::errc() || res.ptr != s.data() + s.size() || v == 0 || v > max) {
    throw cli_error(std::string(what) + ": '" + std::string(s) + "' is not an integer from 1 to " +
                    std::to_string(max));
  }
  return v;
}

std::vector<const kernel_info*> parse_kernels(std::string_view s) {
  std::vector<const kernel_info*> out;
  for (const auto& name : split_list(s, "KERNEL")) {
    if (name == "all") {
      for (const auto& k : registry())
        push_unique(out, &k);
      continue;
    }
    const kernel_info* k = find_kernel(name);
    if (k == nullptr) {
      std::string known;
      for (const auto& r : registry())
        known += (known.empty() ? "" : ", ") + std::string(r.name);
      throw cli_error("unknown kernel '" + name + "'; known kernels: " + known + ", or all");
    }
    push_unique(out, k);
  }
  return out;
}

double parse_seconds(std::string_view s) {
  double t = 0;
  auto res = std::from_chars(s.data(), s.data() + s.size(), t);
  if (res.ec != std::errc() || res.ptr != s.data() + s.size() || !(t >= 0) || !std::isfinite(t)) {
    throw cli_error("--timeout: '" + std::string(s) + "' is not a number of seconds >= 0");
  }
  // Larger values would overflow the child's deadline (steady_clock nanoseconds: about 9.2e9 s).
  if (t > max_timeout_s) {
    throw cli_error("--timeout: '" + std::string(s) + "' is more than " +
                    std::to_string(static_cast<long long>(max_timeout_s)) +
                    " seconds (a year); use 0 for no limit");
  }
  return t;
}

// A value that looks like an option ("--json --timeout=5": CLI11 hands "--timeout=5" to
// --json) is refused, so an option is never swallowed as another's value. No value of these
// options starts with '-' (no negative numbers, no file named "-"); a file whose name does
// is written ./-name. A negative number ("-1") is left to the option's own check.
void check_not_an_option(std::string_view name, std::string_view value) {
  if (value.size() < 2 || value[0] != '-') return;
  if (std::isdigit(static_cast<unsigned char>(value[1])) != 0 || value[1] == '.') return;
  throw cli_error(std::string(name) + ": expected a value, got '" + std::string(value) +
                  "', which looks like an option (a file named so can be written ./" +
                  std::string(value) + ")");
}

// An option that takes a value ("--opt VALUE" or "--opt=VALUE"): its name, the value's name in
// the usage text (CLI11 uses it in its "missing" message), and what checks and stores it.
struct value_option {
  const char* name;
  const char* value;
  void (*set)(options&, std::string_view);
};

constexpr value_option value_options[] = {
    {"--size", "S,...",
     [](options& o, std::string_view v) {
       o.sizes =
           parse_list<std::string>(v, "--size", [](std::string_view x) { return std::string(x); });
     }},
    {"--runtime", "R,...",
     [](options& o, std::string_view v) {
       o.runtimes = parse_list<runtime_kind>(v, "--runtime", parse_runtime_name);
     }},
    {"--policy", "P,...",
     [](options& o, std::string_view v) {
       o.policies = parse_list<locus::spawn_policy>(v, "--policy", parse_policy_name);
     }},
    {"--victims", "V,...",
     [](options& o, std::string_view v) {
       o.victims = parse_list<locus::victim_policy>(v, "--victims", parse_victims_name);
     }},
    {"--workers", "N,...",
     [](options& o, std::string_view v) {
       o.workers = parse_list<unsigned>(v, "--workers", [](std::string_view x) {
         return parse_positive(x, "--workers", max_workers);
       });
     }},
    {"--schedule", "M,...",
     [](options& o, std::string_view v) {
       o.schedules = parse_list<schedule_mode>(v, "--schedule", parse_schedule_name);
     }},
    {"--flow", "F,...",
     [](options& o, std::string_view v) {
       o.flows = parse_list<flow_choice>(v, "--flow", parse_flow_name);
     }},
    {"--reps", "R",
     [](options& o, std::string_view v) { o.reps = parse_positive(v, "--reps", 1000000); }},
    {"--json", "FILE",
     [](options& o, std::string_view v) {
       if (v.empty()) throw cli_error("--json: expected a file name");
       o.json_path = std::string(v);
     }},
    {"--timeout", "SEC", [](options& o, std::string_view v) { o.timeout_s = parse_seconds(v); }},
    {"--topology", "SPEC",
     [](options& o, std::string_view v) {
       (void)locus::topology::from_spec(v, "--topology");  // a bad spec fails here, named
       o.topology = std::string(v);
     }},
    {"--trace", "DIR",
     [](options& o, std::string_view v) {
       if (v.empty()) throw cli_error("--trace: expected a folder for the trace files");
       o.trace_dir = std::string(v);
     }},
    {"--scheduler", "S",
     [](options& o, std::string_view v) {
       o.scheduler = std::string(locus::to_string(parse_scheduler_name(v)));
     }},
    {"--result-fd", "FD",
     [](options& o, std::string_view v) {
       o.result_fd = static_cast<int>(parse_positive(v, "--result-fd", 1 << 20));
     }},
};

// CLI11 2.1 reads "--opt=" (an empty value) as a bare "--opt" and takes the next argument as
// the value; spelled "--opt" "" the empty value reaches the checks of apply_option instead.
// CLI11's parse() also wants the arguments in reverse order.
std::vector<std::string> for_cli11(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (const auto& a : args) {
    if (a.size() > 3 && a.starts_with("--") && a.find('=') == a.size() - 1) {
      out.push_back(a.substr(0, a.size() - 1));
      out.emplace_back();
    } else {
      out.push_back(a);
    }
  }
  std::reverse(out.begin(), out.end());
  return out;
}

// A child runs exactly one configuration; anything else means the parent is broken.
void check_child(const options& o) {
  if (o.result_fd < 0) throw cli_error("--child needs --result-fd");
  if (o.kernels.size() != 1 || o.sizes.size() != 1 || o.runtimes.size() != 1 ||
      o.policies.size() != 1 || o.victims.size() != 1 || o.workers.size() != 1 ||
      o.schedules.size() != 1 || o.flows.size() != 1) {
    throw cli_error(
        "--child runs exactly one kernel, size, runtime, policy, victims, workers, schedule, "
        "flow");
  }
}

}  // namespace

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  for (std::size_t start = 0;;) {
    const std::size_t at = s.find(sep, start);
    out.push_back(s.substr(start, at == std::string_view::npos ? s.npos : at - start));
    if (at == std::string_view::npos) return out;
    start = at + 1;
  }
}

std::vector<std::string> split_list(std::string_view s, std::string_view what) {
  std::vector<std::string> out;
  for (const std::string_view item : split(s, ',')) {
    if (item.empty()) {
      throw cli_error(std::string(what) + ": empty item in list '" + std::string(s) + "'");
    }
    out.emplace_back(item);
  }
  return out;
}

options parse_cli(const std::vector<std::string>& args, const cli_defaults& defaults) {
  options o;
  CLI::App app{"locus-bench"};
  app.set_help_flag();  // --help prints usage() (main), not CLI11's generated text
  app.allow_extras();   // unknown options are reported below, in this harness's words
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  for (auto [name, flag] :
       {std::pair{"-h,--help", &o.help}, std::pair{"--list", &o.list},
        std::pair{"--child", &o.child}, std::pair{"--accounting", &o.accounting}}) {
    app.add_flag(name, *flag)->disable_flag_override();  // "--list=1" is not a flag
  }
  std::map<const CLI::Option*, const value_option*> value_of;
  for (const value_option& v : value_options)
    value_of[app.add_option(v.name)->type_name(v.value)] = &v;
  std::vector<std::string> positional;
  app.add_option("KERNEL", positional);
  try {
    std::vector<std::string> reversed = for_cli11(args);
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    throw cli_error(e.what());
  }
  if (o.help) return o;
  if (auto extra = app.remaining(); !extra.empty()) {
    throw cli_error("unknown option '" + extra.front() + "'");
  }
  // The values, in command-line order, every occurrence: a later one wins, but a bad earlier
  // one is still an error, as each value is checked when it is met.
  std::map<const CLI::Option*, std::size_t> next_result;
  for (const CLI::Option* opt : app.parse_order()) {
    const auto v = value_of.find(opt);
    if (v == value_of.end()) continue;  // a flag or KERNEL
    std::size_t& k = next_result[opt];
    const std::string& value = opt->results().at(k++);
    check_not_an_option(v->second->name, value);
    v->second->set(o, value);
  }
  if (o.list) return o;
  if (positional.empty()) throw cli_error("missing KERNEL (a kernel name, a comma list, or all)");
  if (positional.size() > 1) {
    throw cli_error("one KERNEL argument expected (use a comma list for several), got '" +
                    positional[1] + "' too");
  }
  o.kernels = parse_kernels(positional[0]);
  if (o.runtimes.empty()) {
    o.runtimes = defaults.runtimes;
    o.runtimes_defaulted = true;
  }
  if (o.policies.empty()) o.policies = defaults.policies;
  if (o.victims.empty()) o.victims = defaults.victims;
  if (o.workers.empty()) o.workers = defaults.workers;
  if (o.schedules.empty()) o.schedules = defaults.schedules;
  if (o.flows.empty()) o.flows = defaults.flows;
  if (o.reps == 0) o.reps = defaults.reps;
  if (o.child) check_child(o);
  return o;
}

namespace {

// The kernels registered with `flag` (replays, flows), as "a, b, c".
std::string kernels_with(bool kernel_info::*flag) {
  std::string out;
  for (const auto& k : registry())
    if (k.*flag) out += (out.empty() ? "" : ", ") + std::string(k.name);
  return out;
}

// `text` with each {KEY} replaced by its value.
std::string fill(std::string text,
                 std::initializer_list<std::pair<std::string_view, std::string>> values) {
  for (const auto& [key, value] : values) {
    for (std::size_t at = 0; (at = text.find(key, at)) != std::string::npos; at += value.size())
      text.replace(at, key.size(), value);
  }
  return text;
}

}  // namespace

// The lists of names come from their tables (names.hpp) and the kernel registry, so that what
// --help lists is what the parsers accept.
std::string usage() {
  return fill(R"(usage: locus-bench KERNEL [options]
       locus-bench --list | --help

Runs benchmark kernels on locus and its peers, each run in a fresh child process.

KERNEL            a kernel name, a comma list of names, or all (see --list)
--size S,...      the kernel's own size value, or small / default   [default]
                  (nqueens: N, or N:nocutoff for the variant without a
                  sequential cutoff, where every legal placement is a task)
--runtime R,...   {runtimes}   [serial, locus and
                  the peers built; omp-tasks (OpenMP tasks: the replaying kernels), starpu and blas
                  only for the kernels that have them (cholesky)]
--policy P,...    {policies} (locus only)     [LOCUS_POLICY or adaptive]
--victims V,...   {victims} (locus only)        [LOCUS_VICTIMS or hierarchical]
--workers N,...   worker counts (serial always runs once, at 1; blas: OpenBLAS threads)
                  [1, 2, 4, ... nproc]
--schedule M,...  locus only: random (the scheduler's own stealing, every phase on its
                  own), or {replays}: trace the kernel's setup phase (its first
                  touch) and replay that steal tree for the timed phase in that mode, on the
                  replay scheduler (kernels with a replay version: {replaying});
                  loop: the iterative RelWS locality loop on setup and
                  one kernel phase (untimed), then its schedule under stows; designed: a
                  block partition designed by the kernel, under stuws (the same kernels;
                  LOCUS_BENCH_LOOP_FIXED=N: the loop runs exactly N iterations);
                  traced: random stealing with every timed phase traced (recording's
                  cost; the replaying kernels)  [random]
--flow F,...      locus only, the task-graph kernels ({flowing}): dataflow
                  scheduling options. off: the runtime's own scheduler; else an option
                  set of '+'-joined tokens, at most one per group: steal {steal};
                  queue {queue}; placement {placement}
                  (left out: one, deque, enabling), e.g.
                  half-pessimistic+priority+near-data: the flow scheduler with those
                  options, its counters in the JSON's stats.flow. Peers run once, as with
                  off; other kernels run only off (a flow row of theirs is n/a, not run)
                  [off]
--reps R          repetitions; configurations are interleaved rep by rep   [5]
--json FILE       also write machine, command and results as JSON to FILE
--timeout SEC     kill a run that takes longer than SEC seconds (at most a year)
                  [0: no limit]
--topology SPEC   locus runs on a virtual machine, e.g. sockets=4,cores=4,l3=6MiB
--scheduler S     locus's scheduler: {schedulers} [LOCUS_SCHEDULER or slaw]
--accounting      locus runs count locality (JSON: stats.locality per run)
--trace DIR       each locus run writes a Chrome trace (open in ui.perfetto.dev) into DIR,
                  named after its configuration and process
--list            print the kernels with their small and default sizes

Locus runs start from locus::config::from_env(), so LOCUS_TOPOLOGY, LOCUS_PLACES,
LOCUS_PIN, LOCUS_SLAW ... apply; --workers, --policy and --victims override.
An option's value never starts with '-' (--json --timeout=5 is an error, not a file).
Exit status: 0 when every run verified, 1 when a run failed or crashed, 2 for bad usage.
)",
              {{"{runtimes}", name_list<runtime_kind>(", ")},
               {"{policies}", name_list<locus::spawn_policy>(", ")},
               {"{victims}", name_list<locus::victim_policy>(", ")},
               {"{schedulers}", name_list<locus::scheduler_kind>()},
               {"{replays}", name_list<locus::schedule::replay_mode>(", ")},
               {"{replaying}", kernels_with(&kernel_info::replays)},
               {"{flowing}", kernels_with(&kernel_info::flows)},
               {"{steal}", name_list<locus::dataflow::steal_mode>(" | ", " | ")},
               {"{queue}", name_list<locus::dataflow::ready_queue>(" | ", " | ")},
               {"{placement}", name_list(flow_placements(), " | ", " | ")}});
}

}  // namespace bench
