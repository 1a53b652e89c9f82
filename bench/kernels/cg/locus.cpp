// cg, locus: every vector loop is a split over blocks of rows (block_rows, parallel_reduce's
// tree, so the sums are the same bit for bit), awaited inside one task that runs NPB's outer
// loop. Every task declares the rows it reads and writes (locus_blocks.hpp): its slice of each
// vector, and for a product its rows of A (row pointers, column indices, values) and the whole
// vector it multiplies. The entries of a block of rows pick columns all over that vector: a
// leaf has 292 to 512 rows and at least 19000 entries (classes S to B), whose columns touch
// every 64-byte line of the vector in classes S, W and A and at least 99.4% of them in B
// (counted once, offline), so the whole vector is what it reads. The
// serial steps between the loops (scalars only) touch no arrays. The setup copies the matrix
// and writes the vectors' initial values in tasks of the same blocks, untimed: they
// first-touch (home) every array the loops read.
#include <locus/locus.hpp>

#include <cmath>

#include "../../kernel.hpp"
#include "../locus_blocks.hpp"
#include "common.hpp"

namespace {

using namespace cg_kernel;
using bench::ranges;
using locus::access;

/// Entries [lo, hi) of vector v.
template <std::size_t N>
void slice(ranges<N>& r, const double* v, int lo, int hi, access mode) {
  r.add(v + lo, static_cast<std::size_t>(hi - lo), mode);
}

/// Rows [lo, hi) of A: their row pointers and their entries. Reading the rows reads hi - lo + 1
/// pointers; writing them writes hi - lo, and the last rows also rowstr[n]. `bounds` gives
/// where the rows' entries lie (s.rowstr; while A is being written, the source's row pointers:
/// reading s.rowstr then would race with the tasks that write it).
template <std::size_t N>
void rows_of_a(ranges<N>& r, const state& s, int lo, int hi, access mode, const int* bounds) {
  const bool last = mode == access::read || hi == s.n;
  r.add(s.rowstr + lo, static_cast<std::size_t>(hi - lo + (last ? 1 : 0)), mode);
  const auto k0 = static_cast<std::size_t>(bounds[lo]);
  const auto k1 = static_cast<std::size_t>(bounds[hi]);
  r.add(s.colidx + k0, k1 - k0, mode);
  r.add(s.a + k0, k1 - k0, mode);
}

/// sum over blocks of map(lo, hi), each block's task declaring declare(lo, hi).
template <class T, class Map, class Declare>
locus::task<T> reduce(state s, Map map, Declare declare) {
  const auto combine = [](T x, T y) { return x + y; };
  co_return co_await bench::reduce_declared<T>(0, s.n, block_rows, &map, &combine, &declare);
}

/// One conj_grad call; returns NPB's ||x - A z||.
locus::task<double> conj_grad(state s) {
  const int n = s.n;
  double rho = co_await reduce<double>(
      s, [s](int lo, int hi) { return start_block(s, lo, hi); },
      [s](int lo, int hi) {
        ranges<5> r;
        for (double* w : {s.q, s.z, s.r, s.p})
          slice(r, w, lo, hi, access::write);
        slice(r, s.x, lo, hi, access::read);
        return r;
      });
  for (int it = 0; it < cg_iterations; ++it) {
    const double d = co_await reduce<double>(
        s, [s](int lo, int hi) { return multiply_block(s, s.p, s.q, s.p, lo, hi); },
        [s](int lo, int hi) {
          ranges<5> r;
          rows_of_a(r, s, lo, hi, access::read, s.rowstr);
          slice(r, s.p, 0, s.n, access::read);  // gathered; includes p[lo, hi), the weights
          slice(r, s.q, lo, hi, access::write);
          return r;
        });
    const double alpha = rho / d;
    const double rho0 = rho;
    rho = co_await reduce<double>(
        s, [s, alpha](int lo, int hi) { return step_block(s, alpha, lo, hi); },
        [s](int lo, int hi) {
          ranges<4> r;
          slice(r, s.z, lo, hi, access::read_write);
          slice(r, s.r, lo, hi, access::read_write);
          slice(r, s.p, lo, hi, access::read);
          slice(r, s.q, lo, hi, access::read);
          return r;
        });
    const double beta = rho / rho0;
    const auto direction = [s, beta](int lo, int hi) { direction_block(s, beta, lo, hi); };
    const auto direction_data = [s](int lo, int hi) {
      ranges<2> r;
      slice(r, s.p, lo, hi, access::read_write);
      slice(r, s.r, lo, hi, access::read);
      return r;
    };
    co_await bench::for_declared(0, n, block_rows, &direction, &direction_data);
  }
  const double sum = co_await reduce<double>(
      s, [s](int lo, int hi) { return residual_block(s, lo, hi); },
      [s](int lo, int hi) {
        ranges<6> r;
        rows_of_a(r, s, lo, hi, access::read, s.rowstr);
        slice(r, s.z, 0, s.n, access::read);  // gathered
        slice(r, s.r, lo, hi, access::write);
        slice(r, s.x, lo, hi, access::read);
        return r;
      });
  co_return std::sqrt(sum);
}

/// NPB's outer loop; returns zeta and stores the last residual norm in *rnorm.
locus::task<double> solve(state s, int niter, double shift, double* rnorm) {
  double zeta = 0;
  for (int it = 0; it < niter; ++it) {
    *rnorm = co_await conj_grad(s);
    const norms nm = co_await reduce<norms>(
        s, [s](int lo, int hi) { return norms_block(s, lo, hi); },
        [s](int lo, int hi) {
          ranges<2> r;
          slice(r, s.x, lo, hi, access::read);
          slice(r, s.z, lo, hi, access::read);
          return r;
        });
    zeta = shift + 1.0 / nm.xz;
    const double scale = 1.0 / std::sqrt(nm.zz);
    const auto normalize = [s, scale](int lo, int hi) { normalize_block(s, scale, lo, hi); };
    const auto normalize_data = [s](int lo, int hi) {
      ranges<2> r;
      slice(r, s.x, lo, hi, access::write);
      slice(r, s.z, lo, hi, access::read);
      return r;
    };
    co_await bench::for_declared(0, s.n, block_rows, &normalize, &normalize_data);
  }
  co_return zeta;
}

/// Copies rows of `built` into the instance's matrix and writes the vectors' initial values
/// (x = 1, the others 0) in tasks of the loops' blocks: the first touch of every array.
locus::task<void> first_touch(state s, const matrix* built) {
  const auto leaf = [s, built](int lo, int hi) {
    const int k0 = built->rowstr[lo];
    const int k1 = built->rowstr[hi];
    for (int j = lo; j < hi; ++j) {
      s.x[j] = 1.0;
      s.z[j] = s.p[j] = s.q[j] = s.r[j] = 0.0;
    }
    auto* rowstr = const_cast<int*>(s.rowstr);
    auto* colidx = const_cast<int*>(s.colidx);
    auto* a = const_cast<double*>(s.a);
    for (int j = lo; j < hi; ++j)
      rowstr[j] = built->rowstr[j];
    if (hi == s.n) rowstr[hi] = built->rowstr[hi];
    for (int k = k0; k < k1; ++k) {
      colidx[k] = built->colidx[k];
      a[k] = built->a[k];
    }
  };
  const auto data = [s, built](int lo, int hi) {
    ranges<8> r;
    rows_of_a(r, s, lo, hi, access::write, built->rowstr.data());
    for (double* w : {s.x, s.z, s.p, s.q, s.r})
      slice(r, w, lo, hi, access::write);
    return r;
  };
  co_await bench::for_declared(0, s.n, block_rows, &leaf, &data);
}

}  // namespace

bench::outcome cg_locus(const bench::args& a) {
  const auto setup = [&a](const std::string& size) {
    instance in = cg_kernel::setup(size);
    const matrix built = in.m;
    a.rt->run(first_touch(in.pointers(), &built));
    a.rt->reset_stats();  // what follows is the kernel's
    return in;
  };
  const auto body = [&a](instance& in) {
    answer r;
    r.zeta = a.rt->run(solve(in.pointers(), in.c.niter, in.c.shift, &r.rnorm));
    return r;
  };
  return bench::measure(a.size, setup, body, check);
}
