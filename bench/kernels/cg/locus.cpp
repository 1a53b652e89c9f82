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
// fits), the scalar steps between them on the calling thread. --schedule loop runs the paper's
// iterative RelWS locality loop (bench::loop_setup) on the first touch and one product
// (q = A p) during setup, each redistribution into a fresh matrix and vectors, then rewrites
// the initial values along the schedule it settled on and replays that schedule under stows
// for every loop; --schedule designed runs the first touch and every loop under a designed
// block partition (worker w the w-th band of rows) under stuws, a sum added up in worker
// order (so zeta differs from the other modes' in its last bits: NPB's check allows 1e-10).
#include <locus/locus.hpp>

#include <cmath>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

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

/// A vector loop: map(lo, hi) on a block of rows (returning its share of a sum, or nothing),
/// declare(lo, hi) the ranges it touches.
template <class Map, class Declare>
struct vector_loop {
  Map map;
  Declare declare;
};
template <class Map, class Declare>
vector_loop(Map, Declare) -> vector_loop<Map, Declare>;

/// A loop as one task over blocks: a sum over blocks (parallel_reduce's tree), or a for.
template <class Map, class Declare>
auto as_task(state s, vector_loop<Map, Declare> l) {
  using T = std::invoke_result_t<const Map&, int, int>;
  if constexpr (std::is_void_v<T>) {
    return [](state s, vector_loop<Map, Declare> l) -> locus::task<void> {
      co_await bench::for_declared(0, s.n, block_rows, &l.map, &l.declare);
    }(s, std::move(l));
  } else {
    return [](state s, vector_loop<Map, Declare> l) -> locus::task<T> {
      const auto combine = [](T x, T y) { return x + y; };
      co_return co_await bench::reduce_declared<T>(0, s.n, block_rows, &l.map, &combine,
                                                   &l.declare);
    }(s, std::move(l));
  }
}

// The vector loops: awaited in one task by solve() (random), or each a phase of its own
// (solve_phases: replaying the first touch's or the loop's schedule, or designed).

/// q = z = 0, r = p = x; returns rho = r.r.
auto start(state s) {
  return vector_loop{[s](int lo, int hi) { return start_block(s, lo, hi); },
                     [s](int lo, int hi) {
                       ranges<5> r;
                       for (double* w : {s.q, s.z, s.r, s.p})
                         slice(r, w, lo, hi, access::write);
                       slice(r, s.x, lo, hi, access::read);
                       return r;
                     }};
}

/// q = A p; returns p.q.
auto multiply(state s) {
  return vector_loop{[s](int lo, int hi) { return multiply_block(s, s.p, s.q, s.p, lo, hi); },
                     [s](int lo, int hi) {
                       ranges<5> r;
                       rows_of_a(r, s, lo, hi, access::read, s.rowstr);
                       // gathered; includes p[lo, hi), the weights
                       slice(r, s.p, 0, s.n, access::read);
                       slice(r, s.q, lo, hi, access::write);
                       return r;
                     }};
}

/// z += alpha p, r -= alpha q; returns the new rho = r.r.
auto update(state s, double alpha) {
  return vector_loop{[s, alpha](int lo, int hi) { return step_block(s, alpha, lo, hi); },
                     [s](int lo, int hi) {
                       ranges<4> r;
                       slice(r, s.z, lo, hi, access::read_write);
                       slice(r, s.r, lo, hi, access::read_write);
                       slice(r, s.p, lo, hi, access::read);
                       slice(r, s.q, lo, hi, access::read);
                       return r;
                     }};
}

/// p = r + beta p.
auto direction(state s, double beta) {
  return vector_loop{[s, beta](int lo, int hi) { direction_block(s, beta, lo, hi); },
                     [s](int lo, int hi) {
                       ranges<2> r;
                       slice(r, s.p, lo, hi, access::read_write);
                       slice(r, s.r, lo, hi, access::read);
                       return r;
                     }};
}

/// r = A z; returns ||x - r||^2.
auto residual(state s) {
  return vector_loop{[s](int lo, int hi) { return residual_block(s, lo, hi); },
                     [s](int lo, int hi) {
                       ranges<6> r;
                       rows_of_a(r, s, lo, hi, access::read, s.rowstr);
                       slice(r, s.z, 0, s.n, access::read);  // gathered
                       slice(r, s.r, lo, hi, access::write);
                       slice(r, s.x, lo, hi, access::read);
                       return r;
                     }};
}

/// x.z and z.z.
auto norms_of(state s) {
  return vector_loop{[s](int lo, int hi) { return norms_block(s, lo, hi); },
                     [s](int lo, int hi) {
                       ranges<2> r;
                       slice(r, s.x, lo, hi, access::read);
                       slice(r, s.z, lo, hi, access::read);
                       return r;
                     }};
}

/// x = scale z.
auto normalize(state s, double scale) {
  return vector_loop{[s, scale](int lo, int hi) { normalize_block(s, scale, lo, hi); },
                     [s](int lo, int hi) {
                       ranges<2> r;
                       slice(r, s.x, lo, hi, access::write);
                       slice(r, s.z, lo, hi, access::read);
                       return r;
                     }};
}

/// One conj_grad call; returns NPB's ||x - A z||.
locus::task<double> conj_grad(state s) {
  double rho = co_await as_task(s, start(s));
  for (int it = 0; it < cg_iterations; ++it) {
    const double alpha = rho / co_await as_task(s, multiply(s));
    const double rho0 = rho;
    rho = co_await as_task(s, update(s, alpha));
    co_await as_task(s, direction(s, rho / rho0));
  }
  co_return std::sqrt(co_await as_task(s, residual(s)));
}

/// NPB's outer loop; returns zeta and stores the last residual norm in *rnorm.
locus::task<double> solve(state s, int niter, double shift, double* rnorm) {
  double zeta = 0;
  for (int it = 0; it < niter; ++it) {
    *rnorm = co_await conj_grad(s);
    const norms nm = co_await as_task(s, norms_of(s));
    zeta = shift + 1.0 / nm.xz;
    co_await as_task(s, normalize(s, 1.0 / std::sqrt(nm.zz)));
  }
  co_return zeta;
}

/// solve() with every vector loop a phase of its own, run by run(loop) (the replay, loop and
/// designed modes); the scalar steps between them run on the calling thread.
template <class Run>
double solve_phases(const Run& run, state s, int niter, double shift, double* rnorm) {
  double zeta = 0;
  for (int it = 0; it < niter; ++it) {
    double rho = run(start(s));
    for (int i = 0; i < cg_iterations; ++i) {
      const double alpha = rho / run(multiply(s));
      const double rho0 = rho;
      rho = run(update(s, alpha));
      run(direction(s, rho / rho0));
    }
    *rnorm = std::sqrt(run(residual(s)));
    const norms nm = run(norms_of(s));
    zeta = shift + 1.0 / nm.xz;
    run(normalize(s, 1.0 / std::sqrt(nm.zz)));
  }
  return zeta;
}

/// Copies rows of `built` into the instance's matrix and writes the vectors' initial values
/// (x = 1, the others 0) on blocks of rows: the first touch of every array.
auto initial_values(state s, const matrix* built) {
  return vector_loop{[s, built](int lo, int hi) {
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
                     },
                     [s, built](int lo, int hi) {
                       ranges<8> r;
                       rows_of_a(r, s, lo, hi, access::write, built->rowstr.data());
                       for (double* w : {s.x, s.z, s.p, s.q, s.r})
                         slice(r, w, lo, hi, access::write);
                       return r;
                     }};
}

}  // namespace

bench::outcome cg_locus(const bench::args& a) {
  bench::replayed_phases phases(a);
  // The loop's redistributions write a fresh matrix and vectors; the replaced ones stay
  // allocated until the run ends (bench::loop_setup).
  std::vector<instance> retired;
  const auto designed = [&a](state s, auto l) {
    return bench::designed_loop(*a.rt, s.n, a.workers, l.map, l.declare);
  };
  const auto setup = [&](const std::string& size) {
    instance in = cg_kernel::setup(size);
    const matrix built = in.m;
    if (phases.loop()) {
      // The loop's kernel is a product (q = A p, the loop that reads A): start() rewrites q
      // anyway, and loop_setup rewrites every initial value after the loop.
      phases.setup_loop(
          [&] {
            const cg_class c = in.c;
            retired.push_back(std::move(in));
            in = instance{c, built, vectors(built.n)};
          },
          [&] { return as_task(in.pointers(), initial_values(in.pointers(), &built)); },
          [&] { return as_task(in.pointers(), multiply(in.pointers())); });
    } else if (phases.design()) {
      designed(in.pointers(), initial_values(in.pointers(), &built));
    } else {
      phases.setup(as_task(in.pointers(), initial_values(in.pointers(), &built)));
    }
    a.rt->reset_stats();  // what follows is the kernel's
    return in;
  };
  const auto body = [&](instance& in) {
    answer r;
    const state s = in.pointers();
    const auto replayed = [&phases, s](auto l) { return phases.phase(as_task(s, std::move(l))); };
    const auto design = [&designed, s](auto l) { return designed(s, std::move(l)); };
    if (phases.design()) {
      r.zeta = solve_phases(design, s, in.c.niter, in.c.shift, &r.rnorm);
    } else if (phases.replay()) {
      r.zeta = solve_phases(replayed, s, in.c.niter, in.c.shift, &r.rnorm);
    } else {
      r.zeta = phases.whole(solve(s, in.c.niter, in.c.shift, &r.rnorm));
    }
    return r;
  };
  bench::outcome out = bench::measure(a.size, setup, body, check);
  out.detail += phases.detail();
  return out;
}
