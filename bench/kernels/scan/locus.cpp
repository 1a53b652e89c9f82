// scan, locus: the two-pass blocked scan, each parallel pass split in halves over blocks down
// to one block (locus_blocks.hpp). Every task declares its blocks: pass 1 reads their values
// and writes their sums, pass 3 reads their values and offsets and writes their output; the
// serial pass 2 between them reads and writes every block's sum. The setup draws the input
// (the generator jumped ahead to each block's start) and zeroes the output and the sums in
// tasks of the same blocks, untimed: their first touch.
//
// --schedule stows / stuws / relws (issue 8): the first touch is traced, and each parallel
// pass is a phase of its own that replays it in the mode; pass 2 runs between them on the
// calling thread. --schedule loop runs the paper's iterative RelWS locality loop
// (bench::loop_setup) on the first touch and pass 1 during setup, each redistribution into
// fresh arrays, and replays the schedule it settles on under stows for both passes;
// --schedule designed runs the first touch and both passes under a designed block partition
// (worker w the w-th contiguous share of the blocks) under stuws.
#include <locus/locus.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
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

/// A parallel pass over blocks: leaf(lo, hi) on blocks [lo, hi), declare(lo, hi) what it touches.
template <class Leaf, class Declare>
struct block_pass {
  Leaf leaf;
  Declare declare;
};
template <class Leaf, class Declare>
block_pass(Leaf, Declare) -> block_pass<Leaf, Declare>;

/// A pass as one task, split in halves down to one block.
template <class Leaf, class Declare>
locus::task<void> as_task(passes p, block_pass<Leaf, Declare> b) {
  co_await bench::for_declared(0, static_cast<int>(p.count()), 1, &b.leaf, &b.declare);
}

/// Pass 1: every block's sum.
auto sum_pass(passes p) {
  return block_pass{[p](int lo, int hi) {
                      for (int b = lo; b < hi; ++b)
                        p.sum(static_cast<std::size_t>(b));
                    },
                    [p](int lo, int hi) {
                      ranges<2> r;
                      blocks_of(r, p, p.src, lo, hi, access::read);
                      sums_of(r, p, lo, hi, access::write);
                      return r;
                    }};
}

/// Pass 2 (serial): the blocks' offsets from their sums.
locus::task<void> offset_pass(passes p) {
  locus::touch(p.part, p.count() * sizeof(double), access::read_write);
  p.offsets();
  co_return;
}

/// Pass 3: every block's output from its values and offset.
auto scan_pass(passes p) {
  return block_pass{[p](int lo, int hi) {
                      for (int b = lo; b < hi; ++b)
                        p.scan(static_cast<std::size_t>(b));
                    },
                    [p](int lo, int hi) {
                      ranges<3> r;
                      blocks_of(r, p, p.src, lo, hi, access::read);
                      sums_of(r, p, lo, hi, access::read);
                      blocks_of(r, p, p.dst, lo, hi, access::write);
                      return r;
                    }};
}

locus::task<void> scan(passes p) {
  co_await as_task(p, sum_pass(p));
  co_await offset_pass(p);
  co_await as_task(p, scan_pass(p));
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
/// output and the sums, block by block: the first touch.
auto initial_values(passes p) {
  return block_pass{
      [p](int lo, int hi) {
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
      },
      [p](int lo, int hi) {
        ranges<3> r;
        blocks_of(r, p, p.src, lo, hi, access::write);
        blocks_of(r, p, p.dst, lo, hi, access::write);
        sums_of(r, p, lo, hi, access::write);
        return r;
      }};
}

}  // namespace

bench::outcome scan_locus(const bench::args& a) {
  bench::replayed_phases phases(a);
  // The loop's redistributions write fresh arrays; the replaced ones stay allocated until the
  // run ends (bench::loop_setup).
  std::vector<scan_kernel::instance> retired;
  const auto designed = [&a](passes p, auto b) {
    bench::designed_loop(*a.rt, static_cast<int>(p.count()), a.workers, b.leaf, b.declare);
  };
  const auto setup = [&](const std::string& size) {
    const std::size_t n = scan_kernel::parse(size);
    const auto fresh = [n] {
      return scan_kernel::instance{n, std::vector<double>(n), std::vector<double>(n),
                                   std::vector<double>(scan_kernel::blocks(n))};
    };
    scan_kernel::instance in = fresh();
    if (phases.loop()) {
      // The loop's kernel is pass 1 (it writes only the sums, which the timed pass 1
      // rewrites; loop_setup rewrites every initial value after the loop anyway).
      phases.setup_loop(
          [&] {
            retired.push_back(std::move(in));
            in = fresh();
          },
          [&] { return as_task(in.pointers(), initial_values(in.pointers())); },
          [&] { return as_task(in.pointers(), sum_pass(in.pointers())); });
    } else if (phases.design()) {
      designed(in.pointers(), initial_values(in.pointers()));
    } else {
      phases.setup(as_task(in.pointers(), initial_values(in.pointers())));
    }
    a.rt->reset_stats();  // what follows is the kernel's
    return in;
  };
  const auto body = [&](scan_kernel::instance& in) {
    const passes p = in.pointers();
    if (!phases.replay()) {
      phases.whole(scan(p));
      return;
    }
    if (phases.design()) {
      designed(p, sum_pass(p));
    } else {
      phases.phase(as_task(p, sum_pass(p)));
    }
    a.rt->run(offset_pass(p));  // on a worker, as under random: it is counted
    if (phases.design()) {
      designed(p, scan_pass(p));
    } else {
      phases.phase(as_task(p, scan_pass(p)));
    }
  };
  bench::outcome out = bench::measure(a.size, setup, body, scan_kernel::check);
  out.detail += phases.detail();
  return out;
}
