// bench/kernels/stencil_locus.hpp — the serial and locus versions of a stencil kernel
// (stencil_common.hpp), one template each; bench/kernels/<name>/{serial,locus}.cpp instantiate
// them.
//
// locus: per time step (bench::run_iterations, one root per step), the interior planes are
// halved recursively down to leaf_planes planes, the first half spawned and the second called.
// Every task declares (locus_declared_rows.hpp) the planes it reads, halo included, and the
// planes it writes:
//   read  from[lo - radius, hi + radius)   write  to[lo, hi)
// whole planes (a plane's boundary points are inside the declared bytes but not written: 2 of
// n1 points per row in 2-D; in 3-D the boundary frame of each plane). The grids come from
// locus's allocator and the setup first-touches them in tasks of the same split, the edge
// leaves also writing the boundary planes, so every plane is homed where its steps run.
#pragma once

#include <locus/locus.hpp>

#include "../kernel.hpp"
#include "iterative.hpp"
#include "locus_declared_rows.hpp"
#include "stencil_common.hpp"

namespace stencil {

/// The serial version.
template <class Spec>
[[nodiscard]] bench::outcome run_serial(const bench::args& a) {
  return bench::measure(a.size, setup<Spec>, solve_serial<Spec>, check_serial<Spec>);
}

/// Planes [lo, hi) of `g` as a data range.
[[nodiscard]] inline locus::data_range planes_of(const problem& pr, const double* g, int lo, int hi,
                                                 locus::access mode) {
  return locus::data_range::of(g + static_cast<std::size_t>(lo) * pr.plane(),
                               static_cast<std::size_t>(hi - lo) * pr.plane(), mode);
}

/// Time step t of `in`.
template <class Spec>
locus::task<void> step(instance* in, int t) {
  const problem& pr = in->pr;
  const double* from = in->from(t);
  double* to = in->to(t);
  const auto leaf = [&pr, from, to](int lo, int hi) { Spec::planes(pr, from, to, lo, hi); };
  const auto declare = [&pr, from, to](int lo, int hi) {
    bench::ranges<2> d;
    d.r[0] = planes_of(pr, from, lo - pr.radius, hi + pr.radius, locus::access::read);
    d.r[1] = planes_of(pr, to, lo, hi, locus::access::write);
    d.count = 2;
    return d;
  };
  co_await bench::rows_declared(pr.radius, pr.n0 - pr.radius, leaf_planes, &leaf, &declare);
}

/// Writes the initial values into both grids in tasks of step's split: the pages are first
/// touched (homed) by the workers that step them; the first and last leaves also write the
/// boundary planes next to them.
inline locus::task<void> first_touch(instance* in) {
  const problem& pr = in->pr;
  double* a = in->a.data();
  double* b = in->b.data();
  const auto widen = [&pr](int& lo, int& hi) {
    if (lo == pr.radius) lo = 0;
    if (hi == pr.n0 - pr.radius) hi = pr.n0;
  };
  const auto leaf = [&pr, a, b, widen](int lo, int hi) {
    widen(lo, hi);
    init_planes(pr, a, b, lo, hi);
  };
  const auto declare = [&pr, a, b, widen](int lo, int hi) {
    widen(lo, hi);
    bench::ranges<2> d;
    d.r[0] = planes_of(pr, a, lo, hi, locus::access::write);
    d.r[1] = planes_of(pr, b, lo, hi, locus::access::write);
    d.count = 2;
    return d;
  };
  co_await bench::rows_declared(pr.radius, pr.n0 - pr.radius, leaf_planes, &leaf, &declare);
}

/// The locus version (random schedule only).
template <class Spec>
[[nodiscard]] bench::outcome run_locus(const bench::args& a) {
  const auto setup = [&a](const std::string& size) {
    instance in{parse(size, Spec::name, Spec::dims, Spec::radius), {}, {}};
    in.a = bench::grid_buffer<double>(*a.rt, in.pr.cells());
    in.b = bench::grid_buffer<double>(*a.rt, in.pr.cells());
    a.rt->run(first_touch(&in));
    a.rt->reset_stats();  // what follows is the kernel's
    return in;
  };
  const auto body = [&a](instance& in) {
    bench::run_iterations(*a.rt, static_cast<std::size_t>(in.pr.steps),
                          [&in](std::size_t t) { return step<Spec>(&in, static_cast<int>(t)); });
  };
  return bench::measure(a.size, setup, body, check<Spec>);
}

}  // namespace stencil
