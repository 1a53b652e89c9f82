// bench/kernels/iterative.hpp — the outer loop of the iterative kernels' locus versions.
//
// heat, sor, ge, stencil9, stencil3d6, stencil3d25, heat-ir and sor-ir run the same task tree
// once per outer iteration (a time step, a half-sweep, a pivot). Every such loop goes through
// run_iterations below and nowhere else, so that the iteration boundary is one place: LAWS
// (issue 18) tunes its packing from one iteration to the next and CAB (issue 19) judges
// iterations: run_iterations goes through locus::iterate (locus/iterate.hpp), which runs each
// iteration as its own root and tells the scheduler where each begins and ends.
//
// Each iteration is its own root, so the runtime sees n separate runs (their statistics and
// phase boundaries) instead of one root with the loop inside.
#pragma once

#include <locus/iterate.hpp>
#include <locus/runtime.hpp>
#include <locus/task.hpp>

#include <concepts>
#include <cstddef>
#include <type_traits>
#include <utility>

namespace bench {

/// Runs body(0), body(1), ..., body(n - 1), each a root of its own on `rt`, in order; an
/// iteration starts after the previous one has completed (run() returns). An exception from
/// iteration i propagates after it, and iterations after i do not run.
template <class Body>
requires std::invocable<Body&, std::size_t> &&
    std::same_as<std::invoke_result_t<Body&, std::size_t>, locus::task<void>>
void run_iterations(locus::runtime& rt, std::size_t n, Body&& body) {
  // The per-iteration records are dropped here: the runtime keeps them too, and the harness
  // writes them from its stats (runtime_stats::iterations, JSON stats.iterations).
  (void)locus::iterate(rt, n, std::forward<Body>(body));
}

}  // namespace bench
