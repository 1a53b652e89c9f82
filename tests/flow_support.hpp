// Shared by the dataflow tests: a runtime configuration and the message of a misuse.
#pragma once

#include <locus/dataflow.hpp>
#include <locus/locus.hpp>

#include <cstdint>
#include <string>

namespace flow_test {

/// `workers` workers on a virtual 2x2 machine (sockets=2,cores=2), places as given.
inline locus::config cfg(unsigned workers, const char* places = "none") {
  locus::config c;
  c.workers = workers;
  c.topology = "sockets=2,cores=2";
  c.places = places;
  return c;
}

/// The message of the dataflow_error f() throws, or "no error".
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const locus::dataflow::dataflow_error& e) {
    return e.what();
  }
  return "no error";
}

/// A 64-bit mixing function: the random DAG tests' task values (a task's value mixes its
/// inputs' sum, so a missed or repeated input changes the answer).
[[nodiscard]] inline std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  return x;
}

}  // namespace flow_test
