// bench/harness/grid.cpp — grid expansion and the interleaved schedule.
#include "grid.hpp"

#include <algorithm>
#include <utility>

namespace bench {

namespace {

// The cell of a locus-only column: `text` on a locus row, "-" on a peer's.
std::string locus_only(const bench_config& c, std::string text) {
  return c.runtime == runtime_kind::locus ? std::move(text) : "-";
}

}  // namespace

std::string bench_config::policy_text() const {
  return locus_only(*this, std::string(policy_name(policy)));
}

std::string bench_config::victims_text() const {
  return locus_only(*this, std::string(victims_name(victims)));
}

std::string bench_config::schedule_text() const {
  return locus_only(*this, std::string(schedule_name(schedule)));
}

std::string bench_config::flow_text() const {
  return locus_only(*this, flow_name(flow));
}

std::string bench_config::label() const {
  // Appending piece by piece (rather than chained operator+) avoids a GCC 12 -Wrestrict
  // false positive.
  std::string s(kernel->name);
  for (const std::string& part :
       {size, std::string(to_string(runtime)), policy_text(), victims_text()}) {
    if (part == "-") continue;
    s += ' ';
    s += part;
  }
  if (runtime == runtime_kind::locus && schedule != schedule_mode::random) {
    s += ' ';
    s += schedule_name(schedule);
  }
  if (runtime == runtime_kind::locus && flow.on) {
    s += " flow=";
    s += flow_name(flow);
  }
  s += " w=";
  s += std::to_string(workers);
  return s;
}

bool bench_config::implemented() const noexcept {
  return kernel != nullptr && kernel->implementation(runtime) != nullptr &&
         (runtime != runtime_kind::locus ? schedule == schedule_mode::random && !flow.on
                                         : kernel->runs(schedule) && kernel->runs(flow) &&
                                               (!flow.on || schedule == schedule_mode::random));
}

namespace {

void add_runtime(std::vector<bench_config>& out, const options& o, bench_config c) {
  if (c.runtime == runtime_kind::serial) {
    c.workers = 1;
    out.push_back(c);
    return;
  }
  if (c.runtime != runtime_kind::locus) {
    for (unsigned w : o.workers) {
      c.workers = w;
      out.push_back(c);
    }
    return;
  }
  const std::vector<schedule_mode> random_only{schedule_mode::random};
  const auto& schedules = o.schedules.empty() ? random_only : o.schedules;
  const std::vector<flow_choice> off_only{flow_choice{}};
  const auto& flows = o.flows.empty() ? off_only : o.flows;
  for (auto p : o.policies) {
    for (auto v : o.victims) {
      for (auto m : schedules) {
        for (const auto& f : flows) {
          for (unsigned w : o.workers) {
            c.policy = p;
            c.victims = v;
            c.schedule = m;
            c.flow = f;
            c.workers = w;
            out.push_back(c);
          }
        }
      }
    }
  }
}

}  // namespace

std::vector<bench_config> expand_grid(const options& o) {
  std::vector<bench_config> out;
  // Non-locus rows carry the first requested policy / victims so that every row of a run
  // holds valid enum values; they are printed as "-" and ignored by those runtimes.
  bench_config base;
  if (!o.policies.empty()) base.policy = o.policies.front();
  if (!o.victims.empty()) base.victims = o.victims.front();
  for (const kernel_info* k : o.kernels) {
    std::vector<std::string> sizes;
    for (const auto& s : o.sizes) {
      std::string r = resolve_size(*k, s);
      if (std::find(sizes.begin(), sizes.end(), r) == sizes.end()) sizes.push_back(r);
    }
    for (const auto& size : sizes) {
      for (auto rt : o.runtimes) {
        if (o.runtimes_defaulted && only_some_kernels(rt) && k->implementation(rt) == nullptr) {
          continue;
        }
        bench_config c = base;
        c.kernel = k;
        c.size = size;
        c.runtime = rt;
        add_runtime(out, o, c);
      }
    }
  }
  return out;
}

std::vector<scheduled_run> schedule(const std::vector<bench_config>& configs, unsigned reps) {
  std::vector<scheduled_run> out;
  for (unsigned rep = 1; rep <= reps; ++rep) {
    for (std::size_t i = 0; i < configs.size(); ++i) {
      if (configs[i].implemented()) out.push_back({i, rep});
    }
  }
  return out;
}

}  // namespace bench
