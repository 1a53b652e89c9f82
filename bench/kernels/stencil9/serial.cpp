// stencil9, serial: every interior point of every time step, in order (stencil_locus.hpp).
#include "../../kernel.hpp"
#include "../stencil_locus.hpp"
#include "common.hpp"

bench::outcome stencil9_serial(const bench::args& a) {
  return stencil::run_serial<stencil9_kernel::spec>(a);
}
