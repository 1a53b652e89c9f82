// matmul, locus: row and column splits spawn the first half and run the second inline; an
// inner split awaits its halves in order.
#include <locus/locus.hpp>

#include "../../kernel.hpp"
#include "common.hpp"

namespace {

using matmul_kernel::block_args;
using matmul_kernel::split;

locus::task<void> multiply(block_args x) {
  const split s = matmul_kernel::choose(x);
  if (s == split::base) {
    matmul_kernel::base_case(x);
    co_return;
  }
  const auto halves = matmul_kernel::halves(x, s);
  if (s == split::inner) {
    co_await multiply(halves.first);
    co_await multiply(halves.second);
    co_return;
  }
  co_await locus::spawn(multiply(halves.first));
  co_await multiply(halves.second);
  co_await locus::sync();
}

}  // namespace

bench::outcome matmul_locus(const bench::args& a) {
  const auto body = [&a](matmul_kernel::problem& pr) { a.rt->run(multiply(pr.whole())); };
  return bench::measure(a.size, matmul_kernel::setup, body, matmul_kernel::check);
}
