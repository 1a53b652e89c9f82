// Shared by the mpi module's tests (run under mpirun by ctest): the rank's context and runtime.
#pragma once

#include <chrono>
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

/// A runtime of its own with one unpinned worker (the tests that count one worker's steps).
inline locus::runtime one_worker() {
  locus::config cfg;
  cfg.workers = 1;
  cfg.pin = false;
  return locus::runtime(cfg);
}

/// Sets options::worker_progress and busy_sleep for a test, restores them when it ends.
struct progress_guard {
  progress_guard(bool on, std::chrono::microseconds busy_sleep) {
    ctx().set_worker_progress(on, busy_sleep);
  }
  ~progress_guard() {
    ctx().set_worker_progress(ctx().opts().worker_progress, ctx().opts().busy_sleep);
  }
  progress_guard(const progress_guard&) = delete;
  progress_guard& operator=(const progress_guard&) = delete;
};

}  // namespace locus_mpi_test
