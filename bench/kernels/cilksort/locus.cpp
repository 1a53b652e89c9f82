// cilksort, locus: the four quarter sorts, the two pairwise merges and the two sides of a split
// merge are spawned (the last of each group runs inline), each group closed by a sync. Every
// task carries its data (locus::with_data): a sort its range (read and written) and, when it
// splits, the same range of the scratch array; a merge its two inputs (read) and its output
// (written). A split merge also reads the middle element of its larger input and writes it to
// its place (locus::touch); the binary search for that place (log n probes of the smaller
// input) is not declared. The setup writes the input and the scratch array in tasks, untimed:
// their first touch.
#include <locus/locus.hpp>

#include <algorithm>
#include <vector>

#include "../../kernel.hpp"
#include "../locus_blocks.hpp"
#include "common.hpp"

namespace {

using bench::ranges;
using cilksort_kernel::elem;
using cilksort_kernel::instance;
using cilksort_kernel::merge_args;
using locus::access;

locus::task<void> merge_body(merge_args in);
locus::task<void> sort_body(elem* a, elem* tmp, std::size_t n);

/// A merge task carrying its inputs and output.
locus::task<void> merge(const merge_args& m) {
  const auto n1 = static_cast<std::size_t>(m.hi1 - m.lo1);
  const auto n2 = static_cast<std::size_t>(m.hi2 - m.lo2);
  ranges<3> r;
  r.add(m.lo1, n1, access::read);
  r.add(m.lo2, n2, access::read);
  r.add(m.dest, n1 + n2, access::write);
  return bench::declared(merge_body(m), r);
}

/// A sort task carrying its range (and its scratch range, where it splits).
locus::task<void> sort(elem* a, elem* tmp, std::size_t n) {
  ranges<2> r;
  r.add(a, n, access::read_write);
  if (n >= cilksort_kernel::k_quick_size) r.add(tmp, n, access::read_write);
  return bench::declared(sort_body(a, tmp, n), r);
}

locus::task<void> merge_body(merge_args in) {
  // A new variable, not `in = in.normalised()`: gcc 12 at -O0 builds the returned aggregate in
  // place over the coroutine's copy of the parameter, reading fields it already overwrote.
  const merge_args m = in.normalised();
  if (cilksort_kernel::merge_leaf(m)) co_return;
  const auto halves = cilksort_kernel::split_merge(m);
  locus::touch(halves.second.lo1 - 1, sizeof(elem), access::read);
  locus::touch(halves.second.dest - 1, sizeof(elem), access::write);
  co_await locus::spawn(merge(halves.first));
  co_await merge(halves.second);
  co_await locus::sync();
}

locus::task<void> sort_body(elem* a, elem* tmp, std::size_t n) {
  if (cilksort_kernel::sort_leaf(a, n)) co_return;
  const cilksort_kernel::sort_plan p(a, tmp, n);
  for (int q = 0; q < 3; ++q)
    co_await locus::spawn(sort(p.part(q), p.scratch(q), p.size(q)));
  co_await sort(p.part(3), p.scratch(3), p.size(3));
  co_await locus::sync();
  co_await locus::spawn(merge(p.pair_merge(0)));
  co_await merge(p.pair_merge(1));
  co_await locus::sync();
  co_await merge(p.final_merge());
}

/// Copies the input from `from` and zeroes the scratch array in tasks of k_quick_size elements.
locus::task<void> first_touch(instance* in, const std::vector<elem>* from) {
  constexpr std::size_t chunk = cilksort_kernel::k_quick_size;
  const std::size_t n = in->data.size();
  elem* a = in->data.data();
  elem* tmp = in->tmp.data();
  const auto span = [n](int lo, int hi) {
    return std::pair{static_cast<std::size_t>(lo) * chunk,
                     std::min(n, static_cast<std::size_t>(hi) * chunk)};
  };
  const auto leaf = [a, tmp, from, span](int lo, int hi) {
    const auto [b, e] = span(lo, hi);
    std::copy(from->begin() + static_cast<std::ptrdiff_t>(b),
              from->begin() + static_cast<std::ptrdiff_t>(e), a + b);
    std::fill(tmp + b, tmp + e, elem{0});
  };
  const auto data = [a, tmp, span](int lo, int hi) {
    const auto [b, e] = span(lo, hi);
    ranges<2> r;
    r.add(a + b, e - b, access::write);
    r.add(tmp + b, e - b, access::write);
    return r;
  };
  co_await bench::for_declared(0, static_cast<int>((n + chunk - 1) / chunk), 1, &leaf, &data);
}

}  // namespace

bench::outcome cilksort_locus(const bench::args& a) {
  const auto setup = [&a](const std::string& size) {
    instance in = cilksort_kernel::setup(size);
    const std::vector<elem> from = in.data;
    a.rt->run(first_touch(&in, &from));
    a.rt->reset_stats();  // what follows is the kernel's
    return in;
  };
  const auto body = [&a](instance& in) {
    a.rt->run(sort(in.data.data(), in.tmp.data(), in.data.size()));
  };
  return bench::measure(a.size, setup, body, cilksort_kernel::check);
}
