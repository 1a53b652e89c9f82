// memcpy, OpenMP: both phases are `parallel for schedule(static)` over the same blocks, so
// each thread copies exactly the blocks it initialised (the paper's OpenMP static baseline).
#include "../../kernel.hpp"
#include "common.hpp"

namespace {

void init(const memcpy_kernel::instance& in) {
  const std::size_t nb = in.blocks();
#pragma omp parallel for schedule(static)
  for (std::size_t b = 0; b < nb; ++b)
    in.init_block(b);
}

void copy(const memcpy_kernel::instance& in) {
  const std::size_t nb = in.blocks();
  for (unsigned r = 0; r < in.size.reps; ++r) {
#pragma omp parallel for schedule(static)
    for (std::size_t b = 0; b < nb; ++b)
      in.copy_block(b);
  }
}

}  // namespace

bench::outcome memcpy_omp(const bench::args& a) {
  memcpy_kernel::instance data;
  const auto setup = [&data](const std::string& size) -> memcpy_kernel::instance& {
    data = memcpy_kernel::setup(size);
    return data;
  };
  // The init phase, untimed, on the OpenMP team, right before the timed copy phase.
  const auto init_then_time = [&data](auto& timed) {
    init(data);
    timed();
  };
  return bench::measure(a.size, setup, copy, memcpy_kernel::check, init_then_time);
}
