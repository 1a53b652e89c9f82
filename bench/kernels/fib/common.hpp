// fib: recursive Fibonacci with no cutoff. Every call is a task, so the run time measures the
// cost of a spawn and a sync (SLAW's Fib(35)). Small 25, default 35.
// Size "N/C": calls with n < C are plain serial calls in every runtime (the OCR paper's fib
// has such a cutoff). Sizes "N:edt" and "N:edt-events" (issue 9): the locus version builds fib as
// data-driven tasks (locus/dataflow) instead of spawn/sync, to read the cost of a task graph
// against a spawn; the other runtimes run their ordinary fib(N) for them.
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

/// The variant, from what follows the size's first ':' (spawn if there is none, or if it is
/// not one of the two names: parse rejects those).
[[nodiscard]] inline variant variant_of(const std::string& size) {
  const auto colon = size.find(':');
  if (colon == std::string::npos) return variant::spawn;
  const std::string tail = size.substr(colon + 1);
  if (tail == "edt") return variant::edt;
  if (tail == "edt-events") return variant::edt_events;
  return variant::spawn;
}

/// What a size asks for: fib(n), and the cutoff below which a call is a plain function call
/// in every runtime (2: none, every call with n >= 2 is a task; the OCR paper measures
/// fib(50) with cutoff 25).
struct input {
  int n = 0;
  int cutoff = 2;
};

/// Parses "N", "N/C" (cutoff C in [2, 50]), each optionally followed by ":edt" or
/// ":edt-events": n in [0, 50] (fib(50) at one task per call would take hours).
[[nodiscard]] inline input parse(const std::string& size) {
  const auto colon = size.find(':');
  const bool known = colon == std::string::npos || variant_of(size) != variant::spawn;
  const std::string head = size.substr(0, colon);
  const auto slash = head.find('/');
  const auto n = known ? bench::parse_int(head.substr(0, slash), 0, 50) : std::nullopt;
  auto c = bench::parse_int("2", 2, 50);
  if (slash != std::string::npos) c = bench::parse_int(head.substr(slash + 1), 2, 50);
  if (!n || !c) {
    throw std::invalid_argument(
        "fib: size must be n or n/cutoff (n in [0, 50], cutoff in [2, 50]), optionally with "
        ":edt or :edt-events, got '" +
        size + "'");
  }
  return {static_cast<int>(*n), static_cast<int>(*c)};
}

/// fib(n) by plain recursion: the serial version, and every runtime's calls below the cutoff.
/// n arrives at run time from the size string, so the compiler cannot fold the recursion;
/// noinline keeps gcc from unrolling the recursion into itself, so that every call is a real
/// call, as every call is a task in the parallel versions without a cutoff.
[[gnu::noinline]] inline std::int64_t serial(int n) {
  if (n < 2) return n;
  return serial(n - 1) + serial(n - 2);
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
inline void check(bench::outcome& out, const input& in, std::int64_t got) {
  const std::int64_t want = reference(in.n);
  out.verified = got == want;
  out.detail = "fib(" + std::to_string(in.n) + ")=" + std::to_string(got);
  if (in.cutoff > 2) out.detail += ", calls below " + std::to_string(in.cutoff) + " serial";
  if (!out.verified) out.detail += " expected " + std::to_string(want);
}

}  // namespace fib_kernel
