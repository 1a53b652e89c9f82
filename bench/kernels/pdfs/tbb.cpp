// pdfs, oneTBB: every visit runs in one task_group; a visit that claims its node adds a task
// for each neighbour that still looks unvisited, and one wait() at the top ends the search
// (terminally strict, like SLAW's finish). Tasks never wait, so nothing nests on the stack.
#include <tbb/task_group.h>

#include "../../kernel.hpp"
#include "common.hpp"

namespace {

struct search {
  pdfs_kernel::torus t;
  pdfs_kernel::parents* p;
  tbb::task_group* group;
};

void visit(const search* s, int node, int from) {
  if (!s->p->claim(node, from)) return;
  int nb[4];
  s->t.neighbours(node, nb);
  for (int next : nb) {
    if (s->p->unvisited(next)) s->group->run([s, next, node] { visit(s, next, node); });
  }
}

}  // namespace

bench::outcome pdfs_tbb(const bench::args& a) {
  const auto body = [](pdfs_kernel::instance& in) {
    tbb::task_group group;
    const search s{in.t, &in.p, &group};
    group.run([&s] { visit(&s, pdfs_kernel::root, pdfs_kernel::root); });
    group.wait();
  };
  return bench::measure(a.size, pdfs_kernel::setup, body, pdfs_kernel::check);
}
