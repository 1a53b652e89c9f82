// memcpy, serial: init then copy, block by block, on the calling thread.
#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome memcpy_serial(const bench::args& a) {
  memcpy_kernel::instance data;
  const auto setup = [&data](const std::string& size) -> memcpy_kernel::instance& {
    data = memcpy_kernel::setup(size);
    return data;
  };
  const auto copy = [](memcpy_kernel::instance& in) {
    for (unsigned r = 0; r < in.size.reps; ++r) {
      for (std::size_t b = 0; b < in.blocks(); ++b)
        in.copy_block(b);
    }
  };
  // The init phase, untimed, right before the timed copy phase (see common.hpp).
  const auto init_then_time = [&data](auto& timed) {
    for (std::size_t b = 0; b < data.blocks(); ++b)
      data.init_block(b);
    timed();
  };
  return bench::measure(a.size, setup, copy, memcpy_kernel::check, init_then_time);
}
