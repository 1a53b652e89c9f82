// scan, locus: the two-pass blocked scan, each parallel pass split in halves over blocks down
// to one block (locus_blocks.hpp). Every task declares its blocks: pass 1 reads their values
// and writes their sums, pass 3 reads their values and offsets and writes their output; the
// serial pass 2 between them reads and writes every block's sum. The setup draws the input
// (the generator jumped ahead to each block's start) and zeroes the output and the sums in
// tasks of the same blocks, untimed: their first touch.
//
// --schedule stows / stuws / relws (issue 8): the first touch is traced, and each parallel
// pass is a phase of its own that replays it in the mode; pass 2 runs between them on the
// calling thread.
#include <locus/locus.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "../../kernel.hpp"
#include "../locus_blocks.hpp"
#include "../locus_replay.hpp"
#include "common.hpp"

namespace {

using bench::ranges;
using locus::access;
using scan_kernel::passes;

/// Values [lo * block, hi * block) of `v` (the last block may be short).
template <std::size_t N>
void blocks_of(ranges<N>& r, const passes& p, const double* v, int lo, int hi, access mode) {
  const std::size_t from = static_cast<std::size_t>(lo) * scan_kernel::block;
  const std::size_t to = std::min(p.n, static_cast<std::size_t>(hi) * scan_kernel::block);
  r.add(v + from, to - from, mode);
}

/// Entries [lo, hi) of the per-block sums.
template <std::size_t N>
void sums_of(ranges<N>& r, const passes& p, int lo, int hi, access mode) {
  r.add(p.part + lo, static_cast<std::size_t>(hi - lo), mode);
}

/// Pass 1: every block's sum.
locus::task<void> sum_pass(passes p) {
  const int nb = static_cast<int>(p.count());
  const auto sum = [p](int lo, int hi) {
    for (int b = lo; b < hi; ++b)
      p.sum(static_cast<std::size_t>(b));
  };
  const auto sum_data = [p](int lo, int hi) {
    ranges<2> r;
    blocks_of(r, p, p.src, lo, hi, access::read);
    sums_of(r, p, lo, hi, access::write);
    return r;
  };
  co_await bench::for_declared(0, nb, 1, &sum, &sum_data);
}

/// Pass 2 (serial): the blocks' offsets from their sums.
locus::task<void> offset_pass(passes p) {
  locus::touch(p.part, p.count() * sizeof(double), access::read_write);
  p.offsets();
  co_return;
}

/// Pass 3: every block's output from its values and offset.
locus::task<void> scan_pass(passes p) {
  const int nb = static_cast<int>(p.count());
  const auto scan_leaf = [p](int lo, int hi) {
    for (int b = lo; b < hi; ++b)
      p.scan(static_cast<std::size_t>(b));
  };
  const auto scan_data = [p](int lo, int hi) {
    ranges<3> r;
    blocks_of(r, p, p.src, lo, hi, access::read);
    sums_of(r, p, lo, hi, access::read);
    blocks_of(r, p, p.dst, lo, hi, access::write);
    return r;
  };
  co_await bench::for_declared(0, nb, 1, &scan_leaf, &scan_data);
}

locus::task<void> scan(passes p) {
  co_await sum_pass(p);
  co_await offset_pass(p);
  co_await scan_pass(p);
}

/// The state of scan_kernel::draws after `steps` draws: x -> a x + c applied `steps` times,
/// composed by squaring (mod 2^64, as the generator computes). Its constants are the
/// generator's; the check compares every value with the generator's own draws.
std::uint64_t lcg_after(std::uint64_t steps) {
  std::uint64_t mul = 6364136223846793005ULL;  // the map x -> mul x + add, squared each round
  std::uint64_t add = 1442695040888963407ULL;
  std::uint64_t x = 7;  // draws' seed
  for (; steps != 0; steps >>= 1) {
    if (steps & 1) x = x * mul + add;
    add = add * mul + add;
    mul = mul * mul;
  }
  return x;
}

/// Draws the input (each block from the generator's state at its first value) and zeroes the
/// output and the sums, block by block in tasks.
locus::task<void> first_touch(passes p) {
  const auto leaf = [p](int lo, int hi) {
    const std::size_t from = static_cast<std::size_t>(lo) * scan_kernel::block;
    const std::size_t to = std::min(p.n, static_cast<std::size_t>(hi) * scan_kernel::block);
    auto* src = const_cast<double*>(p.src);
    std::uint64_t x = lcg_after(from);
    for (std::size_t i = from; i < to; ++i) {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      src[i] = static_cast<double>(x >> (64 - scan_kernel::fraction_bits)) * scan_kernel::unit;
    }
    std::fill(p.dst + from, p.dst + to, 0.0);
    std::fill(p.part + lo, p.part + hi, 0.0);
  };
  const auto data = [p](int lo, int hi) {
    ranges<3> r;
    blocks_of(r, p, p.src, lo, hi, access::write);
    blocks_of(r, p, p.dst, lo, hi, access::write);
    sums_of(r, p, lo, hi, access::write);
    return r;
  };
  co_await bench::for_declared(0, static_cast<int>(p.count()), 1, &leaf, &data);
}

}  // namespace

bench::outcome scan_locus(const bench::args& a) {
  bench::replayed_phases phases(a);
  const auto setup = [&a, &phases](const std::string& size) {
    const std::size_t n = scan_kernel::parse(size);
    scan_kernel::instance in{n, std::vector<double>(n), std::vector<double>(n),
                             std::vector<double>(scan_kernel::blocks(n))};
    phases.setup(first_touch(in.pointers()));
    a.rt->reset_stats();  // what follows is the kernel's
    return in;
  };
  const auto body = [&a, &phases](scan_kernel::instance& in) {
    if (!phases.replay()) {
      phases.whole(scan(in.pointers()));
      return;
    }
    phases.phase(sum_pass(in.pointers()));
    a.rt->run(offset_pass(in.pointers()));  // on a worker, as under random: it is counted
    phases.phase(scan_pass(in.pointers()));
  };
  return bench::measure(a.size, setup, body, scan_kernel::check);
}
