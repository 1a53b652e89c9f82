// fj-rec: SLAW's recursive fork-join. One round is a binary tree of spawns over [0, N) whose N
// leaves are empty tasks (N = 1024: depth 10); an inner node spawns its left half and runs its
// right half inline, then syncs. The timed region repeats the round R times. Sizes, slots and
// verification are fj's (every leaf must have run exactly R times). Small and default: 1024.
#pragma once

#include "../fj/common.hpp"

namespace fj_rec_kernel {

using fj_kernel::shape;
using fj_kernel::slot;

[[nodiscard]] inline shape parse(const std::string& size) {
  return fj_kernel::parse(size, "fj-rec");
}

inline void check(bench::outcome& out, const shape& s, const std::vector<slot>& slots) {
  fj_kernel::check(out, s, slots);
  out.detail = "binary tree, " + out.detail;
}

}  // namespace fj_rec_kernel
