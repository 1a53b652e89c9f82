// stencil9, oneTBB: stencil::run_tbb (stencil_tbb.hpp).
#include "../../kernel.hpp"
#include "../stencil_tbb.hpp"
#include "common.hpp"

bench::outcome stencil9_tbb(const bench::args& a) {
  return stencil::run_tbb<stencil9_kernel::spec>(a);
}
