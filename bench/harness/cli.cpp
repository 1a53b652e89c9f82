// bench/harness/cli.cpp — parsing of the locus-bench command line.
#include "cli.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>

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

// The option names that take a value; each may be written "--opt VALUE" or "--opt=VALUE".
bool takes_value(std::string_view opt) {
  static constexpr std::string_view with_value[] = {"--size",    "--runtime", "--policy",
                                                    "--victims", "--workers", "--reps",
                                                    "--json",    "--timeout", "--result-fd"};
  return std::find(std::begin(with_value), std::end(with_value), opt) != std::end(with_value);
}

void apply_option(options& o, std::string_view opt, std::string_view val) {
  if (opt == "--size") {
    o.sizes =
        parse_list<std::string>(val, "--size", [](std::string_view x) { return std::string(x); });
  } else if (opt == "--runtime") {
    o.runtimes = parse_list<runtime_kind>(val, "--runtime", parse_runtime_name);
  } else if (opt == "--policy") {
    o.policies = parse_list<locus::spawn_policy>(val, "--policy", parse_policy_name);
  } else if (opt == "--victims") {
    o.victims = parse_list<locus::victim_policy>(val, "--victims", parse_victims_name);
  } else if (opt == "--workers") {
    o.workers = parse_list<unsigned>(val, "--workers", [](std::string_view x) {
      return parse_positive(x, "--workers", max_workers);
    });
  } else if (opt == "--reps") {
    o.reps = parse_positive(val, "--reps", 1000000);
  } else if (opt == "--json") {
    if (val.empty()) throw cli_error("--json: expected a file name");
    o.json_path = std::string(val);
  } else if (opt == "--timeout") {
    double t = 0;
    auto res = std::from_chars(val.data(), val.data() + val.size(), t);
    if (res.ec != std::errc() || res.ptr != val.data() + val.size() || !(t >= 0) ||
        !std::isfinite(t)) {
      throw cli_error("--timeout: '" + std::string(val) + "' is not a number of seconds >= 0");
    }
    o.timeout_s = t;
  } else if (opt == "--result-fd") {
    o.result_fd = static_cast<int>(parse_positive(val, "--result-fd", 1 << 20));
  }
}

// A child runs exactly one configuration; anything else means the parent is broken.
void check_child(const options& o) {
  if (o.result_fd < 0) throw cli_error("--child needs --result-fd");
  if (o.kernels.size() != 1 || o.sizes.size() != 1 || o.runtimes.size() != 1 ||
      o.policies.size() != 1 || o.victims.size() != 1 || o.workers.size() != 1) {
    throw cli_error("--child runs exactly one kernel, size, runtime, policy, victims, workers");
  }
}

}  // namespace

std::vector<std::string> split_list(std::string_view s, std::string_view what) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    std::size_t comma = s.find(',', start);
    std::string_view item =
        s.substr(start, comma == std::string_view::npos ? s.npos : comma - start);
    if (item.empty()) {
      throw cli_error(std::string(what) + ": empty item in list '" + std::string(s) + "'");
    }
    out.emplace_back(item);
    if (comma == std::string_view::npos) return out;
    start = comma + 1;
  }
}

locus::spawn_policy parse_policy_name(std::string_view s) {
  if (s == "work-first" || s == "work_first") return locus::spawn_policy::work_first;
  if (s == "help-first" || s == "help_first") return locus::spawn_policy::help_first;
  if (s == "adaptive") return locus::spawn_policy::adaptive;
  throw cli_error("--policy: unknown policy '" + std::string(s) +
                  "'; expected work-first, help-first or adaptive");
}

locus::victim_policy parse_victims_name(std::string_view s) {
  if (s == "random") return locus::victim_policy::random;
  if (s == "hierarchical") return locus::victim_policy::hierarchical;
  throw cli_error("--victims: unknown victim policy '" + std::string(s) +
                  "'; expected random or hierarchical");
}

runtime_kind parse_runtime_name(std::string_view s) {
  for (auto rt :
       {runtime_kind::serial, runtime_kind::locus, runtime_kind::tbb, runtime_kind::omp}) {
    if (s == to_string(rt)) return rt;
  }
  throw cli_error("--runtime: unknown runtime '" + std::string(s) +
                  "'; expected serial, locus, tbb or omp");
}

std::string_view policy_name(locus::spawn_policy p) noexcept {
  switch (p) {
    case locus::spawn_policy::work_first:
      return "work-first";
    case locus::spawn_policy::help_first:
      return "help-first";
    case locus::spawn_policy::adaptive:
      return "adaptive";
  }
  return "?";
}

std::string_view victims_name(locus::victim_policy v) noexcept {
  switch (v) {
    case locus::victim_policy::random:
      return "random";
    case locus::victim_policy::hierarchical:
      return "hierarchical";
  }
  return "?";
}

options parse_cli(const std::vector<std::string>& args, const cli_defaults& defaults) {
  options o;
  std::vector<std::string> positional;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string_view a = args[i];
    if (a == "-h" || a == "--help") {
      o.help = true;
      return o;
    }
    if (a == "--list") {
      o.list = true;
      continue;
    }
    if (a == "--child") {
      o.child = true;
      continue;
    }
    if (a.size() < 2 || a.substr(0, 2) != "--") {
      if (!a.empty() && a[0] == '-') throw cli_error("unknown option '" + std::string(a) + "'");
      positional.emplace_back(a);
      continue;
    }
    std::size_t eq = a.find('=');
    std::string_view opt = a.substr(0, eq);
    if (!takes_value(opt)) throw cli_error("unknown option '" + std::string(a) + "'");
    std::string_view val;
    if (eq != std::string_view::npos) {
      val = a.substr(eq + 1);
    } else if (i + 1 < args.size()) {
      val = args[++i];
    } else {
      throw cli_error(std::string(opt) + ": missing value");
    }
    apply_option(o, opt, val);
  }
  if (o.list) return o;
  if (positional.empty()) throw cli_error("missing KERNEL (a kernel name, a comma list, or all)");
  if (positional.size() > 1) {
    throw cli_error("one KERNEL argument expected (use a comma list for several), got '" +
                    positional[1] + "' too");
  }
  o.kernels = parse_kernels(positional[0]);
  if (o.runtimes.empty()) o.runtimes = defaults.runtimes;
  if (o.policies.empty()) o.policies = defaults.policies;
  if (o.victims.empty()) o.victims = defaults.victims;
  if (o.workers.empty()) o.workers = defaults.workers;
  if (o.reps == 0) o.reps = defaults.reps;
  if (o.child) check_child(o);
  return o;
}

std::string usage() {
  return R"(usage: locus-bench KERNEL [options]
       locus-bench --list | --help

Runs benchmark kernels on locus and its peers, each run in a fresh child process.

KERNEL            a kernel name, a comma list of names, or all (see --list)
--size S,...      the kernel's own size value, or small / default   [default]
--runtime R,...   serial, locus, tbb, omp        [serial, locus and the peers built]
--policy P,...    work-first, help-first, adaptive (locus only)     [LOCUS_POLICY or adaptive]
--victims V,...   random, hierarchical (locus only)        [LOCUS_VICTIMS or hierarchical]
--workers N,...   worker counts (serial always runs once, at 1)  [1, 2, 4, ... nproc]
--reps R          repetitions; configurations are interleaved rep by rep   [5]
--json FILE       also write machine, command and results as JSON to FILE
--timeout SEC     kill a run that takes longer than SEC seconds   [0: no limit]
--list            print the kernels with their small and default sizes

Locus runs start from locus::config::from_env(), so LOCUS_TOPOLOGY, LOCUS_PLACES,
LOCUS_PIN, LOCUS_SLAW ... apply; --workers, --policy and --victims override.
Exit status: 0 when every run verified, 1 when a run failed or crashed, 2 for bad usage.
)";
}

}  // namespace bench
