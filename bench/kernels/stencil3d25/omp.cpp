// stencil3d25, OpenMP: stencil::run_omp (stencil_omp.hpp).
#include "../../kernel.hpp"
#include "../stencil_omp.hpp"
#include "common.hpp"

bench::outcome stencil3d25_omp(const bench::args& a) {
  return stencil::run_omp<stencil3d25_kernel::spec>(a);
}
