// matmul: Cilk's recursive divide-and-conquer C += A * B on n x n row-major doubles. A block
// product splits its largest dimension: rows of A (m) or columns of B (p) split into two
// independent halves that run in parallel; the inner dimension (n) splits into two halves that
// both update the same C block, so they run one after the other. A block with
// m + n + p <= k_base runs a serial loop. Small 128, default 1024.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "../../kernel.hpp"
#include "../dims.hpp"

namespace matmul_kernel {

/// Cilk's base case: a block with m + n + p at most this runs serially.
inline constexpr std::size_t k_base = 64;

[[nodiscard]] inline std::size_t parse_n(const std::string& size) {
  const auto n = bench::parse_int(size, 1, 8192);
  if (!n) {
    throw std::invalid_argument("matmul: size must be an integer n in [1, 8192], got '" + size +
                                "'");
  }
  return static_cast<std::size_t>(*n);
}

/// A block of a row-major matrix: `at` is its top-left element, ld the row stride of the whole.
struct block_args {
  const double* a;  ///< m x n
  const double* b;  ///< n x p
  double* c;        ///< m x p
  std::size_t m, n, p, ld;
};

/// How a block product splits (or whether it is a base case).
enum class split { base, rows, inner, cols };

[[nodiscard]] inline split choose(const block_args& x) {
  if (x.m + x.n + x.p <= k_base) return split::base;
  if (x.m >= x.n && x.m >= x.p) return split::rows;
  if (x.n >= x.p) return split::inner;
  return split::cols;
}

/// The two halves of a split, in order (for split::inner the second must run after the first).
[[nodiscard]] inline std::pair<block_args, block_args> halves(const block_args& x, split s) {
  block_args lo = x;
  block_args hi = x;
  switch (s) {
    case split::rows:
      lo.m = x.m / 2;
      hi.m = x.m - lo.m;
      hi.a = x.a + lo.m * x.ld;
      hi.c = x.c + lo.m * x.ld;
      break;
    case split::inner:
      lo.n = x.n / 2;
      hi.n = x.n - lo.n;
      hi.a = x.a + lo.n;
      hi.b = x.b + lo.n * x.ld;
      break;
    case split::cols:
      lo.p = x.p / 2;
      hi.p = x.p - lo.p;
      hi.b = x.b + lo.p;
      hi.c = x.c + lo.p;
      break;
    case split::base:
      break;
  }
  return {lo, hi};
}

/// The serial base case: C += A * B on one small block.
// Out of line in every version: inlined into a coroutine body its arguments live in the
// coroutine frame, which kept gcc from hoisting and vectorising the loop (locus 1.6x slower).
[[gnu::noinline]] inline void base_case(const block_args& x) {
  for (std::size_t i = 0; i < x.m; ++i) {
    double* crow = x.c + i * x.ld;
    for (std::size_t k = 0; k < x.n; ++k) {
      const double aik = x.a[i * x.ld + k];
      const double* brow = x.b + k * x.ld;
      for (std::size_t j = 0; j < x.p; ++j)
        crow[j] += aik * brow[j];
    }
  }
}

/// The inputs: A and B hold deterministic pseudo-random values in [-1, 1); C starts at zero.
struct problem {
  std::size_t n = 0;
  std::vector<double> a, b, c;

  explicit problem(std::size_t size) : n(size), a(size * size), b(size * size), c(size * size) {
    std::uint64_t x = 0x9E3779B97F4A7C15ull;
    const auto next = [&x] {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      return static_cast<double>(x >> 11) / 9007199254740992.0 * 2.0 - 1.0;
    };
    for (double& v : a)
      v = next();
    for (double& v : b)
      v = next();
  }

  [[nodiscard]] block_args whole() { return {a.data(), b.data(), c.data(), n, n, n, n}; }
};

/// bench::measure()'s setup: parses `size` and fills A and B.
[[nodiscard]] inline problem setup(const std::string& size) {
  return problem(parse_n(size));
}

/// Compares C with the iterative product (computed here, untimed): max |error| relative to
/// max |C| must be below 1e-9.
inline void check(bench::outcome& out, const problem& pr) {
  const std::size_t n = pr.n;
  std::vector<double> ref(n * n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t k = 0; k < n; ++k) {
      const double aik = pr.a[i * n + k];
      for (std::size_t j = 0; j < n; ++j)
        ref[i * n + j] += aik * pr.b[k * n + j];
    }
  }
  double err = 0;
  double scale = 0;
  for (std::size_t i = 0; i < n * n; ++i) {
    err = std::max(err, std::abs(pr.c[i] - ref[i]));
    scale = std::max(scale, std::abs(ref[i]));
  }
  const double rel = scale > 0 ? err / scale : err;
  out.verified = rel < 1e-9;
  const double gflops = out.seconds > 0 ? 2.0 * n * n * n / out.seconds * 1e-9 : 0;
  char text[96];
  std::snprintf(text, sizeof text, "%zux%zu, %.2f GFLOP/s, max rel error %.1e", n, n, gflops, rel);
  out.detail = text;
  if (!out.verified) out.detail += " (limit 1e-9)";
}

}  // namespace matmul_kernel
