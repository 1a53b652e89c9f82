// smith-waterman, OpenMP: one task per tile, created row by row by one thread, ordered by
// depend clauses on a flag per tile: in on the tiles to the left and above, out on its own.
#include <omp.h>

#include <cstddef>
#include <vector>

#include "../../kernel.hpp"
#include "../omp_single.hpp"
#include "common.hpp"

namespace {

void run(sw_kernel::instance& in) {
  const std::size_t rows = in.tile_rows, cols = in.tile_cols;
  // flags[(i + 1) * (cols + 1) + j + 1] stands for tile (i, j); row 0 and column 0 stand for
  // the missing tiles above the first row and left of the first column, which no task writes.
  std::vector<char> flag_storage((rows + 1) * (cols + 1));
  char* flags = flag_storage.data();
  bench::omp_single([&] {
    for (std::size_t i = 0; i < rows; ++i) {
      for (std::size_t j = 0; j < cols; ++j) {
        const std::size_t self = (i + 1) * (cols + 1) + j + 1;
        const std::size_t up = self - (cols + 1);
        const std::size_t left = self - 1;
#pragma omp task firstprivate(i, j) shared(in) depend(in                        \
                                                      : flags[up], flags[left]) \
    depend(out                                                                  \
           : flags[self])
        sw_kernel::compute_tile(in, i, j);
      }
    }
  });
}

}  // namespace

bench::outcome smith_waterman_omp(const bench::args& a) {
  const auto body = [](sw_kernel::instance& in) {
    run(in);
    return sw_kernel::gather(in);
  };
  return bench::measure(a.size, sw_kernel::setup_tiled, body, sw_kernel::check);
}
