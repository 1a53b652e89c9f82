// stencil3d25, oneTBB: stencil::run_tbb (stencil_tbb.hpp).
#include "../../kernel.hpp"
#include "../stencil_tbb.hpp"
#include "common.hpp"

bench::outcome stencil3d25_tbb(const bench::args& a) {
  return stencil::run_tbb<stencil3d25_kernel::spec>(a);
}
