// fj, OpenMP: one parallel region; in each round the single thread creates N empty tasks and
// waits for them with taskwait.
#include <omp.h>

#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome fj_omp(const bench::args& a) {
  const auto run = [](fj_kernel::instance& in) {
    fj_kernel::slot* base = in.slots.data();
    const std::size_t tasks = in.s.tasks;
    const std::size_t rounds = in.s.rounds;
#pragma omp parallel
#pragma omp single
    for (std::size_t r = 0; r < rounds; ++r) {
      for (std::size_t i = 0; i < tasks; ++i) {
#pragma omp task firstprivate(i)
        ++base[i].runs;
      }
#pragma omp taskwait
    }
  };
  return bench::measure(a.size, fj_kernel::setup, run, fj_kernel::check);
}
