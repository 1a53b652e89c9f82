// matmul, oneTBB: row and column splits run the first half as a task and the second inline;
// an inner split runs its halves in order.
#include <tbb/task_group.h>

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
  tbb::task_group g;
  g.run([lo = lo] { multiply(lo); });
  multiply(hi);
  g.wait();
}

}  // namespace

bench::outcome matmul_tbb(const bench::args& a) {
  return bench::measure(
      a.size, matmul_kernel::setup, [](matmul_kernel::problem& pr) { multiply(pr.whole()); },
      matmul_kernel::check);
}
