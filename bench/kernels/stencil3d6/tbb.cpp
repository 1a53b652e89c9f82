// stencil3d6, oneTBB: stencil::run_tbb (stencil_tbb.hpp).
#include "../../kernel.hpp"
#include "../stencil_tbb.hpp"
#include "common.hpp"

bench::outcome stencil3d6_tbb(const bench::args& a) {
  return stencil::run_tbb<stencil3d6_kernel::spec>(a);
}
