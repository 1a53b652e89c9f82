// heat: Cilk's 2-D heat diffusion. Explicit finite differences on an nx x ny grid over
// [0,pi] x [0,pi] with zero boundary, nt time steps, two buffers. Each time step updates the
// interior rows; the parallel versions split the row range recursively down to blocks of
// leaf_rows rows. Size "NXxNYxNT": small 256x256x10, default 2048x1024x50.
//
// Verification. The initial value sin(x) sin(y) decays as exp(-2t) sin(x) sin(y) under
// u_t = u_xx + u_yy. On the grid, sin(x_i) sin(y_j) is an eigenvector of the 5-point Laplacian
// with Dirichlet zeros (eigenvalue lambda below), so the scheme's own solution after n steps is
// exactly g^n sin(x_i) sin(y_j) with g = 1 + dt * lambda. Hence
//   max |u - exact| <= |g^n - exp(-2 t_n)| + rounding,
// and rounding stays below 16 eps per step: each update is a convex combination of values of
// magnitude <= 1 (dt is below the stability limit, so all weights are >= 0) made of 8 roundings,
// and a convex combination does not amplify earlier errors. That bound is the tolerance; a
// missed or doubled update of even one row costs about 2 t_n, orders of magnitude more.
// The parallel versions must also equal the serial result bit for bit (same arithmetic per point).
#pragma once

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <numbers>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "../../kernel.hpp"
#include "../dims.hpp"
#include "../grid_buffer.hpp"
#include "../reference_cache.hpp"

namespace heat_kernel {

/// Rows per leaf of the recursive row split (Cilk heat cuts at a few rows; 16 rows of a
/// 1024-wide grid is 128 KiB per buffer, enough work to hide a spawn).
inline constexpr int leaf_rows = 16;

/// One heat problem: grid, steps and the scheme's coefficients.
struct problem {
  int nx = 0;        ///< rows (x direction, including both boundary rows)
  int ny = 0;        ///< columns (y direction, including both boundary columns)
  int nt = 0;        ///< time steps
  double dx = 0;     ///< grid spacing in x
  double dy = 0;     ///< grid spacing in y
  double dt = 0;     ///< time step
  double cx = 0;     ///< dt / dx^2
  double cy = 0;     ///< dt / dy^2
  std::string size;  ///< the size string it was parsed from
};

/// Parses "NXxNYxNT" (NX, NY in [3, 16384], NT in [1, 100000]) and fixes dt at 0.8 times the
/// stability limit 1 / (2 (1/dx^2 + 1/dy^2)).
[[nodiscard]] inline problem parse(const std::string& size) {
  std::array<int, 3> v{};
  const bool ok = bench::parse_dims(size, v) && v[0] >= 3 && v[0] <= 16384 && v[1] >= 3 &&
                  v[1] <= 16384 && v[2] >= 1 && v[2] <= 100000;
  if (!ok) {
    throw std::invalid_argument(
        "heat: size must be NXxNYxNT with NX, NY in [3, 16384] and NT in "
        "[1, 100000] (e.g. 256x256x10), got '" +
        size + "'");
  }
  problem pr;
  pr.nx = v[0];
  pr.ny = v[1];
  pr.nt = v[2];
  pr.dx = std::numbers::pi / (pr.nx - 1);
  pr.dy = std::numbers::pi / (pr.ny - 1);
  pr.dt = 0.4 / (1.0 / (pr.dx * pr.dx) + 1.0 / (pr.dy * pr.dy));
  pr.cx = pr.dt / (pr.dx * pr.dx);
  pr.cy = pr.dt / (pr.dy * pr.dy);
  pr.size = size;
  return pr;
}

/// The two buffers, row-major (u[i * ny + j]), boundary zero in both, interior of `a` set to
/// the initial value sin(x_i) sin(y_j).
struct grids {
  bench::grid_buffer<double> a;
  bench::grid_buffer<double> b;
};

/// Both buffers on the heap, written here (the serial and peer versions).
[[nodiscard]] inline grids initial(const problem& pr) {
  grids g;
  const std::size_t cells = static_cast<std::size_t>(pr.nx) * pr.ny;
  g.a = bench::grid_buffer<double>(cells);
  g.b = bench::grid_buffer<double>(cells);
  for (int i = 1; i < pr.nx - 1; ++i) {
    const double sx = std::sin(i * pr.dx);
    for (int j = 1; j < pr.ny - 1; ++j)
      g.a[static_cast<std::size_t>(i) * pr.ny + j] = sx * std::sin(j * pr.dy);
  }
  return g;
}

/// Both buffers from `rt`'s allocator, zero and untouched: the locus version writes the
/// interior in tasks (its first touch); the boundary stays the allocator's zeros.
[[nodiscard]] inline grids untouched(locus::runtime& rt, const problem& pr) {
  const std::size_t cells = static_cast<std::size_t>(pr.nx) * pr.ny;
  return {bench::grid_buffer<double>(rt, cells), bench::grid_buffer<double>(rt, cells)};
}

/// One time step for rows [lo, hi) (clipped to the interior) from `from` into `to`.
/// The only place the update is written, so every version does the same arithmetic per point.
inline void step_rows(const problem& pr, const double* from, double* to, int lo, int hi) {
  const int ny = pr.ny;
  const double cx = pr.cx;
  const double cy = pr.cy;
  if (lo < 1) lo = 1;
  if (hi > pr.nx - 1) hi = pr.nx - 1;
  for (int i = lo; i < hi; ++i) {
    const double* up = from + static_cast<std::size_t>(i - 1) * ny;
    const double* mid = up + ny;
    const double* down = mid + ny;
    double* out = to + static_cast<std::size_t>(i) * ny;
    for (int j = 1; j < ny - 1; ++j) {
      const double c = mid[j];
      out[j] = c + cx * (up[j] - 2.0 * c + down[j]) + cy * (mid[j - 1] - 2.0 * c + mid[j + 1]);
    }
  }
}

/// The buffer holding the result after nt steps (step t reads buffer t % 2, writes the other).
[[nodiscard]] inline std::span<const double> result(const problem& pr, const grids& g) {
  return pr.nt % 2 == 0 ? g.a.span() : g.b.span();
}

/// The whole computation serially, for the reference.
[[nodiscard]] inline grids solve_serial(const problem& pr) {
  grids g = initial(pr);
  for (int t = 0; t < pr.nt; ++t) {
    const bool even = t % 2 == 0;
    step_rows(pr, even ? g.a.data() : g.b.data(), even ? g.b.data() : g.a.data(), 1, pr.nx - 1);
  }
  return g;
}

/// The serial result for `pr`, computed once per size.
[[nodiscard]] inline std::span<const double> serial_reference(const problem& pr) {
  return result(pr, bench::cached_reference(pr.size, [&pr] { return solve_serial(pr); }));
}

/// Scientific notation with 3 digits (std::to_string would print 0.000000 for the errors).
[[nodiscard]] inline std::string sci(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3e", v);
  return buf;
}

/// Checks `u` against the exact solution (always) and, for parallel versions, against the
/// serial result bit for bit; fills the outcome's verdict and detail.
inline void check_grid(bench::outcome& out, const problem& pr, std::span<const double> u,
                       bool compare_to_serial) {
  const double t = pr.nt * pr.dt;
  const double decay = std::exp(-2.0 * t);
  double max_err = 0;
  for (int i = 0; i < pr.nx; ++i) {
    const double sx = std::sin(i * pr.dx);
    for (int j = 0; j < pr.ny; ++j) {
      const double e =
          std::abs(u[static_cast<std::size_t>(i) * pr.ny + j] - decay * sx * std::sin(j * pr.dy));
      if (!(e <= max_err)) max_err = e;  // also catches NaN
    }
  }
  const double sx = std::sin(pr.dx / 2);
  const double sy = std::sin(pr.dy / 2);
  const double lambda = -4.0 * sx * sx / (pr.dx * pr.dx) - 4.0 * sy * sy / (pr.dy * pr.dy);
  const double gap = std::abs(std::pow(1.0 + pr.dt * lambda, pr.nt) - decay);
  const double eps = std::numeric_limits<double>::epsilon();
  const double tol = gap + 16.0 * eps * (pr.nt + 2);
  out.verified = max_err <= tol;
  out.detail = "t=" + sci(t) + " max|u-exact|=" + sci(max_err) + " tol=" + sci(tol);
  if (compare_to_serial && out.verified) {
    const std::span<const double> ref = serial_reference(pr);
    out.verified = std::memcmp(ref.data(), u.data(), ref.size() * sizeof(double)) == 0;
    if (!out.verified) out.detail += "; differs from the serial result";
  }
}

/// A run's input: the problem and its two buffers.
struct instance {
  problem pr;
  grids g;

  /// Time step t's source and destination buffers (step t reads buffer t % 2).
  [[nodiscard]] const double* from(int t) const { return t % 2 == 0 ? g.a.data() : g.b.data(); }
  [[nodiscard]] double* to(int t) { return t % 2 == 0 ? g.b.data() : g.a.data(); }

  /// step(from, to) for every time step in order: the time loop of the versions whose step is
  /// a plain call (all but locus's coroutine).
  template <class Step>
  void for_each_step(Step step) {
    for (int t = 0; t < pr.nt; ++t)
      step(from(t), to(t));
  }
};

/// bench::measure()'s setup: parses `size` and sets the initial value.
[[nodiscard]] inline instance setup(const std::string& size) {
  instance in{parse(size), {}};
  in.g = initial(in.pr);
  return in;
}

/// bench::measure()'s verify for the parallel versions: the exact solution and the serial
/// result.
inline void check(bench::outcome& out, const instance& in) {
  check_grid(out, in.pr, result(in.pr, in.g), true);
}

/// The serial version's verify: it is the reference, so the exact solution only.
inline void check_serial(bench::outcome& out, const instance& in) {
  check_grid(out, in.pr, result(in.pr, in.g), false);
}

}  // namespace heat_kernel
