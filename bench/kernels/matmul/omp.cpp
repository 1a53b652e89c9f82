// matmul, OpenMP: row and column splits make the first half a task and run the second inline;
// an inner split runs its halves in order.
#include <omp.h>

#include "../../kernel.hpp"
#include "common.hpp"

namespace {

using matmul_kernel::block_args;
using matmul_kernel::split;

void multiply(const block_args& x) {
  const split s = matmul_kernel::choose(x);
  if (s == split::base) {
    matmul_kernel::base_case(x);
    return;
  }
  const auto [lo, hi] = matmul_kernel::halves(x, s);
  if (s == split::inner) {
    multiply(lo);
    multiply(hi);
    return;
  }
  const block_args first = lo;
#pragma omp task firstprivate(first)
  multiply(first);
  multiply(hi);
#pragma omp taskwait
}

}  // namespace

bench::outcome matmul_omp(const bench::args& a) {
  matmul_kernel::problem pr(matmul_kernel::parse_n(a.size));
  const block_args whole = pr.whole();
  bench::outcome out;
  const bench::stopwatch clock;
#pragma omp parallel
#pragma omp single
  multiply(whole);
  out.seconds = clock.seconds();
  matmul_kernel::check(out, pr);
  return out;
}
