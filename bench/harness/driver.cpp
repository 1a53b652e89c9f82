// bench/harness/driver.cpp
#include "driver.hpp"

#include <unistd.h>

#include "child_process.hpp"

namespace bench {

std::vector<std::string> child_argv(const std::string& argv0, const bench_config& c) {
  return {argv0,
          "--child",
          "--result-fd=" + std::to_string(child_result_fd),
          std::string(c.kernel->name),
          "--size=" + c.size,
          "--runtime=" + std::string(to_string(c.runtime)),
          "--policy=" + std::string(policy_name(c.policy)),
          "--victims=" + std::string(victims_name(c.victims)),
          "--schedule=" + std::string(schedule_name(c.schedule)),
          "--flow=" + flow_name(c.flow),
          "--workers=" + std::to_string(c.workers)};
}

std::vector<config_summary> run_grid(const std::string& exe, const std::string& argv0,
                                     const std::vector<bench_config>& configs, unsigned reps,
                                     double timeout_s, progress_line& progress) {
  std::vector<std::vector<rep_result>> runs(configs.size());
  const auto plan = schedule(configs, reps);
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const bench_config& c = configs[plan[i].config];
    progress.show(i + 1, plan.size(), c.label(), plan[i].rep, reps);
    child_outcome child = run_child(exe, child_argv(argv0, c), child_result_fd, timeout_s);
    runs[plan[i].config].push_back(interpret_child(child, timeout_s));
  }
  progress.clear();
  std::vector<config_summary> out;
  out.reserve(configs.size());
  for (std::size_t i = 0; i < configs.size(); ++i)
    out.push_back(summarize(configs[i], runs[i]));
  return out;
}

cli_defaults environment_defaults() {
  cli_defaults d;
  // from_env() throws locus::config_error for a bad LOCUS_* value; main reports it.
  locus::config env = locus::config::from_env();
  d.policies = {env.policy};
  d.victims = {env.victims};
  d.runtimes = {runtime_kind::serial, runtime_kind::locus};
  if (runtime_built(runtime_kind::tbb)) d.runtimes.push_back(runtime_kind::tbb);
  if (runtime_built(runtime_kind::omp)) d.runtimes.push_back(runtime_kind::omp);
  // Listed for the kernels that implement them only (expand_grid drops the others).
  for (auto rt : {runtime_kind::omp_tasks, runtime_kind::starpu, runtime_kind::blas}) {
    if (runtime_built(rt)) d.runtimes.push_back(rt);
  }
  long n = ::sysconf(_SC_NPROCESSORS_ONLN);
  unsigned nproc = n > 0 ? static_cast<unsigned>(n) : 1;
  d.workers.clear();
  for (unsigned w = 1; w < nproc; w *= 2)
    d.workers.push_back(w);
  d.workers.push_back(nproc);
  return d;
}

}  // namespace bench
