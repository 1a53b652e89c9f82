// fdtd, locus: per step, each phase's rows are split in halves recursively (the first half
// spawned, the second called) down to block_rows rows. Each phase's root declares the rows it
// reads and writes (locus/data.hpp; the one row a stencil reads across a leaf's edge is left
// out, LAWS's boundary data), so its leaves inherit exactly their rows; the setup first-touches
// the fields in tasks of the same decomposition, untimed.
//
// --schedule stows / stuws / relws (issue 8): the first touch is traced and each phase of
// each step (electric, then magnetic) is a phase of its own that replays it in the mode. The
// magnetic phase splits one row fewer; the template is followed where it fits.
// --schedule loop runs the paper's iterative RelWS locality loop (bench::loop_setup) on the
// first touch and step 0's electric phase during setup, each redistribution into fresh
// fields, then rewrites the initial values along the schedule it settled on (its trial
// phases change ex and ey) and replays that schedule under stows for every phase;
// --schedule designed runs the first touch and both phases of every step under a designed
// block partition (worker w the w-th band of rows, the same band in both phases) under stuws.
#include <locus/locus.hpp>

#include <array>
#include <string>
#include <vector>

#include "../../kernel.hpp"
#include "../locus_replay.hpp"
#include "../locus_rows.hpp"
#include "common.hpp"

namespace {

using fdtd_kernel::view;
using locus::access;

/// Step t's first phase: ex and ey from hz.
locus::task<void> electric(view v, int t) {
  const auto leaf = [v, t](int lo, int hi) { fdtd_kernel::electric_rows(v, t, lo, hi); };
  const std::array<locus::data_range, 3> e{bench::rows_of(v.ey, v.ny, 0, v.nx, access::read_write),
                                           bench::rows_of(v.ex, v.ny, 0, v.nx, access::read_write),
                                           bench::rows_of(v.hz, v.ny, 0, v.nx, access::read)};
  auto rows = locus::with_data(bench::split_rows(0, v.nx, fdtd_kernel::block_rows, &leaf), e,
                               bench::row_split<double>(v.ny));
  co_await std::move(rows);
}

/// A step's second phase: hz from ex and ey (nx >= 2).
locus::task<void> magnetic(view v) {
  const auto leaf = [v](int lo, int hi) { fdtd_kernel::magnetic_rows(v, lo, hi); };
  const std::array<locus::data_range, 3> m{
      bench::rows_of(v.hz, v.ny, 0, v.nx - 1, access::read_write),
      bench::rows_of(v.ex, v.ny, 0, v.nx - 1, access::read),
      bench::rows_of(v.ey, v.ny, 0, v.nx - 1, access::read)};
  auto rows = locus::with_data(bench::split_rows(0, v.nx - 1, fdtd_kernel::block_rows, &leaf), m,
                               bench::row_split<double>(v.ny));
  co_await std::move(rows);
}

locus::task<void> solve(view v, int tmax) {
  for (int t = 0; t < tmax; ++t) {
    co_await electric(v, t);
    if (v.nx >= 2) co_await magnetic(v);
  }
}

/// Rewrites the three fields with their initial values in tasks: the pages are first touched
/// (homed) by the workers of the phases' decomposition.
locus::task<void> first_touch(view v, const fdtd_kernel::fields* initial) {
  const auto leaf = [v, initial](int lo, int hi) {
    const std::size_t from = static_cast<std::size_t>(lo) * v.ny;
    const std::size_t to = static_cast<std::size_t>(hi) * v.ny;
    for (std::size_t k = from; k < to; ++k) {
      v.ex[k] = initial->ex[k];
      v.ey[k] = initial->ey[k];
      v.hz[k] = initial->hz[k];
    }
  };
  const std::array<locus::data_range, 3> w{bench::rows_of(v.ex, v.ny, 0, v.nx, access::write),
                                           bench::rows_of(v.ey, v.ny, 0, v.nx, access::write),
                                           bench::rows_of(v.hz, v.ny, 0, v.nx, access::write)};
  auto init = locus::with_data(bench::split_rows(0, v.nx, fdtd_kernel::block_rows, &leaf), w,
                               bench::row_split<double>(v.ny));
  co_await std::move(init);
}

/// Rows [lo, hi) of the three fields, declared (accounting).
void touch_rows(const view& v, int lo, int hi, access e, access h) {
  bench::touch_all(std::array<locus::data_range, 3>{bench::rows_of(v.ex, v.ny, lo, hi, e),
                                                    bench::rows_of(v.ey, v.ny, lo, hi, e),
                                                    bench::rows_of(v.hz, v.ny, lo, hi, h)});
}

/// What a designed phase runs: the first touch, or step t's electric or magnetic phase.
enum class phase_kind { init, electric, magnetic };

/// The designed schedule of one phase: worker w takes the w-th band of the nx rows (the
/// magnetic phase clips its band to nx - 1 rows, as magnetic_rows does).
locus::task<void> designed(view v, phase_kind k, int t, const fdtd_kernel::fields* initial,
                           unsigned workers) {
  auto share = [v, k, t, initial](int lo, int hi) {
    if (k == phase_kind::magnetic && hi > v.nx - 1) hi = v.nx - 1;
    if (lo >= hi) return;
    switch (k) {
      case phase_kind::init: {
        touch_rows(v, lo, hi, access::write, access::write);
        const std::size_t from = static_cast<std::size_t>(lo) * v.ny;
        const std::size_t to = static_cast<std::size_t>(hi) * v.ny;
        for (std::size_t i = from; i < to; ++i) {
          v.ex[i] = initial->ex[i];
          v.ey[i] = initial->ey[i];
          v.hz[i] = initial->hz[i];
        }
        return;
      }
      case phase_kind::electric:
        touch_rows(v, lo, hi, access::read_write, access::read);
        fdtd_kernel::electric_rows(v, t, lo, hi);
        return;
      case phase_kind::magnetic:
        touch_rows(v, lo, hi, access::read, access::read_write);
        fdtd_kernel::magnetic_rows(v, lo, hi);
        return;
    }
  };
  return bench::block_partition(0, v.nx, workers, share);
}

}  // namespace

bench::outcome fdtd_locus(const bench::args& a) {
  bench::replayed_phases phases(a);
  // The loop's redistributions write fresh fields; the replaced ones stay allocated until the
  // run ends (bench::loop_setup).
  std::vector<fdtd_kernel::fields> retired;
  const auto setup = [&a, &phases, &retired](const std::string& size) {
    fdtd_kernel::instance in = fdtd_kernel::setup(size);
    const fdtd_kernel::fields initial = in.f;
    if (phases.loop()) {
      phases.setup_loop(
          [&] {
            retired.push_back(std::move(in.f));
            in.f = fdtd_kernel::initial(in.pr);
          },
          [&] { return first_touch(in.pointers(), &initial); },
          [&] { return electric(in.pointers(), 0); });
    } else if (phases.design()) {
      phases.designed(designed(in.pointers(), phase_kind::init, 0, &initial, a.workers));
    } else {
      phases.setup(first_touch(in.pointers(), &initial));
    }
    a.rt->reset_stats();  // what follows is the kernel's
    return in;
  };
  const auto body = [&a, &phases](fdtd_kernel::instance& in) {
    const view v = in.pointers();
    if (!phases.replay()) {
      phases.whole(solve(v, in.pr.tmax));
      return;
    }
    for (int t = 0; t < in.pr.tmax; ++t) {
      if (phases.design()) {
        phases.designed(designed(v, phase_kind::electric, t, nullptr, a.workers));
        if (v.nx >= 2) phases.designed(designed(v, phase_kind::magnetic, t, nullptr, a.workers));
        continue;
      }
      phases.phase(electric(v, t));
      if (v.nx >= 2) phases.phase(magnetic(v));
    }
  };
  bench::outcome out = bench::measure(a.size, setup, body, fdtd_kernel::check);
  out.detail += phases.detail();
  return out;
}
