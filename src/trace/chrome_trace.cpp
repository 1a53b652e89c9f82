// The Chrome-trace observer (locus/ext/tracing.hpp). Each worker appends to its own event
// buffer (no lock, no shared write); the buffers are read once, when the observer is destroyed
// with the runtime, after every worker thread was joined. Phases come from run()'s thread and
// go to their own buffer under a mutex (two per phase).
#include "locus/ext/tracing.hpp"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "locus/ext/observer.hpp"
#include "locus/ext/scheduler.hpp"

namespace locus::ext {

namespace {

enum class kind : std::uint8_t {
  run_begin,
  run_end,
  idle_begin,
  idle_end,
  sleep,
  wake,
  steal,
  dataflow_task
};

struct event {
  std::int64_t ns;  ///< since the observer's epoch
  kind what;
  std::uint32_t arg;  ///< steal: the victim
};

struct alignas(64) worker_events {
  std::vector<event> events;
  std::uint64_t dropped = 0;
  /// Between a run_begin and its run_end. A worker's first run has no `found` to open it when
  /// its first look for work succeeds (find_work observes no idle spell then): its first
  /// pickup opens it instead. Kept whether or not events are dropped.
  bool in_run = false;
};

struct phase_event_rec {
  std::int64_t ns;
  bool begin;
  std::string name;
};

class chrome_trace final : public observer {
 public:
  chrome_trace(core_ref core, std::string path, std::FILE* file, trace_options o)
      : m_path(std::move(path)), m_file(file), m_options(o), m_workers(core.num_workers()) {
    for (unsigned w = 0; w < core.num_workers(); ++w) {
      const std::size_t c = core.core_of(w);
      m_labels.push_back("worker " + std::to_string(w) + " (place " +
                         std::to_string(core.place_of(w)) + ", socket " +
                         std::to_string(core.topo().cores()[c].package) + ")");
    }
  }
  chrome_trace(const chrome_trace&) = delete;
  chrome_trace& operator=(const chrome_trace&) = delete;
  ~chrome_trace() override { write(); }

  void on_pickup(worker_ref& w, task_ref t, const pickup& p) noexcept override {
    worker_events& we = m_workers[w.index()];
    const bool opens = !we.in_run, steal = p.from_worker(), dataflow = !t.is_frame();
    if (!opens && !steal && !dataflow) return;  // a frame from a pool inside a run: nothing
    const std::int64_t ns = now();
    we.in_run = true;
    if (opens) add_at(w.index(), kind::run_begin, 0, ns);
    if (steal) add_at(w.index(), kind::steal, p.from, ns);
    if (dataflow) add_at(w.index(), kind::dataflow_task, 0, ns);
  }
  void on_idle(worker_ref& w, idle_event e) noexcept override {
    switch (e) {
      case idle_event::looking: {
        const std::int64_t t = now();
        m_workers[w.index()].in_run = false;
        add_at(w.index(), kind::run_end, 0, t);
        add_at(w.index(), kind::idle_begin, 0, t);
        break;
      }
      case idle_event::sleeping:
        add(w.index(), kind::sleep, 0);
        break;
      case idle_event::woken:
        add(w.index(), kind::wake, 0);
        break;
      case idle_event::found: {
        const std::int64_t t = now();
        m_workers[w.index()].in_run = true;
        add_at(w.index(), kind::idle_end, 0, t);
        add_at(w.index(), kind::run_begin, 0, t);
        break;
      }
      case idle_event::stopping:
        add(w.index(), kind::idle_end, 0);
        break;
    }
  }
  void on_phase(core_ref, const phase_info& info, phase_event e) noexcept override {
    try {
      std::string name(info.kind);
      if (!info.mode.empty()) name.append(" ").append(info.mode);
      std::lock_guard lk(m_phase_mutex);
      m_phases.push_back({now(), e == phase_event::begin, std::move(name)});
    } catch (...) {  // out of memory: the phase goes unrecorded
    }
  }

 private:
  [[nodiscard]] std::int64_t now() const noexcept {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() -
                                                                m_epoch)
        .count();
  }
  void add(unsigned w, kind k, std::uint32_t arg) noexcept { add_at(w, k, arg, now()); }
  /// `ns` given: two events of one transition share a timestamp, so their spans abut.
  void add_at(unsigned w, kind k, std::uint32_t arg, std::int64_t ns) noexcept {
    worker_events& we = m_workers[w];
    if (we.events.size() >= m_options.max_events) {
      ++we.dropped;
      return;
    }
    try {
      we.events.push_back({ns, k, arg});
    } catch (...) {
      ++we.dropped;
    }
  }
  void write() noexcept;

  std::string m_path;
  std::FILE* m_file;
  trace_options m_options;
  std::vector<worker_events> m_workers;
  std::vector<std::string> m_labels;
  std::mutex m_phase_mutex;
  std::vector<phase_event_rec> m_phases;
  const std::chrono::steady_clock::time_point m_epoch = std::chrono::steady_clock::now();
};

/// Microseconds with nanosecond digits, as the format wants.
void put_ts(std::FILE* f, std::int64_t ns) {
  std::fprintf(f, "%lld.%03lld", static_cast<long long>(ns / 1000),
               static_cast<long long>(ns % 1000));
}

void chrome_trace::write() noexcept {
  std::FILE* f = m_file;
  const unsigned n = static_cast<unsigned>(m_workers.size());
  const unsigned phases_tid = n;
  std::fprintf(f, "{\"traceEvents\":[\n");
  std::fprintf(f,
               "{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":{\"name\":\"locus\"}}");
  for (unsigned w = 0; w < n; ++w) {
    std::fprintf(f,
                 ",\n{\"ph\":\"M\",\"pid\":1,\"tid\":%u,\"name\":\"thread_name\",\"args\":{"
                 "\"name\":\"%s\"}}",
                 w, m_labels[w].c_str());
    std::fprintf(f,
                 ",\n{\"ph\":\"M\",\"pid\":1,\"tid\":%u,\"name\":\"thread_sort_index\",\"args\":{"
                 "\"sort_index\":%u}}",
                 w, w);
  }
  std::fprintf(f,
               ",\n{\"ph\":\"M\",\"pid\":1,\"tid\":%u,\"name\":\"thread_name\",\"args\":{"
               "\"name\":\"phases\"}}",
               phases_tid);
  std::uint64_t flow_id = 0, steals = 0;
  // Spans as complete events ("X"), from each begin to its end; a span still open when the
  // runtime stopped ends at the worker's last event.
  const auto span = [&](unsigned tid, const char* name, std::int64_t b, std::int64_t e) {
    std::fprintf(f, ",\n{\"ph\":\"X\",\"pid\":1,\"tid\":%u,\"name\":\"%s\",\"ts\":", tid, name);
    put_ts(f, b);
    std::fprintf(f, ",\"dur\":");
    put_ts(f, e - b);
    std::fprintf(f, "}");
  };
  for (unsigned w = 0; w < n; ++w) {
    const auto& evs = m_workers[w].events;
    const std::int64_t last = evs.empty() ? 0 : evs.back().ns;
    std::int64_t run = -1, idle = -1, sleep = -1;
    // A data-driven task's span: from the start of the run its pickup began (the pickup comes
    // just before the worker's "found") to the end of that run, so it nests in the run span;
    // like a run span it includes what the task left on the worker's own deque.
    std::int64_t task = -1;
    bool task_pending = false;
    for (const event& e : evs) {
      switch (e.what) {
        case kind::run_begin:
          run = e.ns;
          if (task_pending) task = e.ns, task_pending = false;
          break;
        case kind::run_end:
          if (task >= 0) span(w, "dataflow task", task, e.ns);
          task = -1, task_pending = false;
          if (run >= 0) span(w, "run", run, e.ns);
          run = -1;
          break;
        case kind::idle_begin:
          idle = e.ns;
          break;
        case kind::idle_end:
          if (idle >= 0) span(w, "idle", idle, e.ns);
          idle = -1;
          break;
        case kind::sleep:
          sleep = e.ns;
          break;
        case kind::wake:
          if (sleep >= 0) span(w, "sleep", sleep, e.ns);
          sleep = -1;
          break;
        case kind::steal:
          // The arrow leaves the victim's track and enters the thief's at the pickup.
          ++flow_id;
          ++steals;
          std::fprintf(f,
                       ",\n{\"ph\":\"s\",\"pid\":1,\"tid\":%u,\"id\":%llu,\"name\":\"steal\","
                       "\"cat\":\"steal\",\"ts\":",
                       e.arg, static_cast<unsigned long long>(flow_id));
          put_ts(f, e.ns);
          std::fprintf(f,
                       "},\n{\"ph\":\"f\",\"bp\":\"e\",\"pid\":1,\"tid\":%u,\"id\":%llu,"
                       "\"name\":\"steal\",\"cat\":\"steal\",\"ts\":",
                       w, static_cast<unsigned long long>(flow_id));
          put_ts(f, e.ns);
          std::fprintf(f, "}");
          break;
        case kind::dataflow_task:
          if (task >= 0) span(w, "dataflow task", task, e.ns);
          task = run >= 0 ? e.ns : -1;  // inside a run already: from here
          task_pending = run < 0;
          std::fprintf(f,
                       ",\n{\"ph\":\"i\",\"s\":\"t\",\"pid\":1,\"tid\":%u,\"name\":\"dataflow "
                       "task\",\"ts\":",
                       w);
          put_ts(f, e.ns);
          std::fprintf(f, "}");
          break;
      }
    }
    if (sleep >= 0) span(w, "sleep", sleep, last);
    if (idle >= 0) span(w, "idle", idle, last);
    if (task >= 0) span(w, "dataflow task", task, last);
    if (run >= 0) span(w, "run", run, last);
  }
  std::int64_t begun = -1;
  std::string name;
  for (const auto& p : m_phases) {
    if (p.begin) {
      begun = p.ns;
      name = p.name;
    } else if (begun >= 0) {
      span(phases_tid, name.c_str(), begun, p.ns);
      begun = -1;
    }
  }
  std::fprintf(f, "\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":{\"steals\":%llu,",
               static_cast<unsigned long long>(steals));
  bool truncated = false;
  std::fprintf(f, "\"max_events_per_worker\":%zu,\"dropped_events\":[", m_options.max_events);
  for (unsigned w = 0; w < n; ++w) {
    std::fprintf(f, "%s%llu", w == 0 ? "" : ",",
                 static_cast<unsigned long long>(m_workers[w].dropped));
    truncated = truncated || m_workers[w].dropped != 0;
  }
  std::fprintf(f,
               "],\"truncated\":%s,\"spans\":\"one run span per pickup: the tasks a worker ran "
               "from the work it picked up until it looked for work again\"}}\n",
               truncated ? "true" : "false");
  if (std::fclose(f) != 0)
    std::fprintf(stderr, "locus: could not write the trace file %s\n", m_path.c_str());
}

constexpr char k_key = 0;

}  // namespace

void install_chrome_trace(core_ref core, const std::string& path, trace_options options) {
  if (options.max_events == 0) throw std::invalid_argument("locus: trace max_events=0");
  (void)core.install_once(&k_key, [&]() -> std::shared_ptr<observer> {
    std::FILE* f = std::fopen(path.c_str(), "w");
    if (f == nullptr)
      throw std::runtime_error("LOCUS_TRACE=\"" + path +
                               "\" is not valid (the file cannot be opened for writing); "
                               "expected a writable path for the trace JSON");
    try {
      return std::make_shared<chrome_trace>(core, path, f, options);
    } catch (...) {
      std::fclose(f);
      throw;
    }
  });
}

}  // namespace locus::ext
