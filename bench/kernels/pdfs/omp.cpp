// pdfs, OpenMP: one explicit task per visit of an unvisited-looking neighbour, inside one
// parallel/single region whose closing barrier waits for them all.
//
// One deviation, needed to run at all: libgomp runs a new task at once, inside the task that
// creates it, when more than 64 tasks per thread are queued. On a torus the depth-first chain
// of such nested visits can be millions long and overflows the thread's stack. So each thread
// counts how deeply its visits are nested, and past max_nesting a visit does not create tasks:
// it walks the rest of its part of the search with an explicit stack, as the serial version
// does (the queue is full then, so the other threads are not short of work).
#include <vector>

#include "../../kernel.hpp"
#include "../omp_single.hpp"
#include "common.hpp"

namespace {

constexpr int max_nesting = 256;
thread_local int t_nesting = 0;

struct search {
  pdfs_kernel::torus t;
  pdfs_kernel::parents* p;
};

/// Visits the part of the torus reachable from `node` through unclaimed nodes, serially.
void visit_iteratively(const search* s, int node, int from) {
  struct pending {
    int node;
    int from;
  };
  std::vector<pending> stack{{node, from}};
  while (!stack.empty()) {
    const pending v = stack.back();
    stack.pop_back();
    if (!s->p->claim(v.node, v.from)) continue;
    int nb[4];
    s->t.neighbours(v.node, nb);
    for (int k = 3; k >= 0; --k) {
      if (s->p->unvisited(nb[k])) stack.push_back({nb[k], v.node});
    }
  }
}

void visit(const search* s, int node, int from) {
  if (t_nesting >= max_nesting) {
    visit_iteratively(s, node, from);
    return;
  }
  if (!s->p->claim(node, from)) return;
  int nb[4];
  s->t.neighbours(node, nb);
  ++t_nesting;  // tasks created below may run inline, nested in this call
  for (int next : nb) {
    if (s->p->unvisited(next)) {
#pragma omp task firstprivate(s, next, node)
      visit(s, next, node);
    }
  }
  --t_nesting;
}

}  // namespace

bench::outcome pdfs_omp(const bench::args& a) {
  const auto body = [](pdfs_kernel::instance& in) {
    const search s{in.t, &in.p};
    bench::omp_single([sp = &s] { visit(sp, pdfs_kernel::root, pdfs_kernel::root); });
  };
  return bench::measure(a.size, pdfs_kernel::setup, body, pdfs_kernel::check);
}
