// bench/harness/execute.cpp — the runtime-specific part of a run.
#include "execute.hpp"

#include <unistd.h>
#include <locus/dataflow.hpp>
#include <locus/locus.hpp>
#include <locus/schedule/replay.hpp>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "json.hpp"
#include "scheduler_stats.hpp"

#ifdef LOCUS_HAVE_TBB
#include <tbb/global_control.h>
#endif
#ifdef LOCUS_HAVE_OPENMP
#include <omp.h>
#endif

namespace bench {

namespace {

run_report run_locus(const bench_config& c, kernel_fn fn) {
  // Start from the environment so LOCUS_TOPOLOGY, LOCUS_PLACES, LOCUS_PIN, LOCUS_SLAW ...
  // still apply; the grid's own dimensions override.
  locus::config cfg = locus::config::from_env();
  if (const char* dir = std::getenv("LOCUS_BENCH_TRACE"); dir != nullptr && *dir != '\0') {
    // locus-bench --trace DIR: one file per run, named by its configuration and process.
    std::string name = c.label();
    for (char& ch : name)
      if (ch == ' ' || ch == '/' || ch == '=') ch = '-';
    static unsigned runs = 0;
    cfg.trace = std::string(dir) + "/" + name + "-p" + std::to_string(::getpid()) + "-" +
                std::to_string(runs++) + ".json";
  }
  cfg.workers = c.workers;
  cfg.policy = c.policy;
  cfg.victims = c.victims;
  // A replayed schedule needs the replay scheduler installed (it schedules as Cilk does
  // between the traced and replayed phases); random and traced keep the configured scheduler
  // (traced records on it: tracing works on any scheduler).
  std::shared_ptr<locus::schedule::replay_scheduler> replayer;
  if (c.schedule != schedule_mode::random && c.schedule != schedule_mode::traced) {
    replayer = locus::schedule::make_replay_scheduler();
    cfg.custom_scheduler = replayer->scheduler();
  }
  // Dataflow options (--flow): the flow scheduler, for the kernel's graph.
  std::shared_ptr<locus::dataflow::flow_scheduler> flow;
  if (c.flow.on) {
    if (replayer) throw std::runtime_error("--schedule and --flow options do not mix");
    flow = locus::dataflow::flow_scheduler::make(c.flow.options);
    cfg.custom_scheduler = flow->scheduler();
  }
  locus::runtime rt{cfg};
  args a{c.size, c.workers, &rt, c.schedule, c.flow};
  run_report r;
  r.result = fn(a);
  r.runtime_stats = rt.stats().to_json();
  if (cfg.accounting) r.stats["locality"] = json::parse(rt.locality().to_json());
  if (auto [name, counts] = scheduler_json(rt); !name.empty()) r.stats[name] = std::move(counts);
  if (flow) {
    const locus::dataflow::flow_stats f = flow->stats();
    r.stats["flow"] = {{"steal", locus::dataflow::to_string(flow->options().steal)},
                       {"queue", locus::dataflow::to_string(flow->options().queue)},
                       {"pushed", f.pushed},
                       {"local_takes", f.local_takes},
                       {"steal_attempts", f.steal_attempts},
                       {"steals", f.steals},
                       {"tasks_stolen", f.tasks_stolen},
                       {"cost_at_run", f.cost_at_run}};
  }
  return r;
}

run_report run_plain(const bench_config& c, kernel_fn fn) {
  run_report r;
  args a;
  a.size = c.size;
  a.workers = c.workers;
  r.result = fn(a);
  return r;
}

#ifdef LOCUS_HAVE_TBB
run_report run_tbb(const bench_config& c, kernel_fn fn) {
  tbb::global_control gc(tbb::global_control::max_allowed_parallelism, c.workers);
  return run_plain(c, fn);
}
#endif

#ifdef LOCUS_HAVE_OPENMP
run_report run_omp(const bench_config& c, kernel_fn fn) {
  omp_set_num_threads(static_cast<int>(c.workers));
  return run_plain(c, fn);
}
#endif

void write_all(int fd, const std::string& s) {
  std::size_t done = 0;
  while (done < s.size()) {
    ssize_t n = ::write(fd, s.data() + done, s.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // the parent is gone; nothing useful left to do
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace

run_report execute(const bench_config& c) {
  if (c.schedule != schedule_mode::random &&
      (c.runtime != runtime_kind::locus || !c.kernel->runs(c.schedule))) {
    throw std::runtime_error("--schedule " + std::string(schedule_name(c.schedule)) + ": " +
                             std::string(to_string(c.runtime)) + " " + std::string(c.kernel->name) +
                             " has no replay version");
  }
  if (c.flow.on && (c.runtime != runtime_kind::locus || !c.kernel->runs(c.flow))) {
    throw std::runtime_error("--flow " + flow_name(c.flow) + ": " +
                             std::string(to_string(c.runtime)) + " " + std::string(c.kernel->name) +
                             " has no dataflow version");
  }
  kernel_fn fn = c.kernel->implementation(c.runtime);
  if (fn == nullptr) {
    throw std::runtime_error(std::string(to_string(c.runtime)) + " implementation of " +
                             std::string(c.kernel->name) + " is not built into this binary");
  }
  switch (c.runtime) {
    case runtime_kind::locus:
      return run_locus(c, fn);
#ifdef LOCUS_HAVE_TBB
    case runtime_kind::tbb:
      return run_tbb(c, fn);
#endif
#ifdef LOCUS_HAVE_OPENMP
    case runtime_kind::omp:
    case runtime_kind::omp_tasks:
      return run_omp(c, fn);
#endif
    default:
      return run_plain(c, fn);
  }
}

namespace {

/// `object` (a JSON object's text) with `more`'s members appended, as text.
std::string join_objects(std::string_view object, const json& more) {
  while (!object.empty() && std::isspace(static_cast<unsigned char>(object.back())) != 0)
    object.remove_suffix(1);
  if (object.size() < 2 || object.front() != '{' || object.back() != '}')
    throw std::runtime_error("runtime stats are not a JSON object");
  if (!more.is_object() || more.empty()) return std::string(object);
  std::string tail = dump(more);  // "{...}": its members go in before the object's brace
  object.remove_suffix(1);
  std::string out(object);
  const bool empty = out.find_last_not_of(" \t\n\r") == 0;  // only the '{' so far
  if (!empty) out += ',';
  out.append(tail, 1, std::string::npos);
  return out;
}

}  // namespace

json run_report::all_stats() const {
  const json& more = stats.is_null() ? json::object() : stats;
  return runtime_stats.empty() ? more : json::parse(join_objects(runtime_stats, more));
}

std::string encode_report(const run_report& r) {
  const json& more = r.stats.is_null() ? json::object() : r.stats;
  if (r.runtime_stats.empty()) {
    return dump({{"ok", true},
                 {"seconds", r.result.seconds},
                 {"verified", r.result.verified},
                 {"detail", r.result.detail},
                 {"stats", more}});
  }
  // The head's members as dump writes them, then "stats" last, spliced as text.
  std::string line = dump({{"ok", true},
                           {"seconds", r.result.seconds},
                           {"verified", r.result.verified},
                           {"detail", r.result.detail}});
  line.pop_back();  // its closing brace
  line += ",\"stats\":";
  line += join_objects(r.runtime_stats, more);
  line += '}';
  return line;
}

std::string encode_error(const std::string& message) {
  return dump({{"ok", false}, {"error", message}});
}

int child_main(const options& o) {
  bench_config c;
  c.kernel = o.kernels.front();
  c.size = resolve_size(*c.kernel, o.sizes.front());
  c.runtime = o.runtimes.front();
  c.policy = o.policies.front();
  c.victims = o.victims.front();
  c.workers = o.workers.front();
  c.schedule = o.schedules.front();
  c.flow = o.flows.front();
  std::string line;
  int status = 0;
  try {
    line = encode_report(execute(c));
  } catch (const std::exception& e) {
    line = encode_error(e.what());
    status = 1;
  } catch (...) {
    line = encode_error("unknown exception");
    status = 1;
  }
  write_all(o.result_fd, line + "\n");
  return status;
}

}  // namespace bench
