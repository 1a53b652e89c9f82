// uts, locus: a node with children spawns each child as a task writing its tally into this
// frame's slots, and combines them after the sync.
#include <locus/locus.hpp>

#include "../../kernel.hpp"
#include "common.hpp"

namespace {

using uts_kernel::node;
using uts_kernel::tally;

locus::task<void> visit(const uts_kernel::tree_spec* t, node n, tally* result) {
  const int count = uts_kernel::num_children(*t, n);
  if (count == 0) {
    *result = tally{1, 1, n.height};
    co_return;
  }
  uts_kernel::child_slots slots(count);
  for (int i = 0; i < count; ++i)
    co_await locus::spawn(visit(t, uts_kernel::child(n, i), slots[i]));
  co_await locus::sync();
  *result = uts_kernel::combine(n, slots, count);
}

}  // namespace

bench::outcome uts_locus(const bench::args& a) {
  const auto body = [&a](const uts_kernel::tree_spec& t) {
    tally r;
    a.rt->run(visit(&t, uts_kernel::root(t), &r));
    return r;
  };
  return bench::measure(a.size, uts_kernel::parse, body, uts_kernel::check);
}
