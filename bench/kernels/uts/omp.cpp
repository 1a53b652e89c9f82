// uts, OpenMP: a node with children makes each child a task and combines the children's
// tallies after taskwait.
#include <omp.h>

#include "../../kernel.hpp"
#include "../omp_single.hpp"
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

// Deep trees nest a frame per level on every thread. libgomp creates its workers at the first
// parallel region (each run is a fresh process) with the default thread attributes unless
// OMP_STACKSIZE is set, so this context raises that default around the timed region; the
// master is the deep-stack thread.
struct on_deep_stacks {
  template <class F>
  void operator()(F& timed) const {
    pthread_attr_t saved;
    const bool have_saved = pthread_getattr_default_np(&saved) == 0;
    pthread_attr_t deep;
    pthread_attr_init(&deep);
    pthread_attr_setstacksize(&deep, uts_kernel::k_deep_stack);
    pthread_setattr_default_np(&deep);
    pthread_attr_destroy(&deep);
    uts_kernel::on_deep_stack{}(timed);
    if (have_saved) {
      pthread_setattr_default_np(&saved);
      pthread_attr_destroy(&saved);
    }
  }
};

}  // namespace

bench::outcome uts_omp(const bench::args& a) {
  const auto body = [](const uts_kernel::tree_spec& t) {
    return bench::omp_single([&t] { return visit(&t, uts_kernel::root(t)); });
  };
  return bench::measure(a.size, uts_kernel::parse, body, uts_kernel::check, on_deep_stacks{});
}
