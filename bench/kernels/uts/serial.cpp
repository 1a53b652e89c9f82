// uts, serial: depth-first recursion over the tree, one plain call per node.
#include "../../kernel.hpp"
#include "common.hpp"

namespace {

using uts_kernel::node;
using uts_kernel::tally;

tally visit(const uts_kernel::tree_spec& t, const node& n) {
  const int count = uts_kernel::num_children(t, n);
  tally sum{1, count == 0 ? 1 : 0, n.height};
  for (int i = 0; i < count; ++i)
    sum.add(visit(t, uts_kernel::child(n, i)));
  return sum;
}

}  // namespace

bench::outcome uts_serial(const bench::args& a) {
  const auto body = [](const uts_kernel::tree_spec& t) { return visit(t, uts_kernel::root(t)); };
  return bench::measure(a.size, uts_kernel::parse, body, uts_kernel::check,
                        uts_kernel::on_deep_stack{});
}
