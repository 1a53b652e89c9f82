// fj, oneTBB: each round runs N empty tasks in one task_group and waits for them.
#include <tbb/task_group.h>

#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome fj_tbb(const bench::args& a) {
  const fj_kernel::shape s = fj_kernel::parse(a.size);
  std::vector<fj_kernel::slot> slots(s.tasks);
  bench::outcome out;
  const bench::stopwatch clock;
  for (std::size_t r = 0; r < s.rounds; ++r) {
    tbb::task_group g;
    for (std::size_t i = 0; i < s.tasks; ++i) {
      fj_kernel::slot* c = &slots[i];
      g.run([c] { ++c->runs; });
    }
    g.wait();
  }
  out.seconds = clock.seconds();
  fj_kernel::check(out, s, slots);
  return out;
}
