// tests/fuzz/bench_cli_fuzz.cpp — libFuzzer target for locus-bench's command line
// (bench::parse_cli, bench/harness/cli.cpp). The input is the arguments, one per line (a NUL
// ends an argument, as in argv). Parsing either gives options or throws cli_error (or, for a
// --topology spec, config_error) with the message main prints; anything else is a finding.
// The kernel registry is bench_registry_stub.cpp's (names only: the kernels are not linked).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "harness/cli.hpp"
#include "locus/config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args;
  std::string_view in(reinterpret_cast<const char*>(data), size);
  while (!in.empty() && args.size() < 64) {
    const std::size_t nl = in.find('\n');
    args.emplace_back(std::string(in.substr(0, nl)).c_str());
    in = nl == std::string_view::npos ? std::string_view{} : in.substr(nl + 1);
  }
  bench::cli_defaults d;
  d.workers = {1, 2};
  try {
    const bench::options o = bench::parse_cli(args, d);
    if (!o.help && !o.list && o.kernels.empty()) __builtin_trap();  // parsed without a kernel
  } catch (const bench::cli_error&) {
  } catch (const locus::config_error&) {
  }
  return 0;
}
