// floyd, locus: for each k, the (i, j) square is split recursively in two along its longer
// side (measured in leaf blocks); one half is spawned, the other run inline, down to
// leaf_rows x leaf_cols blocks. A leaf declares what it touches (locus::touch, only with
// accounting on, so that off it costs one test per leaf): each of its block rows (read and
// written; the rows are n apart), and its slices of the pivot row and column copies. The pivot
// copy before each k reads row k and column k (one 4-byte entry per row: n touches, next to
// the n^2 / leaf_cols row touches of the step) and writes the copies. The setup writes the
// matrix in tasks of the same blocks, untimed: its first touch.
//
// --schedule stows / stuws / relws (issue 8): the first touch is traced and each k (pivot copy
// on the phase's root, then the blocks) is a phase of its own that replays it in the mode.
// --schedule loop runs the paper's iterative RelWS locality loop (bench::loop_setup) on the
// first touch and iteration 0 during setup, each redistribution into a fresh matrix, then
// rewrites the graph along the schedule it settled on (its trial iterations relax the
// matrix) and replays that schedule under stows for every k; --schedule designed runs the
// first touch and every k under a designed block partition (worker w the w-th band of rows,
// all columns; the pivot copy on the root first) under stuws.
#include <locus/locus.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "../../kernel.hpp"
#include "../locus_replay.hpp"
#include "common.hpp"

namespace {

using floyd_kernel::dist;
using floyd_kernel::step;
using locus::access;

/// leaf(i0, i1, j0, j1) over the blocks of rows [i0, i1) x columns [j0, j1).
template <class Leaf>
locus::task<void> blocks(const Leaf* leaf, int i0, int i1, int j0, int j1) {
  const int rows = i1 - i0;
  const int cols = j1 - j0;
  if (rows <= floyd_kernel::leaf_rows && cols <= floyd_kernel::leaf_cols) {
    (*leaf)(i0, i1, j0, j1);
    co_return;
  }
  // Split the side that is more leaf blocks long, so leaves keep their shape.
  if (rows * floyd_kernel::leaf_cols >= cols * floyd_kernel::leaf_rows) {
    const int mid = i0 + rows / 2;
    co_await locus::spawn(blocks(leaf, i0, mid, j0, j1));
    co_await blocks(leaf, mid, i1, j0, j1);
  } else {
    const int mid = j0 + cols / 2;
    co_await locus::spawn(blocks(leaf, i0, i1, j0, mid));
    co_await blocks(leaf, i0, i1, mid, j1);
  }
  co_await locus::sync();
}

/// Rows [i0, i1) x columns [j0, j1) of d, one access per row.
void touch_rows(const dist* d, int n, int i0, int i1, int j0, int j1, access mode) {
  const auto bytes = static_cast<std::size_t>(j1 - j0) * sizeof(dist);
  for (int i = i0; i < i1; ++i)
    locus::touch(d + static_cast<std::size_t>(i) * n + j0, bytes, mode);
}

/// The pivot copy's accesses: row k and column k of d read, the copies written.
void touch_pivot(const step& s, int k) {
  const auto bytes = static_cast<std::size_t>(s.n) * sizeof(dist);
  locus::touch(s.d + static_cast<std::size_t>(k) * s.n, bytes, access::read);
  for (int i = 0; i < s.n; ++i)
    locus::touch(s.d + static_cast<std::size_t>(i) * s.n + k, sizeof(dist), access::read);
  locus::touch(s.row, bytes, access::write);
  locus::touch(s.col, bytes, access::write);
}

/// A block of iteration k: relaxed through the pivot copies (declared when counting).
struct relax_leaf {
  step s;
  bool count;
  void operator()(int i0, int i1, int j0, int j1) const {
    if (count) {
      touch_rows(s.d, s.n, i0, i1, j0, j1, access::read_write);
      locus::touch(s.row + j0, static_cast<std::size_t>(j1 - j0) * sizeof(dist), access::read);
      locus::touch(s.col + i0, static_cast<std::size_t>(i1 - i0) * sizeof(dist), access::read);
    }
    s.relax(i0, i1, j0, j1);
  }
};

/// Iteration k: the pivot copy, then every block.
locus::task<void> iteration(floyd_kernel::instance* in, const relax_leaf* leaf, int k) {
  const step& s = leaf->s;
  if (leaf->count) touch_pivot(s, k);
  floyd_kernel::take_pivot(s.d, s.n, k, in->row.data(), in->col.data());
  co_await blocks(leaf, 0, s.n, 0, s.n);
}

locus::task<void> solve(floyd_kernel::instance* in, const relax_leaf* leaf) {
  for (int k = 0; k < leaf->s.n; ++k)
    co_await iteration(in, leaf, k);
}

/// Copies the graph from `from` into the matrix block by block, and zeroes the pivot copies,
/// in tasks.
locus::task<void> first_touch(floyd_kernel::instance* in, const std::vector<dist>* from) {
  const int n = in->n;
  dist* d = in->d.data();
  const auto leaf = [d, n, from](int i0, int i1, int j0, int j1) {
    touch_rows(d, n, i0, i1, j0, j1, access::write);
    for (int i = i0; i < i1; ++i) {
      const std::size_t r = static_cast<std::size_t>(i) * n;
      for (int j = j0; j < j1; ++j)
        d[r + j] = (*from)[r + j];
    }
  };
  co_await blocks(&leaf, 0, n, 0, n);
  const auto bytes = static_cast<std::size_t>(n) * sizeof(dist);
  locus::touch(in->row.data(), bytes, access::write);
  locus::touch(in->col.data(), bytes, access::write);
  std::fill(in->row.begin(), in->row.end(), 0);
  std::fill(in->col.begin(), in->col.end(), 0);
}

/// The designed schedule of the first touch (from != null: copy the graph, zero the pivot
/// copies) or of iteration k (the pivot copy on the root, then the blocks): worker w takes
/// the w-th band of rows, all columns.
locus::task<void> designed(floyd_kernel::instance* in, const relax_leaf* leaf, int k,
                           const std::vector<dist>* from, unsigned workers) {
  const int n = in->n;
  if (from != nullptr) {
    dist* d = in->d.data();
    const auto share = [d, n, from](int lo, int hi) {
      touch_rows(d, n, lo, hi, 0, n, access::write);
      const std::size_t a = static_cast<std::size_t>(lo) * n;
      const std::size_t b = static_cast<std::size_t>(hi) * n;
      std::copy(from->begin() + static_cast<std::ptrdiff_t>(a),
                from->begin() + static_cast<std::ptrdiff_t>(b), d + a);
    };
    const auto zero_pivots = [in, n] {
      const auto bytes = static_cast<std::size_t>(n) * sizeof(dist);
      locus::touch(in->row.data(), bytes, access::write);
      locus::touch(in->col.data(), bytes, access::write);
      std::fill(in->row.begin(), in->row.end(), 0);
      std::fill(in->col.begin(), in->col.end(), 0);
    };
    return bench::block_partition(0, n, workers, share, zero_pivots);
  }
  const auto share = [leaf, n](int lo, int hi) {
    if (lo < hi) (*leaf)(lo, hi, 0, n);
  };
  const auto pivot = [in, leaf, k] {
    if (leaf->count) touch_pivot(leaf->s, k);
    floyd_kernel::take_pivot(leaf->s.d, leaf->s.n, k, in->row.data(), in->col.data());
  };
  return bench::block_partition(0, n, workers, share, pivot);
}

}  // namespace

bench::outcome floyd_locus(const bench::args& a) {
  const bool count = a.rt->cfg().accounting;
  bench::replayed_phases phases(a);
  // The loop's redistributions write a fresh matrix and pivot copies; the replaced ones stay
  // allocated until the run ends (bench::loop_setup).
  std::vector<floyd_kernel::instance> retired;
  const auto setup = [&a, &phases, &retired, count](const std::string& size) {
    floyd_kernel::instance in = floyd_kernel::setup(size);
    const std::vector<dist> from = in.d;
    if (phases.loop()) {
      relax_leaf trial{};  // the loop's kernel (iteration 0) on the current matrix
      phases.setup_loop(
          [&] {
            const int n = in.n;
            retired.push_back(std::move(in));
            in = floyd_kernel::instance{n, std::vector<dist>(from.size()), std::vector<dist>(n),
                                        std::vector<dist>(n)};
          },
          [&] { return first_touch(&in, &from); },
          [&] {
            trial = relax_leaf{in.pointers(), count};
            return iteration(&in, &trial, 0);
          });
    } else if (phases.design()) {
      phases.designed(designed(&in, nullptr, 0, &from, a.workers));
    } else {
      phases.setup(first_touch(&in, &from));
    }
    a.rt->reset_stats();  // what follows is the kernel's
    return in;
  };
  const auto body = [&a, &phases, count](floyd_kernel::instance& in) {
    const relax_leaf leaf{in.pointers(), count};
    if (!phases.replay()) {
      phases.whole(solve(&in, &leaf));
      return;
    }
    for (int k = 0; k < leaf.s.n; ++k) {
      if (phases.design()) {
        phases.designed(designed(&in, &leaf, k, nullptr, a.workers));
      } else {
        phases.phase(iteration(&in, &leaf, k));
      }
    }
  };
  bench::outcome out = bench::measure(a.size, setup, body, floyd_kernel::check);
  out.detail += phases.detail();
  return out;
}
