// bench/registry.hpp — the table of benchmark kernels: names, sizes and implementations.
//
// Every implementation is declared weak in registry.cpp, so a kernel that has not been
// written yet (or a peer runtime that was not built) has a null function pointer here and
// is reported as "not implemented" rather than breaking the link.
#pragma once

#include <array>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <locus/detail/enum_names.hpp>

#include "kernel.hpp"

namespace bench {

/// One implementation of a kernel: sets up, times, verifies.
using kernel_fn = outcome (*)(const args&);

/// The runtimes a kernel can be implemented for, in table order. starpu (StarPU) and blas (the
/// threaded OpenBLAS routine on the whole problem, a vendor baseline) exist only for the kernels
/// that suit them, e.g. cholesky.
/// omp_tasks ("omp-tasks") is OpenMP with tasks (a recursive split of `omp task`s under one
/// `single`, the task-parallel baseline beside omp's `parallel for schedule(static)`), for the
/// kernels whose locus version replays schedules.
enum class runtime_kind { serial, locus, tbb, omp, omp_tasks, starpu, blas };

/// Every runtime, in table order.
inline constexpr std::array all_runtimes = {
    runtime_kind::serial,    runtime_kind::locus,  runtime_kind::tbb, runtime_kind::omp,
    runtime_kind::omp_tasks, runtime_kind::starpu, runtime_kind::blas};

/// Whether `rt` is one that only some kernels implement (omp-tasks, starpu, blas): the default
/// runtime list includes it only for those kernels, so other kernels' tables do not grow n/a
/// rows.
[[nodiscard]] constexpr bool only_some_kernels(runtime_kind rt) noexcept {
  return rt == runtime_kind::omp_tasks || rt == runtime_kind::starpu || rt == runtime_kind::blas;
}

/// A registered kernel.
struct kernel_info {
  std::string_view name;          ///< command-line name, e.g. "fj-rec"
  std::string_view id;            ///< symbol prefix, e.g. "fj_rec"
  std::string_view small_size;    ///< test-sized input, well under a second at 1 worker
  std::string_view default_size;  ///< a few seconds at 1 worker on the reference machine
  std::string_view description;   ///< one line for --list
  kernel_fn serial = nullptr;
  kernel_fn locus = nullptr;
  kernel_fn tbb = nullptr;        ///< null when absent or when the peers were not built
  kernel_fn omp = nullptr;        ///< null when absent or when the peers were not built
  kernel_fn omp_tasks = nullptr;  ///< null when absent or when the peers were not built
  kernel_fn starpu = nullptr;     ///< null when absent or when StarPU was not found
  kernel_fn blas = nullptr;       ///< null when absent or when OpenBLAS was not found
  /// The locus implementation follows args::schedule (locus-bench --schedule stows, ...);
  /// false: it runs only under random stealing.
  bool replays = false;
  /// The locus implementation also runs the loop and designed schedules (needs `replays`).
  bool designs = false;

  /// Whether the locus implementation runs under schedule `m`.
  [[nodiscard]] bool runs(schedule_mode m) const noexcept {
    return m == schedule_mode::random || (replays && (!needs_design(m) || designs));
  }
  /// The locus implementation follows args::flow (locus-bench --flow one, ...): the harness
  /// runs it on the flow scheduler and reports its counters (stats.flow); false: it runs only
  /// with --flow off.
  bool flows = false;

  /// Whether the locus implementation runs under the dataflow options `f`.
  [[nodiscard]] bool runs(const flow_choice& f) const noexcept { return !f.on || flows; }

  /// The implementation for `rt`, or null when there is none.
  [[nodiscard]] kernel_fn implementation(runtime_kind rt) const noexcept;
};

/// All kernels, in a fixed order (the order of `all`).
[[nodiscard]] const std::vector<kernel_info>& registry();

/// The kernel called `name`, or null.
[[nodiscard]] const kernel_info* find_kernel(std::string_view name);

/// "small" and "default" become the kernel's own sizes; anything else is passed through
/// unchanged (the kernel itself parses and validates it).
[[nodiscard]] std::string resolve_size(const kernel_info& kernel, std::string_view size);

/// Whether the peer runtime was compiled into this binary (LOCUS_BENCH_PEERS and its library
/// found; for blas, OpenBLAS, which cholesky also needs on every other runtime).
[[nodiscard]] bool runtime_built(runtime_kind rt) noexcept;

/// "serial", "locus", "tbb", "omp", "omp-tasks", "starpu", "blas".
/// The runtimes' names (locus/detail/enum_names.hpp): what to_string prints.
[[nodiscard]] std::span<const locus::detail::enum_name<runtime_kind>> names_of(
    runtime_kind) noexcept;
[[nodiscard]] std::string_view to_string(runtime_kind rt) noexcept;

}  // namespace bench
