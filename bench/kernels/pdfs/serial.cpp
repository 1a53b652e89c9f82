// pdfs, serial: the same visits in depth-first order, with an explicit stack of pending
// (node, parent) visits instead of recursion: a depth-first path on a torus can be as long as
// the torus has nodes (millions), far too deep for the C stack.
#include <vector>

#include "../../kernel.hpp"
#include "common.hpp"

namespace {

void search(pdfs_kernel::instance& in) {
  struct visit {
    int node;
    int from;
  };
  std::vector<visit> pending;
  pending.push_back({pdfs_kernel::root, pdfs_kernel::root});
  while (!pending.empty()) {
    const visit v = pending.back();
    pending.pop_back();
    if (!in.p.claim(v.node, v.from)) continue;
    int nb[4];
    in.t.neighbours(v.node, nb);
    // Pushed in reverse so that the first neighbour is visited first, as a spawn would be.
    for (int k = 3; k >= 0; --k) {
      if (in.p.unvisited(nb[k])) pending.push_back({nb[k], v.node});
    }
  }
}

}  // namespace

bench::outcome pdfs_serial(const bench::args& a) {
  return bench::measure(a.size, pdfs_kernel::setup, search, pdfs_kernel::check);
}
