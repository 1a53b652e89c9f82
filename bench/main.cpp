// bench/main.cpp — locus-bench: runs benchmark kernels on locus and its peers.
// See bench/harness/cli.hpp for the command line and docs in the usage text.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "harness/cli.hpp"
#include "harness/driver.hpp"
#include "harness/execute.hpp"
#include "harness/grid.hpp"
#include "harness/progress.hpp"
#include "harness/report.hpp"
#include "harness/table.hpp"
#include "registry.hpp"

namespace {

void print_kernels() {
  std::printf("%-14s %-12s %-16s %s\n", "kernel", "small", "default", "description");
  for (const auto& k : bench::registry()) {
    std::string missing;
    for (auto rt : bench::all_runtimes) {
      // starpu and blas are listed only where they exist, not as missing everywhere else.
      if (bench::only_some_kernels(rt)) continue;
      if (k.implementation(rt) == nullptr) {
        missing += (missing.empty() ? " [missing: " : ", ") + std::string(bench::to_string(rt));
      }
    }
    if (!missing.empty()) missing += "]";
    std::string also;
    for (auto rt : {bench::runtime_kind::starpu, bench::runtime_kind::blas}) {
      if (k.implementation(rt) != nullptr) {
        also += (also.empty() ? " [also: " : ", ") + std::string(bench::to_string(rt));
      }
    }
    if (!also.empty()) missing += also + "]";
    std::printf("%-14.*s %-12.*s %-16.*s %.*s%s\n", static_cast<int>(k.name.size()), k.name.data(),
                static_cast<int>(k.small_size.size()), k.small_size.data(),
                static_cast<int>(k.default_size.size()), k.default_size.data(),
                static_cast<int>(k.description.size()), k.description.data(), missing.c_str());
  }
}

int run_parent(const bench::options& o, const std::vector<std::string>& argv) {
  auto configs = bench::expand_grid(o);
  bench::progress_line progress;
  auto results =
      bench::run_grid("/proc/self/exe", argv.front(), configs, o.reps, o.timeout_s, progress);
  bench::print_table(std::cout, results);
  std::cout.flush();
  if (!o.json_path.empty()) {
    bench::write_report(o.json_path, bench::machine_json(), bench::command_line(argv), results);
  }
  for (const auto& r : results) {
    if (r.status == bench::run_status::failed) return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> all(argv, argv + argc);
  if (all.empty()) all.emplace_back("locus-bench");
  bench::options o;
  try {
    o = bench::parse_cli({all.begin() + 1, all.end()}, bench::environment_defaults());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "locus-bench: %s\nTry 'locus-bench --help'.\n", e.what());
    return 2;
  }
  if (o.help) {
    std::fputs(bench::usage().c_str(), stdout);
    return 0;
  }
  if (o.list) {
    print_kernels();
    return 0;
  }
  if (o.child) return bench::child_main(o);
  // The locus settings reach every child process through its environment (from_env()).
  if (!o.topology.empty()) setenv("LOCUS_TOPOLOGY", o.topology.c_str(), 1);
  if (!o.scheduler.empty()) setenv("LOCUS_SCHEDULER", o.scheduler.c_str(), 1);
  if (o.accounting) setenv("LOCUS_ACCOUNTING", "1", 1);
  if (!o.trace_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(o.trace_dir, ec);  // a bad folder fails at the first run
    setenv("LOCUS_BENCH_TRACE", o.trace_dir.c_str(), 1);
  }
  try {
    return run_parent(o, all);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "locus-bench: %s\n", e.what());
    return 1;
  }
}
