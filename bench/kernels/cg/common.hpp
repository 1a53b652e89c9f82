// cg: the NAS Parallel Benchmarks' CG kernel (NPB 3.x): inverse power iteration for the
// smallest eigenvalue of a random sparse symmetric positive definite matrix, each outer step
// solving A z = x with 25 conjugate gradient iterations. Classes S, W, A, B; small S,
// default W (A takes about a second serially here).
//
// The matrix comes from NPB's makea: for each row i a random sparse vector v_i (nonzer
// entries plus 0.5 on the diagonal position i, from NPB's randlc generator); then
// A = sum_i size_i v_i v_i^T + (rcond - shift) I with size_i = rcond^(i/n). Duplicates are
// summed in the order NPB sums them. This code is written from the NPB specification of the
// generator, not taken from NPB.
//
// Verification: NPB's own: |zeta - zeta_ref| / zeta_ref <= 1e-10 after niter outer steps.
// Parallel reductions sum in another order than the serial loop; that moves zeta by far less.
// NPB runs one untimed warm-up outer step before resetting x = 1; it does not change zeta, and
// is left out here (setup already touches all data).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "../../kernel.hpp"

namespace cg_kernel {

/// Rows per parallel block in every loop (class W has 7000 rows, about 14 blocks).
inline constexpr int block_rows = 512;

/// Inner CG iterations per outer step (NPB's cgitmax).
inline constexpr int cg_iterations = 25;

/// NPB's rcond.
inline constexpr double rcond = 0.1;

/// An NPB class: sizes and the reference zeta.
struct cg_class {
  char name = 'S';
  int na = 0;
  int nonzer = 0;
  int niter = 0;
  double shift = 0;
  double zeta_ref = 0;
};

/// Parses the class letter S, W, A or B.
[[nodiscard]] inline cg_class parse(const std::string& size) {
  if (size == "S") return {'S', 1400, 7, 15, 10.0, 8.5971775078648};
  if (size == "W") return {'W', 7000, 8, 15, 12.0, 10.362595087124};
  if (size == "A") return {'A', 14000, 11, 15, 20.0, 17.130235054029};
  if (size == "B") return {'B', 75000, 13, 75, 60.0, 22.712745482631};
  throw std::invalid_argument("cg: size must be an NPB class S, W, A or B, got '" + size + "'");
}

/// NPB's randlc: x <- a x mod 2^46, returning x / 2^46. Computed exactly in integers (NPB
/// splits into 23-bit halves in doubles to the same effect): unsigned products wrap mod 2^64,
/// and 2^46 divides 2^64, so masking the wrapped product gives a x mod 2^46.
class randlc {
 public:
  explicit randlc(std::uint64_t seed) : m_x(seed) {}
  double next() {
    constexpr std::uint64_t a = 1220703125;  // 5^13
    constexpr std::uint64_t mask = (std::uint64_t{1} << 46) - 1;
    m_x = (m_x * a) & mask;
    return static_cast<double>(m_x) * 0x1.0p-46;
  }

 private:
  std::uint64_t m_x;
};

/// The matrix in compressed sparse rows.
struct matrix {
  int n = 0;
  std::vector<int> rowstr;  ///< row j is entries [rowstr[j], rowstr[j + 1])
  std::vector<int> colidx;
  std::vector<double> a;
};

/// NPB's makea (with sprnvc, vecset and sparse): the class's matrix.
[[nodiscard]] inline matrix makea(const cg_class& c) {
  const int n = c.na;
  randlc rng(314159265);
  (void)rng.next();  // NPB's main draws once (into zeta) before makea
  int nn1 = 1;       // smallest power of two >= n (and >= 2)
  do {
    nn1 *= 2;
  } while (nn1 < n);

  // Per generating row i: the positions (0-based) and values of v_i.
  std::vector<std::vector<std::pair<int, double>>> vecs(n);
  for (int i = 0; i < n; ++i) {
    std::vector<std::pair<int, double>>& v = vecs[i];
    while (static_cast<int>(v.size()) < c.nonzer) {
      const double value = rng.next();
      const int pos = static_cast<int>(nn1 * rng.next());  // 0-based; NPB adds 1
      if (pos >= n) continue;
      if (std::any_of(v.begin(), v.end(), [pos](const auto& e) { return e.first == pos; }))
        continue;
      v.emplace_back(pos, value);
    }
    // vecset: position i gets 0.5, appended if it is not there yet.
    bool found = false;
    for (auto& e : v) {
      if (e.first == i) {
        e.second = 0.5;
        found = true;
      }
    }
    if (!found) v.emplace_back(i, 0.5);
  }

  // Outer products, in NPB's order, collected per destination row.
  std::vector<std::vector<std::pair<int, double>>> rows(n);
  const double ratio = std::pow(rcond, 1.0 / n);
  double size = 1.0;
  for (int i = 0; i < n; ++i) {
    for (const auto& [j, vj] : vecs[i]) {
      const double scale = size * vj;
      for (const auto& [jcol, vjcol] : vecs[i]) {
        double va = vjcol * scale;
        if (jcol == j && j == i) va = va + rcond - c.shift;
        rows[j].emplace_back(jcol, va);
      }
    }
    size *= ratio;
  }

  // Sort each row by column, keeping generation order among duplicates, and sum them.
  matrix m;
  m.n = n;
  m.rowstr.assign(n + 1, 0);
  for (int j = 0; j < n; ++j) {
    auto& r = rows[j];
    std::stable_sort(r.begin(), r.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
    for (std::size_t k = 0; k < r.size();) {
      const int col = r[k].first;
      double sum = 0.0;
      for (; k < r.size() && r[k].first == col; ++k)
        sum += r[k].second;
      m.colidx.push_back(col);
      m.a.push_back(sum);
    }
    m.rowstr[j + 1] = static_cast<int>(m.a.size());
    std::vector<std::pair<int, double>>().swap(r);
  }
  return m;
}

/// The CG work vectors (NPB's names).
struct vectors {
  std::vector<double> x, z, p, q, r;
  explicit vectors(int n) : x(n, 1.0), z(n), p(n), q(n), r(n) {}
};

/// Raw pointers, what the parallel loops capture.
struct state {
  const int* rowstr;
  const int* colidx;
  const double* a;
  double* x;
  double* z;
  double* p;
  double* q;
  double* r;
  int n;
};

[[nodiscard]] inline state state_of(const matrix& m, vectors& v) {
  return state{m.rowstr.data(), m.colidx.data(), m.a.data(), v.x.data(), v.z.data(),
               v.p.data(),      v.q.data(),      v.r.data(), m.n};
}

// Block kernels over rows [lo, hi). Each returns its block's part of a sum; every version
// composes the same kernels, only the loops around them differ.

/// CG start: q = z = 0, r = p = x; returns sum r.r.
inline double start_block(const state& s, int lo, int hi) {
  double sum = 0;
  for (int j = lo; j < hi; ++j) {
    s.q[j] = 0;
    s.z[j] = 0;
    s.r[j] = s.x[j];
    s.p[j] = s.x[j];
    sum += s.x[j] * s.x[j];
  }
  return sum;
}

/// y = A v on rows [lo, hi); returns sum w.y (w = v for p.q, NPB's d).
inline double multiply_block(const state& s, const double* v, double* y, const double* w, int lo,
                             int hi) {
  double sum = 0;
  for (int j = lo; j < hi; ++j) {
    double d = 0;
    for (int k = s.rowstr[j]; k < s.rowstr[j + 1]; ++k)
      d += s.a[k] * v[s.colidx[k]];
    y[j] = d;
    sum += w[j] * d;
  }
  return sum;
}

/// z += alpha p, r -= alpha q; returns sum r.r (the new rho).
inline double step_block(const state& s, double alpha, int lo, int hi) {
  double sum = 0;
  for (int j = lo; j < hi; ++j) {
    s.z[j] += alpha * s.p[j];
    s.r[j] -= alpha * s.q[j];
    sum += s.r[j] * s.r[j];
  }
  return sum;
}

/// p = r + beta p.
inline void direction_block(const state& s, double beta, int lo, int hi) {
  for (int j = lo; j < hi; ++j)
    s.p[j] = s.r[j] + beta * s.p[j];
}

/// r = A z; returns sum (x - r)^2, the square of NPB's residual norm.
inline double residual_block(const state& s, int lo, int hi) {
  double sum = 0;
  for (int j = lo; j < hi; ++j) {
    double d = 0;
    for (int k = s.rowstr[j]; k < s.rowstr[j + 1]; ++k)
      d += s.a[k] * s.z[s.colidx[k]];
    s.r[j] = d;
    const double e = s.x[j] - d;
    sum += e * e;
  }
  return sum;
}

/// Sums x.z and z.z together (NPB's norm_temp1, norm_temp2).
struct norms {
  double xz = 0;
  double zz = 0;
  norms operator+(const norms& o) const { return {xz + o.xz, zz + o.zz}; }
};

inline norms norms_block(const state& s, int lo, int hi) {
  norms n;
  for (int j = lo; j < hi; ++j) {
    n.xz += s.x[j] * s.z[j];
    n.zz += s.z[j] * s.z[j];
  }
  return n;
}

/// x = scale z.
inline void normalize_block(const state& s, double scale, int lo, int hi) {
  for (int j = lo; j < hi; ++j)
    s.x[j] = scale * s.z[j];
}

/// A run's input: the class, its matrix and the work vectors.
struct instance {
  cg_class c;
  matrix m;
  vectors v;

  [[nodiscard]] state pointers() { return state_of(m, v); }
};

/// bench::measure()'s setup: parses the class and builds its matrix (NPB's untimed makea).
[[nodiscard]] inline instance setup(const std::string& size) {
  const cg_class c = parse(size);
  matrix m = makea(c);
  const int n = m.n;
  return instance{c, std::move(m), vectors(n)};
}

/// What a run computes: zeta after the last outer step, and that step's residual norm.
struct answer {
  double zeta = 0;
  double rnorm = 0;
};

/// Checks zeta as NPB does; fills the verdict and detail.
inline void check(bench::outcome& out, const instance& in, const answer& got) {
  const cg_class& c = in.c;
  const double zeta = got.zeta;
  const double rnorm = got.rnorm;
  const double err = std::abs(zeta - c.zeta_ref) / c.zeta_ref;
  out.verified = err <= 1e-10;
  char buf[160];
  std::snprintf(buf, sizeof buf, "class %c zeta=%.13f (ref %.13f, rel err %.1e) ||r||=%.3e", c.name,
                zeta, c.zeta_ref, err, rnorm);
  out.detail = buf;
}

}  // namespace cg_kernel
