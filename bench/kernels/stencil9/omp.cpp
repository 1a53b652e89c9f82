// stencil9, OpenMP: stencil::run_omp (stencil_omp.hpp).
#include "../../kernel.hpp"
#include "../stencil_omp.hpp"
#include "common.hpp"

bench::outcome stencil9_omp(const bench::args& a) {
  return stencil::run_omp<stencil9_kernel::spec>(a);
}
