// stencil3d25, locus: one root per time step, the planes split in halves down to leaf_planes, every
// task declaring what it reads (halo included) and writes; grids from locus's allocator,
// first-touched in tasks of the same split (stencil_locus.hpp).
#include "../../kernel.hpp"
#include "../stencil_locus.hpp"
#include "common.hpp"

bench::outcome stencil3d25_locus(const bench::args& a) {
  return stencil::run_locus<stencil3d25_kernel::spec>(a);
}
