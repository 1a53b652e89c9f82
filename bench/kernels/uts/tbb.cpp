// uts, oneTBB: a node with children runs each child as a task in its own task_group and
// combines the children's tallies after wait().
#include <tbb/global_control.h>
#include <tbb/task_group.h>

#include "../../kernel.hpp"
#include "common.hpp"

namespace {

using uts_kernel::node;
using uts_kernel::tally;

tally visit(const uts_kernel::tree_spec* t, const node& n) {
  const int count = uts_kernel::num_children(*t, n);
  if (count == 0) return tally{1, 1, n.height};
  uts_kernel::child_slots slots(count);
  tbb::task_group g;
  for (int i = 0; i < count; ++i) {
    tally* slot = slots[i];
    g.run([t, c = uts_kernel::child(n, i), slot] { *slot = visit(t, c); });
  }
  g.wait();
  return uts_kernel::combine(n, slots, count);
}

}  // namespace

bench::outcome uts_tbb(const bench::args& a) {
  // Deep trees nest a frame per level on every thread: give TBB's workers (created on first
  // use, and each run is a fresh process) and the calling thread deep stacks.
  const tbb::global_control stack(tbb::global_control::thread_stack_size, uts_kernel::k_deep_stack);
  const auto body = [](const uts_kernel::tree_spec& t) { return visit(&t, uts_kernel::root(t)); };
  return bench::measure(a.size, uts_kernel::parse, body, uts_kernel::check,
                        uts_kernel::on_deep_stack{});
}
