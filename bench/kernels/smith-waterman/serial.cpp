// smith-waterman, serial: the tiles one after another, row by row: the parallel versions'
// algorithm without a runtime, so that their speedup measures parallelism, not blocking. (The
// plain DP over whole rows, sw_kernel::solve_serial, is kept as the reference the check uses;
// it is about 2x slower at the default size, its rows being too long for the L1 cache.)
#include <cstddef>

#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome smith_waterman_serial(const bench::args& a) {
  const auto body = [](sw_kernel::instance& in) {
    for (std::size_t i = 0; i < in.tile_rows; ++i) {
      for (std::size_t j = 0; j < in.tile_cols; ++j)
        sw_kernel::compute_tile(in, i, j);
    }
    return sw_kernel::gather(in);
  };
  return bench::measure(a.size, sw_kernel::setup_tiled, body, sw_kernel::check);
}
