// matmul, OpenMP: row and column splits make the first half a task and run the second inline;
// an inner split runs its halves in order.
#include <omp.h>

#include "../../kernel.hpp"
#include "../omp_single.hpp"
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
  const auto body = [](matmul_kernel::problem& pr) {
    bench::omp_single([&pr] { multiply(pr.whole()); });
  };
  return bench::measure(a.size, matmul_kernel::setup, body, matmul_kernel::check);
}
