// nqueens, locus: the traversal is locus_solve (locus_solve.hpp), shared with the doc drivers.
#include <locus/locus.hpp>

#include "../../kernel.hpp"
#include "common.hpp"
#include "locus_solve.hpp"

bench::outcome nqueens_locus(const bench::args& a) {
  const auto body = [&a](nqueens_kernel::problem p) {
    return a.rt->run(nqueens_kernel::locus_solve(p, nqueens_kernel::board{}, 0));
  };
  return bench::measure(a.size, nqueens_kernel::parse, body, nqueens_kernel::check);
}
