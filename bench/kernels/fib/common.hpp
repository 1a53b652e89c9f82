// fib: recursive Fibonacci with no cutoff. Every call is a task, so the run time measures the
// cost of a spawn and a sync (SLAW's Fib(35)). Small 25, default 35.
// Size "N:edt" (issue 9): the locus version builds fib as data-driven tasks (locus/dataflow)
// instead of spawn/sync, to read the cost of a task graph against a spawn; the other runtimes
// run their ordinary fib(N) for it.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "../../kernel.hpp"
#include "../dims.hpp"

namespace fib_kernel {

/// Parses the size string: n in [0, 50] (fib(50) at one task per call would take hours).
[[nodiscard]] inline bool wants_edt(const std::string& size) {
  return size.size() > 4 && size.compare(size.size() - 4, 4, ":edt") == 0;
}

[[nodiscard]] inline int parse_n(const std::string& size) {
  const auto n = bench::parse_int(wants_edt(size) ? size.substr(0, size.size() - 4) : size, 0, 50);
  if (!n) {
    throw std::invalid_argument("fib: size must be an integer n in [0, 50], or n:edt, got '" +
                                size + "'");
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
