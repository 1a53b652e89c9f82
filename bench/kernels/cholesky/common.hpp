// cholesky: the tiled right-looking Cholesky factorisation A = L Lᵀ of a symmetric positive
// definite n x n matrix of doubles, cut into b x b tiles, the tiles' work done by OpenBLAS
// (single-threaded: the runtime is what runs tiles in parallel). For each step k:
//
//   potrf  A[k][k] := L[k][k]                       (dpotrf, lower)
//   trsm   A[i][k] := A[i][k] L[k][k]^-T    i > k    (dtrsm)
//   syrk   A[i][i] -= A[i][k] A[i][k]ᵀ       i > k    (dsyrk, lower)
//   gemm   A[i][j] -= A[i][k] A[j][k]ᵀ       i > j > k (dgemm)
//
// Only the lower tiles are stored and touched. Each tile is column-major with leading dimension
// b, one tile after another, so a tile is one contiguous block (what a task runtime registers).
// The blas runtime factors the whole column-major matrix with one threaded dpotrf instead.
//
// The input: A = M Mᵀ + n I, M an n x 64 matrix of uniform [-1, 1) entries from a seeded LCG
// (SPD, smallest eigenvalue >= n). The check (untimed): ‖A − L Lᵀ‖_F / ‖A‖_F < 1e-12 n, the
// product formed tile by tile with threaded OpenBLAS. The detail reports GFLOP/s as n³/3 flops
// over the timed seconds. Size "NxB": order N, tile size B, B divides N.
#pragma once

#include <cblas.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "../../kernel.hpp"
#include "../dims.hpp"

extern "C" {
// LAPACK's Cholesky, as OpenBLAS exports it (no LAPACKE needed).
void dpotrf_(const char* uplo, const int* n, double* a, const int* lda, int* info);
// OpenBLAS's thread count for the calls that follow (declared in its cblas.h too).
void openblas_set_num_threads(int num_threads);
}

namespace cholesky_kernel {

inline constexpr std::size_t k_rank = 64;  ///< columns of M in A = M Mᵀ + n I

struct dims {
  std::size_t n = 0;  ///< matrix order
  std::size_t b = 0;  ///< tile order
  [[nodiscard]] std::size_t tiles() const { return n / b; }
};

[[nodiscard]] inline dims parse_size(const std::string& size) {
  std::array<long long, 2> nb{};
  if (!bench::parse_dims(size, nb) || nb[0] < 1 || nb[0] > 32768 || nb[1] < 1 || nb[1] > nb[0] ||
      nb[0] % nb[1] != 0) {
    throw std::invalid_argument(
        "cholesky: size must be NxB, matrix order 1 <= N <= 32768 and tile order B dividing N "
        "(e.g. 2048x256), got '" +
        size + "'");
  }
  return {static_cast<std::size_t>(nb[0]), static_cast<std::size_t>(nb[1])};
}

/// The lower tiles of an n x n matrix, tile (i, j) column-major with leading dimension b. The
/// storage holds the whole grid but is left uninitialised, so the upper tiles, never touched,
/// cost address space and no memory.
class tiled_matrix {
 public:
  tiled_matrix() = default;
  explicit tiled_matrix(dims d)
      : m_d(d), m_data(new double[d.n * d.n]) {}  // NOLINT: uninitialised on purpose

  [[nodiscard]] const dims& size() const { return m_d; }
  [[nodiscard]] double* tile(std::size_t i, std::size_t j) {
    return m_data.get() + (i * m_d.tiles() + j) * m_d.b * m_d.b;
  }
  [[nodiscard]] const double* tile(std::size_t i, std::size_t j) const {
    return m_data.get() + (i * m_d.tiles() + j) * m_d.b * m_d.b;
  }

 private:
  dims m_d;
  std::unique_ptr<double[]> m_data;
};

/// A read-only look at a factored matrix, tiled or whole column-major (the blas runtime).
struct factor_view {
  const double* data = nullptr;
  dims d;
  bool tiled = true;

  [[nodiscard]] const double* tile(std::size_t i, std::size_t j) const {
    return tiled ? data + (i * d.tiles() + j) * d.b * d.b : data + j * d.b * d.n + i * d.b;
  }
  [[nodiscard]] int ld() const { return static_cast<int>(tiled ? d.b : d.n); }
};

// ------------------------------------------------------------------- the tile kernels

inline void potrf(double* akk, std::size_t b) {
  const char lower = 'L';
  const int n = static_cast<int>(b);
  int info = 0;
  dpotrf_(&lower, &n, akk, &n, &info);  // info > 0 (not SPD) shows up in the check as NaNs
}

inline void trsm(const double* akk, double* aik, std::size_t b) {
  const int n = static_cast<int>(b);
  cblas_dtrsm(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, n, n, 1.0, akk, n,
              aik, n);
}

inline void syrk(const double* aik, double* aii, std::size_t b) {
  const int n = static_cast<int>(b);
  cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, n, n, -1.0, aik, n, 1.0, aii, n);
}

inline void gemm(const double* aik, const double* ajk, double* aij, std::size_t b) {
  const int n = static_cast<int>(b);
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, n, n, n, -1.0, aik, n, ajk, n, 1.0, aij, n);
}

// ---------------------------------------------------------------------- the task list

/// One tile operation of the factorisation. It writes tile (i, j) and reads tiles (i, k) and
/// (j, k) as its kind says: potrf (k, k, k) reads nothing else; trsm (i, k, k) reads (k, k);
/// syrk (i, i, k) reads (i, k); gemm (i, j, k) reads (i, k) and (j, k).
struct tile_task {
  enum class op : std::uint8_t { potrf, trsm, syrk, gemm };
  op kind;
  std::size_t i, j, k;
};

/// Calls f(task) for every task of an nt x nt tile grid, in an order the serial loop may run.
template <class F>
void for_each_task(std::size_t nt, F&& f) {
  using op = tile_task::op;
  for (std::size_t k = 0; k < nt; ++k) {
    f(tile_task{op::potrf, k, k, k});
    for (std::size_t i = k + 1; i < nt; ++i)
      f(tile_task{op::trsm, i, k, k});
    for (std::size_t i = k + 1; i < nt; ++i) {
      f(tile_task{op::syrk, i, i, k});
      for (std::size_t j = k + 1; j < i; ++j)
        f(tile_task{op::gemm, i, j, k});
    }
  }
}

/// Runs one task on `a`.
inline void run_task(tiled_matrix& a, const tile_task& t) {
  const std::size_t b = a.size().b;
  switch (t.kind) {
    case tile_task::op::potrf:
      potrf(a.tile(t.k, t.k), b);
      break;
    case tile_task::op::trsm:
      trsm(a.tile(t.k, t.k), a.tile(t.i, t.k), b);
      break;
    case tile_task::op::syrk:
      syrk(a.tile(t.i, t.k), a.tile(t.i, t.i), b);
      break;
    case tile_task::op::gemm:
      gemm(a.tile(t.i, t.k), a.tile(t.j, t.k), a.tile(t.i, t.j), b);
      break;
  }
}

/// The task list and, for each task, the tasks it waits for: the last earlier writer of each
/// tile it reads or writes. That is the whole order: a tile read by a task is final by then
/// (L[k][k] after potrf, L[i][k] after trsm) and never written again, so no task has to wait
/// for an earlier reader (no write-after-read edges exist).
struct task_graph {
  std::vector<tile_task> tasks;
  std::vector<std::vector<std::size_t>> preds;
};

[[nodiscard]] inline task_graph make_task_graph(std::size_t nt) {
  task_graph g;
  constexpr std::size_t none = ~std::size_t{0};
  std::vector<std::size_t> last_writer(nt * nt, none);
  for_each_task(nt, [&](const tile_task& t) {
    std::vector<std::size_t> preds;
    auto after = [&](std::size_t i, std::size_t j) {
      const std::size_t w = last_writer[i * nt + j];
      if (w != none && std::find(preds.begin(), preds.end(), w) == preds.end()) preds.push_back(w);
    };
    after(t.i, t.j);  // the tile it writes
    switch (t.kind) {
      case tile_task::op::potrf:
        break;
      case tile_task::op::trsm:
        after(t.k, t.k);
        break;
      case tile_task::op::syrk:
        after(t.i, t.k);
        break;
      case tile_task::op::gemm:
        after(t.i, t.k);
        after(t.j, t.k);
        break;
    }
    last_writer[t.i * nt + t.j] = g.tasks.size();
    g.tasks.push_back(t);
    g.preds.push_back(std::move(preds));
  });
  return g;
}

// ---------------------------------------------------------------------- input and check

/// A run's input: the matrix, kept for the check, and the working copy factored in place.
struct instance {
  dims d;
  tiled_matrix a;     ///< A, lower tiles
  tiled_matrix work;  ///< tiled runtimes: a copy of A, L after the run
  /// blas runtime: A column-major, L in its lower part after the run. Only the lower part is
  /// written, so, like the tiles, the upper part costs no memory.
  std::unique_ptr<double[]> whole;
};

[[nodiscard]] inline unsigned hardware_threads() {
  return std::max(1u, std::thread::hardware_concurrency());
}

/// Builds A = M Mᵀ + n I tile by tile.
[[nodiscard]] inline tiled_matrix make_input(dims d) {
  std::vector<double> m(d.n * k_rank);  // column-major, leading dimension n
  std::uint64_t x = 0x853C49E6748FEA9Bull;
  for (double& v : m) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    v = static_cast<double>(x >> 11) / 4503599627370496.0 - 1.0;  // [-1, 1)
  }
  tiled_matrix a(d);
  const int b = static_cast<int>(d.b), n = static_cast<int>(d.n), r = static_cast<int>(k_rank);
  for (std::size_t i = 0; i < d.tiles(); ++i) {
    for (std::size_t j = 0; j <= i; ++j) {
      double* t = a.tile(i, j);
      cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, b, b, r, 1.0, &m[i * d.b], n,
                  &m[j * d.b], n, 0.0, t, b);
      if (i == j) {
        for (std::size_t c = 0; c < d.b; ++c)
          t[c * d.b + c] += static_cast<double>(d.n);
      }
    }
  }
  return a;
}

/// Setup of the tiled runtimes: A and a tiled working copy; OpenBLAS single-threaded.
[[nodiscard]] inline instance setup_tiled(const std::string& size) {
  instance in;
  in.d = parse_size(size);
  openblas_set_num_threads(static_cast<int>(hardware_threads()));
  in.a = make_input(in.d);
  in.work = tiled_matrix(in.d);
  const std::size_t nt = in.d.tiles(), tile = in.d.b * in.d.b;
  for (std::size_t i = 0; i < nt; ++i) {
    for (std::size_t j = 0; j <= i; ++j)
      std::copy_n(in.a.tile(i, j), tile, in.work.tile(i, j));
  }
  openblas_set_num_threads(1);
  return in;
}

/// Setup of the blas runtime: A and a whole column-major copy (lower part); OpenBLAS on
/// `threads` threads.
[[nodiscard]] inline instance setup_whole(const std::string& size, unsigned threads) {
  instance in;
  in.d = parse_size(size);
  openblas_set_num_threads(static_cast<int>(hardware_threads()));
  in.a = make_input(in.d);
  in.whole.reset(new double[in.d.n * in.d.n]);  // NOLINT: uninitialised on purpose
  const std::size_t nt = in.d.tiles(), b = in.d.b;
  for (std::size_t i = 0; i < nt; ++i) {
    for (std::size_t j = 0; j <= i; ++j) {
      const double* t = in.a.tile(i, j);
      for (std::size_t c = 0; c < b; ++c)
        std::copy_n(t + c * b, b, in.whole.get() + (j * b + c) * in.d.n + i * b);
    }
  }
  openblas_set_num_threads(static_cast<int>(threads));
  return in;
}

/// The lower triangle of diagonal tile l (ld `ld`), as a b x b tile with zeros above.
[[nodiscard]] inline std::vector<double> lower_of(const double* l, int ld, std::size_t b) {
  std::vector<double> out(b * b, 0.0);
  for (std::size_t c = 0; c < b; ++c) {
    for (std::size_t r = c; r < b; ++r)
      out[c * b + r] = l[c * static_cast<std::size_t>(ld) + r];
  }
  return out;
}

/// ‖A − L Lᵀ‖_F / ‖A‖_F over the whole symmetric matrix, from the lower tiles.
[[nodiscard]] inline double relative_residual(const tiled_matrix& a, const factor_view& l) {
  const dims d = a.size();
  const std::size_t nt = d.tiles(), b = d.b;
  const int bi = static_cast<int>(b), ld = l.ld();
  double err2 = 0, norm2 = 0;
  std::vector<double> r(b * b);
  for (std::size_t j = 0; j < nt; ++j) {
    const std::vector<double> ljj = lower_of(l.tile(j, j), ld, b);
    for (std::size_t i = j; i < nt; ++i) {
      std::copy_n(a.tile(i, j), b * b, r.data());
      for (std::size_t k = 0; k < j; ++k) {
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, bi, bi, bi, -1.0, l.tile(i, k), ld,
                    l.tile(j, k), ld, 1.0, r.data(), bi);
      }
      const double* lij = i == j ? ljj.data() : l.tile(i, j);
      cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, bi, bi, bi, -1.0, lij, i == j ? bi : ld,
                  ljj.data(), bi, 1.0, r.data(), bi);
      const double weight = i == j ? 1.0 : 2.0;  // an off-diagonal tile stands for its mirror too
      const double* at = a.tile(i, j);
      for (std::size_t e = 0; e < b * b; ++e) {
        err2 += weight * r[e] * r[e];
        norm2 += weight * at[e] * at[e];
      }
    }
  }
  return std::sqrt(err2 / norm2);
}

/// Checks the factor `l` of in.a; reports GFLOP/s and the residual.
inline void check_factor(bench::outcome& out, const instance& in, const factor_view& l) {
  openblas_set_num_threads(static_cast<int>(hardware_threads()));
  const double residual = relative_residual(in.a, l);
  const double limit = 1e-12 * static_cast<double>(in.d.n);
  out.verified = residual < limit;  // false for NaN too
  const double n = static_cast<double>(in.d.n);
  const double gflops = out.seconds > 0 ? n * n * n / 3.0 / out.seconds * 1e-9 : 0;
  char text[160];
  std::snprintf(text, sizeof text, "n=%zu tile=%zu, %.2f GFLOP/s, residual %.1e%s", in.d.n, in.d.b,
                gflops, residual, out.verified ? "" : " (over the limit 1e-12 n)");
  out.detail = text;
}

/// bench::measure()'s check for the tiled runtimes.
inline void check_tiled(bench::outcome& out, const instance& in) {
  check_factor(out, in, factor_view{in.work.tile(0, 0), in.d, true});
}

/// bench::measure()'s check for the blas runtime.
inline void check_whole(bench::outcome& out, const instance& in) {
  check_factor(out, in, factor_view{in.whole.get(), in.d, false});
}

}  // namespace cholesky_kernel
