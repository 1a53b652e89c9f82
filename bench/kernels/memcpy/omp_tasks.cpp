// memcpy, OpenMP tasks: init and every copy phase split the blocks in halves recursively down
// to one block, each half an `omp task` (the locus version's spawn tree). Which thread
// initialises a block and which copies it is up to OpenMP's task scheduling, so this is the
// task-parallel counterpart of locus's --schedule random, beside omp's static loops.
#include "../omp_tasks.hpp"
#include "../../kernel.hpp"
#include "common.hpp"

namespace {

void init(const memcpy_kernel::instance& in) {
  bench::omp_tasks_for(0, static_cast<long>(in.blocks()), 1, [&in](long lo, long hi) {
    for (long b = lo; b < hi; ++b)
      in.init_block(static_cast<std::size_t>(b));
  });
}

void copy(const memcpy_kernel::instance& in) {
  for (unsigned r = 0; r < in.size.reps; ++r) {
    bench::omp_tasks_for(0, static_cast<long>(in.blocks()), 1, [&in](long lo, long hi) {
      for (long b = lo; b < hi; ++b)
        in.copy_block(static_cast<std::size_t>(b));
    });
  }
}

}  // namespace

bench::outcome memcpy_omp_tasks(const bench::args& a) {
  memcpy_kernel::instance data;
  const auto setup = [&data](const std::string& size) -> memcpy_kernel::instance& {
    data = memcpy_kernel::setup(size);
    return data;
  };
  // The init phase, untimed, in tasks, right before the timed copy phase.
  const auto init_then_time = [&data](auto& timed) {
    init(data);
    timed();
  };
  return bench::measure(a.size, setup, copy, memcpy_kernel::check, init_then_time);
}
