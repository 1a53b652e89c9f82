// bench/kernel.hpp — the contract between locus-bench and the kernels in bench/kernels/.
//
// Each kernel <name> has up to four implementations, one file each:
//   bench/kernels/<name>/{serial,locus,tbb,omp}.cpp
// and, for the kernels that suit them (cholesky), starpu.cpp (StarPU) and blas.cpp (the
// threaded OpenBLAS routine on the whole problem), each file defining one function
// `outcome <name>_<runtime>(const args&)` (dashes in kernel names become underscores:
// fj-rec -> fj_rec_serial). Every one of them is a call of
// bench::measure() below, which sets the input up (untimed), times the computation itself and
// verifies the answer against a known value or the serial result, the same way for all
// kernels. Shared setup and verification live in bench/kernels/<name>/common.hpp; a runtime's
// file holds only its parallel algorithm and the timed body that starts it.
#pragma once

#include <locus/dataflow/flow_scheduler.hpp>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

namespace locus {
class runtime;
}

namespace bench {

/// The schedule a locus run's timed phase follows (locus-bench --schedule, issue 8). random is
/// the runtime's own scheduler, every phase scheduled independently; the others trace the
/// kernel's setup phase (its first touch) and replay that steal tree for the timed phase under
/// the replay mode of the same name (locus/schedule/replay.hpp), on a runtime whose scheduler
/// is the replay scheduler. Only kernels registered with `replays` accept them.
///
/// Two more modes, for the kernels registered with `designs` as well: loop runs the paper's
/// iterative RelWS locality loop (schedule::locality_loop) on the setup phase and one timed
/// phase's kernel, untimed, and replays the schedule it settles on under stows for the timed
/// phase; designed runs setup and every timed phase under a user-designed schedule
/// (schedule::run_designed, stuws): a block partition, worker w the w-th contiguous share.
///
/// traced measures what recording costs: the runtime's own scheduler (as random), every timed
/// phase run under schedule::run_traced, nothing replayed.
enum class schedule_mode : std::uint8_t { random, stows, stuws, relws, loop, designed, traced };

/// Whether `m` is one of the modes only `designs` kernels run (loop, designed).
[[nodiscard]] constexpr bool needs_design(schedule_mode m) noexcept {
  return m == schedule_mode::loop || m == schedule_mode::designed;
}

/// The dataflow scheduling options of a locus run (locus-bench --flow, issue 9), for the
/// task-graph kernels registered with `flows` (cholesky, smith-waterman). Off (the default) runs
/// the kernel on the runtime's own scheduler, as without the option. On, the harness installs a
/// locus::dataflow::flow_scheduler with `options` (bench/harness/execute.cpp, which reports its
/// counters as stats.flow) and the kernel builds its graph with placement near_data or
/// enabling_worker, passing its datablocks (tiles, borders) on its events so that retrieval
/// costs and locality accounting see them.
struct flow_choice {
  bool on = false;
  locus::dataflow::flow_options options;  ///< steal mode and ready queue (on only)
  bool near_data = false;                 ///< placement::near_data, else enabling_worker

  [[nodiscard]] friend bool operator==(const flow_choice& a, const flow_choice& b) noexcept {
    return a.on == b.on &&
           (!a.on || (a.options.steal == b.options.steal && a.options.queue == b.options.queue &&
                      a.near_data == b.near_data));
  }
};

/// What a kernel run receives. `size` is already resolved from "small"/"default" to the
/// kernel's own value (e.g. "35", "T1", "S", "1000x1000").
struct args {
  std::string size;
  unsigned workers = 1;
  locus::runtime* rt = nullptr;  ///< the runtime to use; non-null only for runtime "locus"
  schedule_mode schedule = schedule_mode::random;  ///< locus only
  flow_choice flow;                                ///< locus only
};

/// What a kernel run returns.
struct outcome {
  double seconds = 0;     ///< time of the timed region only
  bool verified = false;  ///< the answer matched the known value / serial result
  std::string detail;     ///< e.g. "fib(35)=9227465" or why verification failed
};

/// Wall-clock stopwatch (steady clock).
class stopwatch {
 public:
  stopwatch() : m_start(std::chrono::steady_clock::now()) {}
  [[nodiscard]] double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
  }

 private:
  std::chrono::steady_clock::time_point m_start;
};

/// measure()'s default context: the timed region runs on the calling thread.
struct on_calling_thread {
  template <class Timed>
  void operator()(Timed& timed) const {
    timed();
  }
};

/// One kernel run, the single entry every implementation goes through:
///
///   input  = setup(size)               untimed: parse the size, build the data
///   answer = body(input)               timed; a void body leaves its answer in the input
///   verify(out, input[, answer])       untimed: sets out.verified and out.detail
///
/// `context(timed)` runs the timed region and must call `timed()` exactly once; uts uses it to
/// run the region on a thread with a deep stack. The clock starts and stops inside `timed`, so
/// nothing but the body is measured. verify sees out.seconds already set (fj, matmul, lu and
/// uts report rates). setup may return a reference (uts returns its static tree table entry).
template <class Setup, class Body, class Verify, class Context = on_calling_thread>
[[nodiscard]] outcome measure(const std::string& size, Setup&& setup, Body&& body, Verify&& verify,
                              Context&& context = {}) {
  decltype(auto) input = setup(size);
  using answer = std::invoke_result_t<Body&, decltype((input))>;
  outcome out;
  if constexpr (std::is_void_v<answer>) {
    auto timed = [&] {
      const stopwatch clock;
      body(input);
      out.seconds = clock.seconds();
    };
    context(timed);
    verify(out, std::as_const(input));
  } else {
    std::optional<answer> result;
    auto timed = [&] {
      const stopwatch clock;
      result.emplace(body(input));
      out.seconds = clock.seconds();
    };
    context(timed);
    verify(out, std::as_const(input), *result);
  }
  return out;
}

}  // namespace bench
