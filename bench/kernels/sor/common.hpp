// sor: red-black successive over-relaxation for Laplace's equation on an N x N grid of doubles
// (SLAW's SOR, after Java Grande's: omega = 1.25, boundary fixed). An iteration is two
// half-sweeps, red points ((i + j) even) then black; a point of one colour reads only points of
// the other, so a half-sweep may update its rows in any order and in parallel, and every order
// gives the same bits. The parallel versions fork and join once per half-sweep over blocks of
// block_rows rows. Size "NxITERS": small 256x10, default 2000x50.
//
// Verification: bit-for-bit equality with a plain reference written independently of the
// blocked kernel (it visits every point and skips the wrong colour), computed once per size.
#pragma once

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "../../kernel.hpp"
#include "../dims.hpp"
#include "../grid_buffer.hpp"
#include "../reference_cache.hpp"

namespace sor_kernel {

/// Rows per parallel block: 16 rows of 2000 doubles is 250 KiB, well above a spawn's cost.
inline constexpr int block_rows = 16;

/// Java Grande's relaxation factor.
inline constexpr double omega = 1.25;

/// One SOR problem.
struct problem {
  int n = 0;         ///< grid side, boundary included
  int iters = 0;     ///< full iterations (red then black)
  std::string size;  ///< the size string it was parsed from
};

/// Parses "NxITERS" with N in [3, 32768] and ITERS in [1, 100000].
[[nodiscard]] inline problem parse(const std::string& size) {
  problem pr;
  std::array<int, 2> v{};
  const bool ok = bench::parse_dims(size, v);
  pr.n = v[0];
  pr.iters = v[1];
  if (!ok || pr.n < 3 || pr.n > 32768 || pr.iters < 1 || pr.iters > 100000) {
    throw std::invalid_argument(
        "sor: size must be NxITERS with N in [3, 32768] and ITERS in [1, 100000] (e.g. 256x10), "
        "got '" +
        size + "'");
  }
  pr.size = size;
  return pr;
}

/// The initial grid, row-major, every point (boundary included) drawn from a fixed-seed
/// 64-bit LCG in [0, 1).
[[nodiscard]] inline std::vector<double> initial(const problem& pr) {
  std::vector<double> g(static_cast<std::size_t>(pr.n) * pr.n);
  std::uint64_t x = 42;
  for (double& v : g) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    v = static_cast<double>(x >> 11) * 0x1.0p-53;
  }
  return g;
}

/// The update of one point: the only place it is written, shared by kernel and reference.
[[nodiscard]] inline double relax(const double* g, std::size_t at, std::size_t n) {
  return omega * 0.25 * (g[at - n] + g[at + n] + g[at - 1] + g[at + 1]) + (1.0 - omega) * g[at];
}

/// Relaxes the points of `colour` (0 red, 1 black) in interior rows [lo, hi) (clipped).
[[gnu::noinline]] inline void sweep_rows(double* g, int n, int colour, int lo, int hi) {
  if (lo < 1) lo = 1;
  if (hi > n - 1) hi = n - 1;
  for (int i = lo; i < hi; ++i) {
    const std::size_t row = static_cast<std::size_t>(i) * n;
    // First j >= 1 with (i + j) % 2 == colour.
    const int j0 = 1 + ((i + 1 + colour) & 1);
    for (int j = j0; j < n - 1; j += 2)
      g[row + j] = relax(g, row + j, n);
  }
}

/// The plain reference: every point of every row, the wrong colour skipped.
[[nodiscard]] inline std::vector<double> solve_reference(const problem& pr) {
  std::vector<double> g = initial(pr);
  const std::size_t n = pr.n;
  for (int it = 0; it < pr.iters; ++it) {
    for (std::size_t colour = 0; colour < 2; ++colour) {
      for (std::size_t i = 1; i + 1 < n; ++i) {
        for (std::size_t j = 1; j + 1 < n; ++j) {
          if ((i + j) % 2 == colour) g[i * n + j] = relax(g.data(), i * n + j, n);
        }
      }
    }
  }
  return g;
}

/// The reference for `pr`, computed once per size.
[[nodiscard]] inline const std::vector<double>& reference(const problem& pr) {
  return bench::cached_reference(pr.size, [&pr] { return solve_reference(pr); });
}

/// A run's input: the problem and its grid (the heap's, or locus's allocator's in the locus
/// version).
struct instance {
  problem pr;
  bench::grid_buffer<double> g;

  /// sweep(grid, n, colour) for every half-sweep in order, red then black, iters times: the
  /// iteration loop of the versions whose half-sweep is a plain call (all but locus's
  /// coroutine).
  template <class Sweep>
  void for_each_half_sweep(Sweep sweep) {
    for (int it = 0; it < pr.iters; ++it) {
      for (int colour = 0; colour < 2; ++colour)
        sweep(g.data(), pr.n, colour);
    }
  }
};

/// bench::measure()'s setup: parses `size` and draws the initial grid.
[[nodiscard]] inline instance setup(const std::string& size) {
  instance in{parse(size), {}};
  const std::vector<double> init = initial(in.pr);
  in.g = bench::grid_buffer<double>(init.size());
  std::copy(init.begin(), init.end(), in.g.data());
  return in;
}

/// Compares the grid with the reference bit for bit; fills the verdict and detail.
inline void check(bench::outcome& out, const instance& in) {
  const problem& pr = in.pr;
  const bench::grid_buffer<double>& g = in.g;
  const std::vector<double>& ref = reference(pr);
  std::size_t differ = 0;
  double sum = 0;
  for (std::size_t k = 0; k < g.size(); ++k) {
    if (std::memcmp(&g[k], &ref[k], sizeof(double)) != 0) ++differ;
    sum += g[k];
  }
  out.verified = differ == 0;
  char buf[96];
  std::snprintf(buf, sizeof buf, "sum=%.12e", sum);
  out.detail = buf;
  if (differ != 0)
    out.detail += "; " + std::to_string(differ) + " points differ from the reference";
}

}  // namespace sor_kernel
