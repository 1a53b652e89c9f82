// cholesky, serial: the tile loop in order, one single-threaded OpenBLAS call per tile.
#ifdef LOCUS_HAVE_OPENBLAS

#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome cholesky_serial(const bench::args& a) {
  const auto body = [](cholesky_kernel::instance& in) {
    cholesky_kernel::for_each_task(in.d.tiles(), [&in](const cholesky_kernel::tile_task& t) {
      cholesky_kernel::run_task(in.work, t);
    });
  };
  return bench::measure(a.size, cholesky_kernel::setup_tiled, body, cholesky_kernel::check_tiled);
}

#endif  // LOCUS_HAVE_OPENBLAS
