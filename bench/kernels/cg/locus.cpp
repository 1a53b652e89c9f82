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
//
// --schedule stows / stuws / relws (issue 8): the first touch is traced, and every vector loop
// is a phase of its own that replays it in the mode (a loop of the same blocks: the template
// fits), the scalar steps between them on the calling thread.
#include <locus/locus.hpp>

#include <cmath>

#include "../../kernel.hpp"
#include "../locus_blocks.hpp"
#include "../locus_replay.hpp"
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

// The vector loops, one task each: awaited in one task by solve() (random), or each a phase
// of its own replaying the first touch's schedule (solve_phases, the replay modes).

/// q = z = 0, r = p = x; returns rho = r.r.
locus::task<double> start(state s) {
  return reduce<double>(
      s, [s](int lo, int hi) { return start_block(s, lo, hi); },
      [s](int lo, int hi) {
        ranges<5> r;
        for (double* w : {s.q, s.z, s.r, s.p})
          slice(r, w, lo, hi, access::write);
        slice(r, s.x, lo, hi, access::read);
        return r;
      });
}

/// q = A p; returns p.q.
locus::task<double> multiply(state s) {
  return reduce<double>(
      s, [s](int lo, int hi) { return multiply_block(s, s.p, s.q, s.p, lo, hi); },
      [s](int lo, int hi) {
        ranges<5> r;
        rows_of_a(r, s, lo, hi, access::read, s.rowstr);
        slice(r, s.p, 0, s.n, access::read);  // gathered; includes p[lo, hi), the weights
        slice(r, s.q, lo, hi, access::write);
        return r;
      });
}

/// z += alpha p, r -= alpha q; returns the new rho = r.r.
locus::task<double> update(state s, double alpha) {
  return reduce<double>(
      s, [s, alpha](int lo, int hi) { return step_block(s, alpha, lo, hi); },
      [s](int lo, int hi) {
        ranges<4> r;
        slice(r, s.z, lo, hi, access::read_write);
        slice(r, s.r, lo, hi, access::read_write);
        slice(r, s.p, lo, hi, access::read);
        slice(r, s.q, lo, hi, access::read);
        return r;
      });
}

/// p = r + beta p.
locus::task<void> direction(state s, double beta) {
  const auto leaf = [s, beta](int lo, int hi) { direction_block(s, beta, lo, hi); };
  const auto data = [s](int lo, int hi) {
    ranges<2> r;
    slice(r, s.p, lo, hi, access::read_write);
    slice(r, s.r, lo, hi, access::read);
    return r;
  };
  co_await bench::for_declared(0, s.n, block_rows, &leaf, &data);
}

/// r = A z; returns ||x - r||^2.
locus::task<double> residual(state s) {
  return reduce<double>(
      s, [s](int lo, int hi) { return residual_block(s, lo, hi); },
      [s](int lo, int hi) {
        ranges<6> r;
        rows_of_a(r, s, lo, hi, access::read, s.rowstr);
        slice(r, s.z, 0, s.n, access::read);  // gathered
        slice(r, s.r, lo, hi, access::write);
        slice(r, s.x, lo, hi, access::read);
        return r;
      });
}

/// x.z and z.z.
locus::task<norms> norms_of(state s) {
  return reduce<norms>(
      s, [s](int lo, int hi) { return norms_block(s, lo, hi); },
      [s](int lo, int hi) {
        ranges<2> r;
        slice(r, s.x, lo, hi, access::read);
        slice(r, s.z, lo, hi, access::read);
        return r;
      });
}

/// x = scale z.
locus::task<void> normalize(state s, double scale) {
  const auto leaf = [s, scale](int lo, int hi) { normalize_block(s, scale, lo, hi); };
  const auto data = [s](int lo, int hi) {
    ranges<2> r;
    slice(r, s.x, lo, hi, access::write);
    slice(r, s.z, lo, hi, access::read);
    return r;
  };
  co_await bench::for_declared(0, s.n, block_rows, &leaf, &data);
}

/// One conj_grad call; returns NPB's ||x - A z||.
locus::task<double> conj_grad(state s) {
  double rho = co_await start(s);
  for (int it = 0; it < cg_iterations; ++it) {
    const double alpha = rho / co_await multiply(s);
    const double rho0 = rho;
    rho = co_await update(s, alpha);
    co_await direction(s, rho / rho0);
  }
  co_return std::sqrt(co_await residual(s));
}

/// NPB's outer loop; returns zeta and stores the last residual norm in *rnorm.
locus::task<double> solve(state s, int niter, double shift, double* rnorm) {
  double zeta = 0;
  for (int it = 0; it < niter; ++it) {
    *rnorm = co_await conj_grad(s);
    const norms nm = co_await norms_of(s);
    zeta = shift + 1.0 / nm.xz;
    co_await normalize(s, 1.0 / std::sqrt(nm.zz));
  }
  co_return zeta;
}

/// solve() with every vector loop a phase of its own (the replay modes); the scalar steps
/// between them run on the calling thread.
double solve_phases(bench::replayed_phases& phases, state s, int niter, double shift,
                    double* rnorm) {
  double zeta = 0;
  for (int it = 0; it < niter; ++it) {
    double rho = phases.phase(start(s));
    for (int i = 0; i < cg_iterations; ++i) {
      const double alpha = rho / phases.phase(multiply(s));
      const double rho0 = rho;
      rho = phases.phase(update(s, alpha));
      phases.phase(direction(s, rho / rho0));
    }
    *rnorm = std::sqrt(phases.phase(residual(s)));
    const norms nm = phases.phase(norms_of(s));
    zeta = shift + 1.0 / nm.xz;
    phases.phase(normalize(s, 1.0 / std::sqrt(nm.zz)));
  }
  return zeta;
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
  bench::replayed_phases phases(a);
  const auto setup = [&a, &phases](const std::string& size) {
    instance in = cg_kernel::setup(size);
    const matrix built = in.m;
    phases.setup(first_touch(in.pointers(), &built));
    a.rt->reset_stats();  // what follows is the kernel's
    return in;
  };
  const auto body = [&phases](instance& in) {
    answer r;
    r.zeta = phases.replay() ? solve_phases(phases, in.pointers(), in.c.niter, in.c.shift, &r.rnorm)
                             : phases.whole(solve(in.pointers(), in.c.niter, in.c.shift, &r.rnorm));
    return r;
  };
  return bench::measure(a.size, setup, body, check);
}
