// fib: recursive Fibonacci with no cutoff. Every call is a task, so the run time measures the
// cost of a spawn and a sync (SLAW's Fib(35)). Small 25, default 35.
// Sizes "N:edt" and "N:edt-events" (issue 9): the locus version builds fib as data-driven tasks
// (locus/dataflow) instead of spawn/sync, to read the cost of a task graph against a spawn;
// the other runtimes run their ordinary fib(N) for them.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include "../../kernel.hpp"
#include "../dims.hpp"

namespace fib_kernel {

/// The locus version a size asks for: "N" spawn/sync, "N:edt" data-driven tasks whose results
/// go straight into the adder's slots (inlets), "N:edt-events" the same graph with an event
/// per result (the general mechanism, kept to measure what an event costs).
enum class variant { spawn, edt, edt_events };

[[nodiscard]] inline bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() > tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

[[nodiscard]] inline variant variant_of(const std::string& size) {
  if (ends_with(size, ":edt")) return variant::edt;
  if (ends_with(size, ":edt-events")) return variant::edt_events;
  return variant::spawn;
}

/// Parses the size string: n in [0, 50] (fib(50) at one task per call would take hours).
[[nodiscard]] inline int parse_n(const std::string& size) {
  const auto colon = size.find(':');
  const bool known = colon == std::string::npos || variant_of(size) != variant::spawn;
  const auto n = known ? bench::parse_int(size.substr(0, colon), 0, 50) : std::nullopt;
  if (!n) {
    throw std::invalid_argument(
        "fib: size must be an integer n in [0, 50], n:edt or n:edt-events, got '" + size + "'");
  }
  return static_cast<int>(*n);
}

/// The reference answer, computed iteratively so it shares nothing with the kernel.
[[nodiscard]] inline std::int64_t reference(int n) {
  std::int64_t a = 0;
  std::int64_t b = 1;
  for (int i = 0; i < n; ++i) {
    const std::int64_t next = a + b;
    a = b;
    b = next;
  }
  return a;
}

/// Fills the outcome's verdict and detail for an answer of fib(n).
inline void check(bench::outcome& out, int n, std::int64_t got) {
  const std::int64_t want = reference(n);
  out.verified = got == want;
  out.detail = "fib(" + std::to_string(n) + ")=" + std::to_string(got);
  if (!out.verified) out.detail += " expected " + std::to_string(want);
}

}  // namespace fib_kernel
