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
  const pdfs_kernel::torus t = pdfs_kernel::parse(a.size);
  pdfs_kernel::parents p(t.nodes());
  const search s{t, &p};
  bench::outcome out;
  const bench::stopwatch clock;
  a.rt->run(run_search(&s));
  out.seconds = clock.seconds();
  pdfs_kernel::check(out, t, p);
  return out;
}
