// stencil3d25, serial: every interior point of every time step, in order (stencil_locus.hpp).
#include "../../kernel.hpp"
#include "../stencil_locus.hpp"
#include "common.hpp"

bench::outcome stencil3d25_serial(const bench::args& a) {
  return stencil::run_serial<stencil3d25_kernel::spec>(a);
}
