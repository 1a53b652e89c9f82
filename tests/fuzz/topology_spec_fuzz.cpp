// tests/fuzz/topology_spec_fuzz.cpp — libFuzzer target for the virtual topology spec
// (locus::topology::from_spec, what LOCUS_TOPOLOGY and config::topology hold). A spec either
// makes a topology whose cores and levels are consistent, or throws config_error naming the
// input; any other exception, a crash, a sanitizer report, a timeout or a large allocation is a
// finding.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "locus/config.hpp"
#include "locus/topology.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view spec(reinterpret_cast<const char*>(data), size);
  try {
    const locus::topology t = locus::topology::from_spec(spec, "LOCUS_TOPOLOGY");
    if (t.num_cores() == 0 || t.cores().size() != t.num_cores()) std::abort();
  } catch (const locus::config_error&) {
    // the clear error the parser promises
  }
  return 0;
}
