// fj, OpenMP: one parallel region; in each round the single thread creates N empty tasks and
// waits for them with taskwait.
#include <omp.h>

#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome fj_omp(const bench::args& a) {
  const fj_kernel::shape s = fj_kernel::parse(a.size);
  std::vector<fj_kernel::slot> slots(s.tasks);
  fj_kernel::slot* base = slots.data();
  const std::size_t tasks = s.tasks;
  const std::size_t rounds = s.rounds;
  bench::outcome out;
  const bench::stopwatch clock;
#pragma omp parallel
#pragma omp single
  for (std::size_t r = 0; r < rounds; ++r) {
    for (std::size_t i = 0; i < tasks; ++i) {
#pragma omp task firstprivate(i)
      ++base[i].runs;
    }
#pragma omp taskwait
  }
  out.seconds = clock.seconds();
  fj_kernel::check(out, s, slots);
  return out;
}
