// ge: Gaussian elimination without pivoting (LAWS's and CAB's "GE") of an n x n matrix, in
// place: for each pivot k = 0 .. n-2, every row i > k gets
//   l = a[i][k] / a[k][k];  a[i][k] = l;  a[i][j] -= l * a[k][j]  for j > k,
// leaving L (unit diagonal, below it) and U (on and above it) with A = L U. The rows below the
// pivot are independent, so each pivot's update runs in parallel over row blocks, split in
// halves down to `leaf` rows. No pivoting is needed: the matrix is strictly diagonally dominant
// by rows (off-diagonal entries in [0, 1), diagonal n + 1), which elimination preserves, so no
// pivot is small. Size "N" or "NxLEAF" (LEAF rows per leaf, default 8, LAWS's cutoff): small 96,
// default 2048 (LAWS's size).
//
// Verification. Parallel versions: equal to the serial result bit for bit (every element
// receives the same operations in the same order, whatever the row split). Every version,
// independently of the serial code: the residual of L U against A, recomputed from the
// generator, on four rows (first, n/3, 2n/3, last) and all columns:
//   |(L U)[i][j] - A[i][j]| <= 8 n eps (n + 1)
// (the backward error of elimination is within n eps |L| |U|; here |L| <= 1 and the entries of
// U stay below 2 (n + 1)); a row left out of one pivot's update errs by about 1.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>

#include "../../kernel.hpp"
#include "../dims.hpp"
#include "../grid_buffer.hpp"
#include "../reference_cache.hpp"
#include "../stencil_common.hpp"

namespace ge_kernel {

/// LAWS's leaf cutoff.
inline constexpr int default_leaf = 8;

struct problem {
  int n = 0;
  int leaf = default_leaf;  ///< rows per leaf of the split
  std::string size;
};

/// Parses "N" (N in [2, 16384]; LEAF min(8, N)) or "NxLEAF" (LEAF in [1, N]).
[[nodiscard]] inline problem parse(const std::string& size) {
  problem pr;
  std::array<int, 1> one{};
  std::array<int, 2> two{};
  bool ok = false;
  if (bench::parse_dims(size, one)) {
    pr.n = one[0];
    pr.leaf = std::min(default_leaf, std::max(pr.n, 1));
    ok = true;
  } else if (bench::parse_dims(size, two)) {
    pr.n = two[0];
    pr.leaf = two[1];
    ok = true;
  }
  ok = ok && pr.n >= 2 && pr.n <= 16384 && pr.leaf >= 1 && pr.leaf <= pr.n;
  if (!ok) {
    throw std::invalid_argument(
        "ge: size must be N or NxLEAF with N in [2, 16384] and LEAF in [1, N] (e.g. 96 or "
        "2048x8), got '" +
        size + "'");
  }
  pr.size = size;
  return pr;
}

/// A[i][j] of the input.
[[nodiscard]] inline double entry(const problem& pr, int i, int j) noexcept {
  if (i == j) return pr.n + 1.0;
  return stencil::initial_value(static_cast<std::size_t>(i) * pr.n + j);
}

/// Writes rows [lo, hi) of the input into `a`.
inline void init_rows(const problem& pr, double* a, int lo, int hi) {
  for (int i = lo; i < hi; ++i)
    for (int j = 0; j < pr.n; ++j)
      a[static_cast<std::size_t>(i) * pr.n + j] = entry(pr, i, j);
}

/// Pivot k's update of rows [lo, hi) (all > k): the only place it is written. Out of line:
/// inlined into a coroutine, gcc keeps the pointers in the frame and does not vectorise.
[[gnu::noinline]] inline void update_rows(const problem& pr, double* a, int k, int lo, int hi) {
  const std::size_t n = static_cast<std::size_t>(pr.n);
  const double* pivot = a + k * n;
  const double d = pivot[k];
  for (int i = lo; i < hi; ++i) {
    double* row = a + i * n;
    const double l = row[k] / d;
    row[k] = l;
    for (std::size_t j = k + 1; j < n; ++j)
      row[j] -= l * pivot[j];
  }
}

struct instance {
  problem pr;
  bench::grid_buffer<double> a;
};

/// bench::measure()'s setup for the heap versions: the matrix written on this thread.
[[nodiscard]] inline instance setup(const std::string& size) {
  instance in{parse(size), {}};
  in.a = bench::grid_buffer<double>(static_cast<std::size_t>(in.pr.n) * in.pr.n);
  init_rows(in.pr, in.a.data(), 0, in.pr.n);
  return in;
}

/// Every pivot over all rows below it, in order.
inline void solve_serial(instance& in) {
  for (int k = 0; k + 1 < in.pr.n; ++k)
    update_rows(in.pr, in.a.data(), k, k + 1, in.pr.n);
}

/// The serial result for `size`, computed once per size.
[[nodiscard]] inline const instance& reference(const std::string& size) {
  return bench::cached_reference(size, [&size] {
    instance in = setup(size);
    solve_serial(in);
    return in;
  });
}

/// The largest |(L U)[i][j] - A[i][j]| over rows 0, n/3, 2n/3, n-1 and all columns.
[[nodiscard]] inline double sampled_residual(const problem& pr, std::span<const double> lu) {
  const std::size_t n = static_cast<std::size_t>(pr.n);
  double worst = 0;
  for (const int i : {0, pr.n / 3, 2 * pr.n / 3, pr.n - 1}) {
    for (int j = 0; j < pr.n; ++j) {
      double s = 0;
      const int last = std::min(i, j);
      for (int m = 0; m <= last; ++m) {
        const double l = m == i ? 1.0 : lu[i * n + m];
        s += l * lu[m * n + j];
      }
      const double e = std::abs(s - entry(pr, i, j));
      if (!(e <= worst)) worst = e;  // also NaN
    }
  }
  return worst;
}

/// The residual check and (compare_to_serial) bitwise equality with the serial result.
inline void check_matrix(bench::outcome& out, const instance& in, bool compare_to_serial) {
  const problem& pr = in.pr;
  const double tol = 8.0 * pr.n * std::numeric_limits<double>::epsilon() * (pr.n + 1.0);
  const double res = sampled_residual(pr, in.a.span());
  char buf[96];
  std::snprintf(buf, sizeof buf, "max|LU-A| (4 rows)=%.3e tol=%.3e", res, tol);
  out.detail = buf;
  out.verified = res <= tol;
  if (compare_to_serial && out.verified) {
    const std::span<const double> ref = reference(pr.size).a.span();
    std::size_t differ = 0;
    for (std::size_t x = 0; x < ref.size(); ++x)
      differ += std::memcmp(&ref[x], &in.a[x], sizeof(double)) != 0 ? 1 : 0;
    out.verified = differ == 0;
    if (differ != 0) out.detail += "; " + std::to_string(differ) + " entries differ from serial";
  }
}

inline void check(bench::outcome& out, const instance& in) {
  check_matrix(out, in, true);
}
inline void check_serial(bench::outcome& out, const instance& in) {
  check_matrix(out, in, false);
}

}  // namespace ge_kernel
