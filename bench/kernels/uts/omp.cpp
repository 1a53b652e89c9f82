// uts, OpenMP: a node with children makes each child a task and combines the children's
// tallies after taskwait.
#include <omp.h>

#include "../../kernel.hpp"
#include "common.hpp"

namespace {

using uts_kernel::node;
using uts_kernel::tally;

tally visit(const uts_kernel::tree_spec* t, const node& n) {
  const int count = uts_kernel::num_children(*t, n);
  if (count == 0) return tally{1, 1, n.height};
  uts_kernel::child_slots slots(count);
  for (int i = 0; i < count; ++i) {
    tally* slot = slots[i];
    const node c = uts_kernel::child(n, i);
#pragma omp task firstprivate(t, c, slot)
    *slot = visit(t, c);
  }
#pragma omp taskwait
  return uts_kernel::combine(n, slots, count);
}

}  // namespace

bench::outcome uts_omp(const bench::args& a) {
  const uts_kernel::tree_spec& t = uts_kernel::parse(a.size);
  const uts_kernel::tree_spec* tp = &t;
  bench::outcome out;
  tally r;
  auto traverse = [&] {
    const bench::stopwatch clock;
#pragma omp parallel
#pragma omp single
    r = visit(tp, uts_kernel::root(t));
    out.seconds = clock.seconds();
  };
  // Deep trees nest a frame per level on every thread. libgomp creates its workers at the first
  // parallel region (each run is a fresh process) with the default thread attributes unless
  // OMP_STACKSIZE is set, so raise that default around the run; the master is the deep-stack
  // thread.
  pthread_attr_t saved;
  const bool have_saved = pthread_getattr_default_np(&saved) == 0;
  pthread_attr_t deep;
  pthread_attr_init(&deep);
  pthread_attr_setstacksize(&deep, uts_kernel::k_deep_stack);
  pthread_setattr_default_np(&deep);
  pthread_attr_destroy(&deep);
  uts_kernel::on_deep_stack(traverse);
  if (have_saved) {
    pthread_setattr_default_np(&saved);
    pthread_attr_destroy(&saved);
  }
  uts_kernel::check(out, t, r);
  return out;
}
