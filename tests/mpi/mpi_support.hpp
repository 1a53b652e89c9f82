// Shared by the mpi module's tests (run under mpirun by ctest): the rank's context and runtime.
#pragma once

#include <locus/locus.hpp>
#include <locus/mpi.hpp>

namespace locus_mpi_test {

/// Set by main (mpi_main.cpp) before the tests run.
locus::mpi::context& ctx();
locus::runtime& rt();

/// Runs `t` on the rank's runtime (through the context, so a failure reaches every rank).
template <class T>
T run(locus::task<T> t) {
  return ctx().run(rt(), std::move(t));
}

}  // namespace locus_mpi_test
