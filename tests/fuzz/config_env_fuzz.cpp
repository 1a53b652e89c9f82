// tests/fuzz/config_env_fuzz.cpp — libFuzzer target for the LOCUS_* environment
// (locus::config::from_env) and locus-bench's LOCUS_BENCH_LOOP_FIXED. The input is lines: line
// i is the value of variable i of the list below (a missing or empty line leaves it unset; a
// value stops at a NUL, as the environment's strings do). Reading it either gives a config or
// throws config_error; anything else is a finding.
#include <stdlib.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "kernels/locus_replay.hpp"
#include "locus/config.hpp"

namespace {

constexpr const char* variables[] = {"LOCUS_SCHEDULER",
                                     "LOCUS_WORKERS",
                                     "LOCUS_POLICY",
                                     "LOCUS_VICTIMS",
                                     "LOCUS_TOPOLOGY",
                                     "LOCUS_PLACES",
                                     "LOCUS_CROSS_PLACE_STEALS",
                                     "LOCUS_PIN",
                                     "LOCUS_ACCOUNTING",
                                     "LOCUS_SLAW",
                                     "LOCUS_BENCH_LOOP_FIXED"};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  for (const char* name : variables) {
    const std::size_t nl = in.find('\n');
    const std::string line(in.substr(0, nl));
    in = nl == std::string_view::npos ? std::string_view{} : in.substr(nl + 1);
    const std::string value(line.c_str());  // up to a NUL
    if (value.empty()) {
      ::unsetenv(name);
    } else {
      ::setenv(name, value.c_str(), 1);
    }
  }
  try {
    const locus::config c = locus::config::from_env();
    (void)c.places_input();
  } catch (const locus::config_error&) {
  }
  try {
    (void)bench::loop_options();
  } catch (const locus::config_error&) {
  }
  return 0;
}
