// fdtd: PolyBench's fdtd-2d (2-D finite-difference time domain, fields ex, ey, hz on an
// NX x NY grid, TMAX steps, PolyBench's initial values and updates). Each step is two
// parallel phases over rows: (1) ey and ex, which both read only hz, (2) hz, which reads the
// new ex and ey. Size "NXxNYxTMAX" (PolyBench order is TMAX/NX/NY): small 60x80x40 (PolyBench
// SMALL), default 1000x1200x100 (LARGE's grid, 100 of its 500 steps).
//
// Verification: bit-for-bit equality of all three fields with PolyBench's loop nest written
// out plainly (four loops per step, in PolyBench's order), computed once per size. Every
// point gets the same arithmetic in both, so any difference is a bug.
#pragma once

#include <charconv>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "../../kernel.hpp"
#include "../dims.hpp"
#include "../reference_cache.hpp"

namespace fdtd_kernel {

/// Rows per parallel block (16 rows of 1200 doubles, three fields: 450 KiB touched).
inline constexpr int block_rows = 16;

/// One fdtd-2d problem.
struct problem {
  int nx = 0;        ///< rows
  int ny = 0;        ///< columns
  int tmax = 0;      ///< time steps
  std::string size;  ///< the size string it was parsed from
};

/// Parses "NXxNYxTMAX" with NX, NY in [2, 16384] and TMAX in [1, 100000].
[[nodiscard]] inline problem parse(const std::string& size) {
  std::array<int, 3> v{};
  const bool ok = bench::parse_dims(size, v) && v[0] >= 2 && v[0] <= 16384 && v[1] >= 2 &&
                  v[1] <= 16384 && v[2] >= 1 && v[2] <= 100000;
  if (!ok) {
    throw std::invalid_argument(
        "fdtd: size must be NXxNYxTMAX with NX, NY in [2, 16384] and TMAX "
        "in [1, 100000] (e.g. 60x80x40), got '" +
        size + "'");
  }
  return problem{v[0], v[1], v[2], size};
}

/// The fields, row-major ([i * ny + j]), and the source term fict[t].
struct fields {
  std::vector<double> ex;
  std::vector<double> ey;
  std::vector<double> hz;
  std::vector<double> fict;
};

/// PolyBench's init_array.
[[nodiscard]] inline fields initial(const problem& pr) {
  fields f;
  const std::size_t cells = static_cast<std::size_t>(pr.nx) * pr.ny;
  f.ex.resize(cells);
  f.ey.resize(cells);
  f.hz.resize(cells);
  f.fict.resize(pr.tmax);
  for (int t = 0; t < pr.tmax; ++t)
    f.fict[t] = static_cast<double>(t);
  for (int i = 0; i < pr.nx; ++i) {
    for (int j = 0; j < pr.ny; ++j) {
      const std::size_t at = static_cast<std::size_t>(i) * pr.ny + j;
      f.ex[at] = static_cast<double>(i) * (j + 1) / pr.nx;
      f.ey[at] = static_cast<double>(i) * (j + 2) / pr.ny;
      f.hz[at] = static_cast<double>(i) * (j + 3) / pr.nx;
    }
  }
  return f;
}

/// Raw pointers to the fields, what the parallel phases capture.
struct view {
  double* ex;
  double* ey;
  double* hz;
  const double* fict;
  int nx;
  int ny;
};

[[nodiscard]] inline view view_of(fields& f, const problem& pr) {
  return view{f.ex.data(), f.ey.data(), f.hz.data(), f.fict.data(), pr.nx, pr.ny};
}

/// Phase 1 of step t for rows [lo, hi): ey (row 0 takes the source) and ex.
inline void electric_rows(const view& v, int t, int lo, int hi) {
  const int ny = v.ny;
  for (int i = lo; i < hi; ++i) {
    double* ey = v.ey + static_cast<std::size_t>(i) * ny;
    double* ex = v.ex + static_cast<std::size_t>(i) * ny;
    const double* hz = v.hz + static_cast<std::size_t>(i) * ny;
    if (i == 0) {
      for (int j = 0; j < ny; ++j)
        ey[j] = v.fict[t];
    } else {
      const double* hz_up = hz - ny;
      for (int j = 0; j < ny; ++j)
        ey[j] = ey[j] - 0.5 * (hz[j] - hz_up[j]);
    }
    for (int j = 1; j < ny; ++j)
      ex[j] = ex[j] - 0.5 * (hz[j] - hz[j - 1]);
  }
}

/// Phase 2 for rows [lo, hi) (clipped to nx - 1): hz from the new ex and ey.
inline void magnetic_rows(const view& v, int lo, int hi) {
  const int ny = v.ny;
  if (hi > v.nx - 1) hi = v.nx - 1;
  for (int i = lo; i < hi; ++i) {
    double* hz = v.hz + static_cast<std::size_t>(i) * ny;
    const double* ex = v.ex + static_cast<std::size_t>(i) * ny;
    const double* ey = v.ey + static_cast<std::size_t>(i) * ny;
    const double* ey_down = ey + ny;
    for (int j = 0; j < ny - 1; ++j) {
      hz[j] = hz[j] - 0.7 * (ex[j + 1] - ex[j] + ey_down[j] - ey[j]);
    }
  }
}

/// PolyBench's kernel_fdtd_2d loop nest, written plainly: the reference.
[[nodiscard]] inline fields solve_reference(const problem& pr) {
  fields f = initial(pr);
  const std::size_t nx = pr.nx;
  const std::size_t ny = pr.ny;
  double* ex = f.ex.data();
  double* ey = f.ey.data();
  double* hz = f.hz.data();
  for (int t = 0; t < pr.tmax; ++t) {
    for (std::size_t j = 0; j < ny; ++j)
      ey[j] = f.fict[t];
    for (std::size_t i = 1; i < nx; ++i) {
      for (std::size_t j = 0; j < ny; ++j) {
        ey[i * ny + j] = ey[i * ny + j] - 0.5 * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
      }
    }
    for (std::size_t i = 0; i < nx; ++i) {
      for (std::size_t j = 1; j < ny; ++j) {
        ex[i * ny + j] = ex[i * ny + j] - 0.5 * (hz[i * ny + j] - hz[i * ny + j - 1]);
      }
    }
    for (std::size_t i = 0; i + 1 < nx; ++i) {
      for (std::size_t j = 0; j + 1 < ny; ++j) {
        hz[i * ny + j] = hz[i * ny + j] - 0.7 * (ex[i * ny + j + 1] - ex[i * ny + j] +
                                                 ey[(i + 1) * ny + j] - ey[i * ny + j]);
      }
    }
  }
  return f;
}

/// The reference for `pr`, computed once per size.
[[nodiscard]] inline const fields& reference(const problem& pr) {
  return bench::cached_reference(pr.size, [&pr] { return solve_reference(pr); });
}

/// A run's input: the problem and its fields.
struct instance {
  problem pr;
  fields f;

  [[nodiscard]] view pointers() { return view_of(f, pr); }
};

/// bench::measure()'s setup: parses `size` and sets PolyBench's initial values.
[[nodiscard]] inline instance setup(const std::string& size) {
  instance in{parse(size), {}};
  in.f = initial(in.pr);
  return in;
}

/// Compares the fields with the reference bit for bit; fills the verdict and detail.
inline void check(bench::outcome& out, const instance& in) {
  const problem& pr = in.pr;
  const fields& f = in.f;
  const fields& ref = reference(pr);
  const std::size_t bytes = ref.hz.size() * sizeof(double);
  const bool same = std::memcmp(f.ex.data(), ref.ex.data(), bytes) == 0 &&
                    std::memcmp(f.ey.data(), ref.ey.data(), bytes) == 0 &&
                    std::memcmp(f.hz.data(), ref.hz.data(), bytes) == 0;
  double sum = 0;
  for (double h : f.hz)
    sum += h;
  out.verified = same;
  char buf[96];
  std::snprintf(buf, sizeof buf, "sum(hz)=%.12e", sum);
  out.detail = buf;
  if (!same) out.detail += "; fields differ from PolyBench's loop nest";
}

}  // namespace fdtd_kernel
