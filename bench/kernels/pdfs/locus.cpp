// pdfs, locus: terminally strict, as in SLAW: every visit is a locus::async inside one
// locus::finish, which waits for all of them, transitively. A visit that claims its node
// launches a visit of each neighbour that still looks unvisited and returns without waiting.
#include <locus/locus.hpp>

#include "../../kernel.hpp"
#include "common.hpp"

namespace {

struct search {
  pdfs_kernel::torus t;
  pdfs_kernel::parents* p;
};

locus::task<void> visit(const search* s, int node, int from) {
  if (!s->p->claim(node, from)) co_return;
  int nb[4];
  s->t.neighbours(node, nb);
  for (int next : nb) {
    if (s->p->unvisited(next)) co_await locus::async(visit(s, next, node));
  }
}

locus::task<void> run_search(const search* s) {
  co_await locus::finish(visit(s, pdfs_kernel::root, pdfs_kernel::root));
}

}  // namespace

bench::outcome pdfs_locus(const bench::args& a) {
  const auto body = [&a](pdfs_kernel::instance& in) {
    const search s{in.t, &in.p};
    a.rt->run(run_search(&s));
  };
  return bench::measure(a.size, pdfs_kernel::setup, body, pdfs_kernel::check);
}
