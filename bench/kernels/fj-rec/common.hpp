// fj-rec: SLAW's recursive fork-join. One round is a binary tree of spawns over [0, N) whose N
// leaves are empty tasks (N = 1024: depth 10); an inner node spawns its left half and runs its
// right half inline, then syncs. The timed region repeats the round R times. Sizes, slots and
// verification are fj's (every leaf must have run exactly R times). Small and default: 1024.
#pragma once

#include "../fj/common.hpp"

namespace fj_rec_kernel {

using fj_kernel::instance;
using fj_kernel::slot;

/// measure()'s setup: fj's, with errors naming fj-rec.
[[nodiscard]] inline instance setup(const std::string& size) {
  return fj_kernel::instance_of(fj_kernel::parse(size, "fj-rec"));
}

/// The timed region of the versions whose tree(slots, lo, hi) is a function (all but locus's
/// coroutine): R rounds of the tree over every slot.
template <class Tree>
void rounds(instance& in, Tree tree) {
  for (std::size_t r = 0; r < in.s.rounds; ++r)
    tree(in.slots.data(), 0, in.s.tasks);
}

inline void check(bench::outcome& out, const instance& in) {
  fj_kernel::check(out, in);
  out.detail = "binary tree, " + out.detail;
}

}  // namespace fj_rec_kernel
