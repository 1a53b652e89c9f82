// Shared by the dataflow tests: a runtime configuration and the message of a misuse.
#pragma once

#include <locus/dataflow.hpp>
#include <locus/locus.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

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

/// Random DAG inputs over n tasks: task i >= 1 reads up to `fan` distinct earlier tasks (sorted),
/// mostly recent ones (deep graphs), one draw in four any earlier task (wide edges).
[[nodiscard]] inline std::vector<std::vector<std::uint32_t>> random_inputs(std::uint32_t n,
                                                                           unsigned fan,
                                                                           std::uint64_t seed) {
  std::vector<std::vector<std::uint32_t>> in(n);
  std::mt19937_64 rng(seed);
  for (std::uint32_t i = 1; i < n; ++i) {
    const unsigned k = static_cast<unsigned>(rng() % (fan + 1));
    for (unsigned j = 0; j < k; ++j) {
      const std::uint32_t span = rng() % 4 == 0 ? i : std::min<std::uint32_t>(i, 16);
      in[i].push_back(i - 1 - static_cast<std::uint32_t>(rng() % span));
    }
    std::sort(in[i].begin(), in[i].end());
    in[i].erase(std::unique(in[i].begin(), in[i].end()), in[i].end());
  }
  return in;
}

/// A random-DAG task's value: mixes its index and the sum of its inputs' values, so a missed
/// or repeated input changes the answer.
[[nodiscard]] inline std::uint64_t dag_value(std::uint32_t i, std::uint64_t inputs) {
  return mix(inputs * 31 + i + 1);
}

/// The values of a DAG's tasks by serial execution in topological (index) order.
[[nodiscard]] inline std::vector<std::uint64_t> serial_values(
    const std::vector<std::vector<std::uint32_t>>& in) {
  std::vector<std::uint64_t> v(in.size());
  for (std::uint32_t i = 0; i < in.size(); ++i) {
    std::uint64_t s = 0;
    for (std::uint32_t j : in[i])
      s += v[j];
    v[i] = dag_value(i, s);
  }
  return v;
}

}  // namespace flow_test
