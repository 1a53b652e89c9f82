// lu: Cilk's recursive blocked LU factorisation without pivoting, on an n x n row-major
// matrix of doubles made diagonally dominant (so no pivoting is needed). The matrix is a grid
// of k_block x k_block blocks; n / k_block must be a power of two. Recursion on quadrants:
//   lu(A):        lu(A00); in parallel { A01 := L00^-1 A01 ; A10 := A10 U00^-1 };
//                 A11 -= A10 A01; lu(A11)
//   lower_solve:  the two column halves of M in parallel, each: top half, Schur update of the
//                 bottom half, bottom half
//   upper_solve:  the two row halves of M in parallel, each: left, Schur update, right
//   schur:        M -= V W as eight quadrant products, two rounds of four in parallel
// The check (untimed): ||L U - A||_max / ||A||_max < 1e-8. Small 128, default 1024.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "../../kernel.hpp"
#include "../dims.hpp"

namespace lu_kernel {

inline constexpr std::size_t k_block = 16;

[[nodiscard]] inline std::size_t parse_n(const std::string& size) {
  const auto n = bench::parse_int(size, 16, 8192);
  const long long nb = n ? *n / static_cast<long long>(k_block) : 0;
  if (!n || *n % 16 != 0 || (nb & (nb - 1)) != 0) {
    throw std::invalid_argument(
        "lu: size must be n = 16 * 2^k with 16 <= n <= 8192 (e.g. 128, 1024), got '" + size + "'");
  }
  return static_cast<std::size_t>(*n);
}

/// A square sub-matrix of nb x nb blocks: top-left element and the whole matrix's row stride.
struct view {
  double* at;
  std::size_t ld;

  [[nodiscard]] double& operator()(std::size_t i, std::size_t j) const { return at[i * ld + j]; }
  /// Quadrant (qi, qj) of a view that is nb blocks wide.
  [[nodiscard]] view quad(std::size_t nb, int qi, int qj) const {
    const std::size_t h = nb / 2 * k_block;
    return {at + static_cast<std::size_t>(qi) * h * ld + static_cast<std::size_t>(qj) * h, ld};
  }
};

/// Factors one block in place: unit-lower L below the diagonal, U on and above it.
inline void block_lu(view m) {
  for (std::size_t k = 0; k < k_block; ++k) {
    for (std::size_t i = k + 1; i < k_block; ++i) {
      const double lik = m(i, k) /= m(k, k);
      for (std::size_t j = k + 1; j < k_block; ++j)
        m(i, j) -= lik * m(k, j);
    }
  }
}

/// m := L^-1 m, with L the unit-lower triangle of block l.
inline void block_lower_solve(view m, view l) {
  for (std::size_t i = 1; i < k_block; ++i) {
    for (std::size_t k = 0; k < i; ++k) {
      const double lik = l(i, k);
      for (std::size_t j = 0; j < k_block; ++j)
        m(i, j) -= lik * m(k, j);
    }
  }
}

/// m := m U^-1, with U the upper triangle of block u.
inline void block_upper_solve(view m, view u) {
  for (std::size_t i = 0; i < k_block; ++i) {
    for (std::size_t j = 0; j < k_block; ++j) {
      const double x = m(i, j) /= u(j, j);
      for (std::size_t jj = j + 1; jj < k_block; ++jj)
        m(i, jj) -= x * u(j, jj);
    }
  }
}

/// m -= v w on single blocks.
inline void block_schur(view m, view v, view w) {
  for (std::size_t i = 0; i < k_block; ++i) {
    for (std::size_t k = 0; k < k_block; ++k) {
      const double vik = v(i, k);
      for (std::size_t j = 0; j < k_block; ++j)
        m(i, j) -= vik * w(k, j);
    }
  }
}

/// The base cases every version shares: at one block (nb == 1) the step runs its block kernel
/// here and returns true; above it nothing is done and false says "split into quadrants".
[[nodiscard]] inline bool lu_leaf(view m, std::size_t nb) {
  if (nb != 1) return false;
  block_lu(m);
  return true;
}
[[nodiscard]] inline bool lower_solve_leaf(view m, view l, std::size_t nb) {
  if (nb != 1) return false;
  block_lower_solve(m, l);
  return true;
}
[[nodiscard]] inline bool upper_solve_leaf(view m, view u, std::size_t nb) {
  if (nb != 1) return false;
  block_upper_solve(m, u);
  return true;
}
[[nodiscard]] inline bool schur_leaf(view m, view v, view w, std::size_t nb) {
  if (nb != 1) return false;
  block_schur(m, v, w);
  return true;
}

/// The input: deterministic pseudo-random entries in [0, 1), plus n on the diagonal.
[[nodiscard]] inline std::vector<double> make_input(std::size_t n) {
  std::vector<double> a(n * n);
  std::uint64_t x = 0x2545F4914F6CDD1Dull;
  for (double& v : a) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    v = static_cast<double>(x >> 11) / 9007199254740992.0;
  }
  for (std::size_t i = 0; i < n; ++i)
    a[i * n + i] += static_cast<double>(n);
  return a;
}

/// A run's input: the matrix, and the copy that is factored in place.
struct instance {
  std::size_t n = 0;
  std::vector<double> a;   ///< the input, kept for the check
  std::vector<double> lu;  ///< starts as a copy of a; L and U after the run

  /// The whole working matrix and its size in blocks, what every version's lu() takes.
  [[nodiscard]] view whole() { return view{lu.data(), n}; }
  [[nodiscard]] std::size_t blocks() const { return n / k_block; }
};

/// bench::measure()'s setup: parses `size` and builds the matrix and its working copy.
[[nodiscard]] inline instance setup(const std::string& size) {
  instance in;
  in.n = parse_n(size);
  in.a = make_input(in.n);
  in.lu = in.a;
  return in;
}

/// Checks that the unit-lower L and upper U stored in in.lu multiply back to in.a.
inline void check(bench::outcome& out, const instance& in) {
  const std::size_t n = in.n;
  const std::vector<double>& a = in.a;
  const std::vector<double>& lu = in.lu;
  std::vector<double> prod(n * n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    double* row = &prod[i * n];
    for (std::size_t k = 0; k <= i; ++k) {
      const double lik = k == i ? 1.0 : lu[i * n + k];
      for (std::size_t j = k; j < n; ++j)
        row[j] += lik * lu[k * n + j];
    }
  }
  double err = 0;
  double scale = 0;
  for (std::size_t i = 0; i < n * n; ++i) {
    err = std::max(err, std::abs(prod[i] - a[i]));
    scale = std::max(scale, std::abs(a[i]));
  }
  const double residual = err / scale;
  out.verified = residual < 1e-8;
  const double gflops = out.seconds > 0 ? 2.0 / 3.0 * n * n * n / out.seconds * 1e-9 : 0;
  char text[112];
  std::snprintf(text, sizeof text, "%zux%zu, block %zu, %.2f GFLOP/s, residual %.1e%s", n, n,
                k_block, gflops, residual, out.verified ? "" : " (limit 1e-8)");
  out.detail = text;
}

}  // namespace lu_kernel
