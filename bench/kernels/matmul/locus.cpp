// matmul, locus: row and column splits spawn the first half and run the second inline; an
// inner split awaits its halves in order. A base case declares what it touches: its block of
// A and B (read) and of C (read and written), one range per block row, since a block's rows
// are ld apart (locus::touch; only with accounting on, so that off it costs one test per base
// case). The setup writes A, B and C in tasks over row blocks, untimed: their first touch.
#include <locus/locus.hpp>

#include <array>
#include <vector>

#include "../../kernel.hpp"
#include "../locus_rows.hpp"
#include "common.hpp"

namespace {

using locus::access;
using matmul_kernel::block_args;
using matmul_kernel::split;

/// The rows of a base case's blocks, as accesses.
void touch_block(const block_args& x) {
  for (std::size_t i = 0; i < x.m; ++i) {
    locus::touch(x.a + i * x.ld, x.n * sizeof(double), access::read);
    locus::touch(x.c + i * x.ld, x.p * sizeof(double), access::read_write);
  }
  for (std::size_t k = 0; k < x.n; ++k)
    locus::touch(x.b + k * x.ld, x.p * sizeof(double), access::read);
}

locus::task<void> multiply(block_args x, bool count) {
  const split s = matmul_kernel::choose(x);
  if (s == split::base) {
    if (count) touch_block(x);
    matmul_kernel::base_case(x);
    co_return;
  }
  const auto halves = matmul_kernel::halves(x, s);
  if (s == split::inner) {
    co_await multiply(halves.first, count);
    co_await multiply(halves.second, count);
    co_return;
  }
  co_await locus::spawn(multiply(halves.first, count));
  co_await multiply(halves.second, count);
  co_await locus::sync();
}

/// Rows per first-touch task.
constexpr int touch_rows = 16;

/// Copies A and B from `from` and zeroes C, rows split in halves (the root declares all rows of
/// the three; every leaf inherits its own).
locus::task<void> first_touch(matmul_kernel::problem* pr, const matmul_kernel::problem* from) {
  const int n = static_cast<int>(pr->n);
  const auto leaf = [pr, from](int lo, int hi) {
    const std::size_t b = static_cast<std::size_t>(lo) * pr->n;
    const std::size_t e = static_cast<std::size_t>(hi) * pr->n;
    for (std::size_t k = b; k < e; ++k) {
      pr->a[k] = from->a[k];
      pr->b[k] = from->b[k];
      pr->c[k] = 0.0;
    }
  };
  const std::array<locus::data_range, 3> data{bench::rows_of(pr->a.data(), n, 0, n, access::write),
                                              bench::rows_of(pr->b.data(), n, 0, n, access::write),
                                              bench::rows_of(pr->c.data(), n, 0, n, access::write)};
  auto init = locus::with_data(bench::split_rows(0, n, touch_rows, &leaf), data,
                               bench::row_split<double>(n));
  co_await std::move(init);
}

}  // namespace

bench::outcome matmul_locus(const bench::args& a) {
  const bool count = a.rt->cfg().accounting;
  const auto setup = [&a](const std::string& size) {
    matmul_kernel::problem pr = matmul_kernel::setup(size);
    const matmul_kernel::problem from = pr;
    a.rt->run(first_touch(&pr, &from));
    a.rt->reset_stats();  // what follows is the kernel's
    return pr;
  };
  const auto body = [&a, count](matmul_kernel::problem& pr) {
    a.rt->run(multiply(pr.whole(), count));
  };
  return bench::measure(a.size, setup, body, matmul_kernel::check);
}
