// fj, oneTBB: each round runs N empty tasks in one task_group and waits for them.
#include <tbb/task_group.h>

#include "../../kernel.hpp"
#include "common.hpp"

bench::outcome fj_tbb(const bench::args& a) {
  const auto run = [](fj_kernel::instance& in) {
    for (std::size_t r = 0; r < in.s.rounds; ++r) {
      tbb::task_group g;
      for (std::size_t i = 0; i < in.s.tasks; ++i) {
        fj_kernel::slot* c = &in.slots[i];
        g.run([c] { ++c->runs; });
      }
      g.wait();
    }
  };
  return bench::measure(a.size, fj_kernel::setup, run, fj_kernel::check);
}
