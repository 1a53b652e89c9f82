// matmul, serial: the recursion with every spawn replaced by a call.
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
  multiply(lo);
  multiply(hi);
}

}  // namespace

bench::outcome matmul_serial(const bench::args& a) {
  return bench::measure(
      a.size, matmul_kernel::setup, [](matmul_kernel::problem& pr) { multiply(pr.whole()); },
      matmul_kernel::check);
}
