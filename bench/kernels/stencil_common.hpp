// bench/kernels/stencil_common.hpp — what the stencil kernels (stencil9, stencil3d6,
// stencil3d25) share: the problem, the initial values, the serial reference and the check.
//
// A stencil kernel is Jacobi on two grids: step t reads grid t % 2 and writes the other, every
// interior point becoming a fixed convex combination of the points of its stencil (weights
// >= 0 summing to 1). Points within `radius` of a face are the boundary: set once, never
// written, the same in both grids. The grid is split over its outermost dimension (rows of a
// 2-D grid, planes of a 3-D one: "planes" below), interior planes [radius, n0 - radius).
// A kernel is a Spec:
//   struct spec {
//     static constexpr const char* name;   // "stencil9"
//     static constexpr int dims, radius;   // 2 or 3; 1 or 4
//     static void planes(const problem&, const double* from, double* to, int lo, int hi);
//   };
// where planes() updates the interior points of planes [lo, hi) and is the only place the
// update is written (so every version does the same arithmetic per point).
//
// Verification: bit-for-bit equality with the serial run (same arithmetic per point, any
// order of planes), computed once per size; and, independently of it, every value must stay in
// [0, 1]: the initial values are in [0, 1) and a convex combination cannot leave that range
// (1 included, for rounding), so a NaN, a torn value or an unwritten garbage cell shows up
// even in the serial version.
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>

#include "../kernel.hpp"
#include "dims.hpp"
#include "grid_buffer.hpp"
#include "reference_cache.hpp"

namespace stencil {

/// Planes per leaf of the recursive split (LAWS's leaf cutoff: 8 rows).
inline constexpr int leaf_planes = 8;

/// One stencil problem: grid n0 x n1 (x n2), steps.
struct problem {
  int n0 = 0;        ///< planes (the split dimension), boundary included
  int n1 = 0;        ///< second dimension
  int n2 = 1;        ///< third dimension (1 for a 2-D grid)
  int steps = 0;     ///< time steps
  int radius = 1;    ///< boundary width
  std::string size;  ///< the size string it was parsed from

  [[nodiscard]] std::size_t plane() const noexcept { return static_cast<std::size_t>(n1) * n2; }
  [[nodiscard]] std::size_t cells() const noexcept { return plane() * n0; }
  /// The index of point (i, j, k).
  [[nodiscard]] std::size_t at(int i, int j, int k = 0) const noexcept {
    return (static_cast<std::size_t>(i) * n1 + j) * n2 + k;
  }
};

/// Parses "N0xN1xSTEPS" (dims 2) or "N0xN1xN2xSTEPS" (dims 3): every extent at least
/// 2 radius + 1 (one interior point) and at most 65536, at most 2^28 cells, STEPS in
/// [1, 100000].
[[nodiscard]] inline problem parse(const std::string& size, const char* name, int dims,
                                   int radius) {
  std::array<int, 4> v{};
  std::array<int, 3> v2{};
  bool ok = false;
  problem pr;
  pr.radius = radius;
  if (dims == 3) {
    ok = bench::parse_dims(size, v);
    pr.n0 = v[0], pr.n1 = v[1], pr.n2 = v[2], pr.steps = v[3];
  } else {
    ok = bench::parse_dims(size, v2);
    pr.n0 = v2[0], pr.n1 = v2[1], pr.n2 = 1, pr.steps = v2[2];
  }
  const int least = 2 * radius + 1;
  const auto extent_ok = [least](int n) { return n >= least && n <= 65536; };
  ok = ok && extent_ok(pr.n0) && extent_ok(pr.n1) && (dims == 2 || extent_ok(pr.n2)) &&
       pr.steps >= 1 && pr.steps <= 100000;
  if (ok) ok = pr.cells() <= (std::size_t{1} << 28);
  if (!ok) {
    const std::string form = dims == 3 ? "N0xN1xN2xSTEPS" : "N0xN1xSTEPS";
    throw std::invalid_argument(std::string(name) + ": size must be " + form +
                                " with every extent in [" + std::to_string(least) +
                                ", 65536], at most 2^28 points and STEPS in [1, 100000], got '" +
                                size + "'");
  }
  pr.size = size;
  return pr;
}

/// The initial value of point `index`, in [0, 1): splitmix64 of the index, so that any task
/// can write any plane without a sequential generator.
[[nodiscard]] inline double initial_value(std::size_t index) noexcept {
  std::uint64_t z = index + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * 0x1.0p-53;
}

/// Writes the initial values of planes [lo, hi) into both grids (boundary included).
inline void init_planes(const problem& pr, double* a, double* b, int lo, int hi) {
  const std::size_t first = static_cast<std::size_t>(lo) * pr.plane();
  const std::size_t last = static_cast<std::size_t>(hi) * pr.plane();
  for (std::size_t x = first; x < last; ++x) {
    a[x] = initial_value(x);
    b[x] = a[x];
  }
}

/// A run's input: the problem and its two grids.
struct instance {
  problem pr;
  bench::grid_buffer<double> a;
  bench::grid_buffer<double> b;

  /// Step t's source and destination (step t reads grid t % 2).
  [[nodiscard]] const double* from(int t) const { return t % 2 == 0 ? a.data() : b.data(); }
  [[nodiscard]] double* to(int t) { return t % 2 == 0 ? b.data() : a.data(); }
  /// The grid holding the result after all steps.
  [[nodiscard]] std::span<const double> result() const {
    return pr.steps % 2 == 0 ? a.span() : b.span();
  }
};

/// bench::measure()'s setup for the heap versions: both grids filled on this thread.
template <class Spec>
[[nodiscard]] instance setup(const std::string& size) {
  instance in{parse(size, Spec::name, Spec::dims, Spec::radius), {}, {}};
  in.a = bench::grid_buffer<double>(in.pr.cells());
  in.b = bench::grid_buffer<double>(in.pr.cells());
  init_planes(in.pr, in.a.data(), in.b.data(), 0, in.pr.n0);
  return in;
}

/// Every step over all interior planes, in order.
template <class Spec>
void solve_serial(instance& in) {
  for (int t = 0; t < in.pr.steps; ++t)
    Spec::planes(in.pr, in.from(t), in.to(t), in.pr.radius, in.pr.n0 - in.pr.radius);
}

/// The serial result for `size`, computed once per size.
template <class Spec>
[[nodiscard]] const instance& reference(const std::string& size) {
  return bench::cached_reference(size, [&size] {
    instance in = setup<Spec>(size);
    solve_serial<Spec>(in);
    return in;
  });
}

/// Fills the verdict: every value in [0, 1], and (compare_to_serial) equal to the serial run
/// bit for bit.
template <class Spec>
void check_grid(bench::outcome& out, const instance& in, bool compare_to_serial) {
  const std::span<const double> u = in.result();
  std::size_t outside = 0;
  double sum = 0;
  for (const double v : u) {
    if (!(v >= 0.0 && v <= 1.0)) ++outside;  // also NaN
    sum += v;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "sum=%.12e", sum);
  out.detail = buf;
  out.verified = outside == 0;
  if (outside != 0) out.detail += "; " + std::to_string(outside) + " values outside [0, 1]";
  if (compare_to_serial && out.verified) {
    const std::span<const double> ref = reference<Spec>(in.pr.size).result();
    std::size_t differ = 0;
    for (std::size_t x = 0; x < u.size(); ++x)
      differ += std::memcmp(&u[x], &ref[x], sizeof(double)) != 0 ? 1 : 0;
    out.verified = differ == 0;
    if (differ != 0) out.detail += "; " + std::to_string(differ) + " points differ from serial";
  }
}

/// bench::measure()'s verify for the parallel versions.
template <class Spec>
void check(bench::outcome& out, const instance& in) {
  check_grid<Spec>(out, in, true);
}

/// The serial version's verify (it is the reference): the range only.
template <class Spec>
void check_serial(bench::outcome& out, const instance& in) {
  check_grid<Spec>(out, in, false);
}

}  // namespace stencil
