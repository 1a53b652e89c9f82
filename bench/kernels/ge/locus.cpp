// ge, locus: one root per pivot (bench::run_iterations); the rows below the pivot are split in
// halves (first spawned, second called) down to `leaf` rows. Every task declares what its
// subtree touches (issue 18):
//   its rows' windows a[i][k..n) (read/write), first, and the pivot row's window a[k][k..n)
//   (read).
// A block's windows are not contiguous (columns left of k are not touched), so an inner task
// declares the span from a[lo][k] to the end of row hi-1 (a scheduler reads where the data
// starts and how much there is); a leaf declares the same span, and, with accounting on, calls
// one task per row declaring that row's window and the pivot's exactly, so the counted bytes
// are the bytes touched: (n - k) per row for the row and (n - k) for the pivot row it reads.
// With accounting off a leaf updates its rows in one call.
//
// The matrix comes from locus's allocator; the setup first-touches it in tasks of pivot 0's
// split (rows 1..n-1, the first leaf also row 0), declared as writes of whole rows.
#include <locus/locus.hpp>

#include <array>

#include "../../kernel.hpp"
#include "../iterative.hpp"
#include "../locus_declared_rows.hpp"
#include "common.hpp"

namespace {

using ge_kernel::instance;
using ge_kernel::problem;

/// The window a[i][k..n) of rows [lo, hi) as one span.
locus::data_range windows(const problem& pr, const double* a, int k, int lo, int hi,
                          locus::access mode) {
  const std::size_t n = static_cast<std::size_t>(pr.n);
  return locus::data_range::of(a + lo * n + k, (hi - 1 - lo) * n + (n - k), mode);
}

/// Row i's update, declaring exactly its window and the pivot's.
locus::task<void> row_update(const problem* pr, double* a, int k, int i) {
  ge_kernel::update_rows(*pr, a, k, i, i + 1);
  co_return;
}

locus::task<void> rows(const problem* pr, double* a, int k, int lo, int hi);

locus::task<void> rows_split(const problem* pr, double* a, int k, int lo, int hi) {
  if (hi - lo <= pr->leaf) {
    if (!locus::accounting_active()) {
      ge_kernel::update_rows(*pr, a, k, lo, hi);
      co_return;
    }
    for (int i = lo; i < hi; ++i) {
      const std::array<locus::data_range, 2> exact{
          windows(*pr, a, k, i, i + 1, locus::access::read_write),
          windows(*pr, a, k, k, k + 1, locus::access::read)};
      co_await locus::with_data(row_update(pr, a, k, i), exact);
    }
    co_return;
  }
  const int mid = lo + (hi - lo) / 2;
  co_await locus::spawn(rows(pr, a, k, lo, mid));
  co_await rows(pr, a, k, mid, hi);
  co_await locus::sync();
}

/// Pivot k's update of rows [lo, hi), carrying its subtree's data. Its rows come first: a
/// scheduler places a task by its first range (LAWS's Eq. 1 owner, docs/design/0017), and the
/// pivot row every task reads would put them all on the pivot's socket.
locus::task<void> rows(const problem* pr, double* a, int k, int lo, int hi) {
  const std::array<locus::data_range, 2> data{windows(*pr, a, k, lo, hi, locus::access::read_write),
                                              windows(*pr, a, k, k, k + 1, locus::access::read)};
  return locus::with_data(rows_split(pr, a, k, lo, hi), data);
}

/// Writes the input in tasks of pivot 0's split.
locus::task<void> first_touch(instance* in) {
  const problem& pr = in->pr;
  double* a = in->a.data();
  const auto leaf = [&pr, a](int lo, int hi) { ge_kernel::init_rows(pr, a, lo == 1 ? 0 : lo, hi); };
  const auto declare = [&pr, a](int lo, int hi) {
    if (lo == 1) lo = 0;
    bench::ranges<1> d;
    d.add(a + static_cast<std::size_t>(lo) * pr.n, static_cast<std::size_t>(hi - lo) * pr.n,
          locus::access::write);
    return d;
  };
  co_await bench::rows_declared(1, pr.n, pr.leaf, &leaf, &declare);
}

}  // namespace

bench::outcome ge_locus(const bench::args& a) {
  const auto setup = [&a](const std::string& size) {
    instance in{ge_kernel::parse(size), {}};
    in.a = bench::grid_buffer<double>(*a.rt, static_cast<std::size_t>(in.pr.n) * in.pr.n);
    a.rt->run(first_touch(&in));
    a.rt->reset_stats();  // what follows is the kernel's
    return in;
  };
  const auto body = [&a](instance& in) {
    bench::run_iterations(*a.rt, static_cast<std::size_t>(in.pr.n - 1), [&in](std::size_t k) {
      return rows(&in.pr, in.a.data(), static_cast<int>(k), static_cast<int>(k) + 1, in.pr.n);
    });
  };
  return bench::measure(a.size, setup, body, ge_kernel::check);
}
