// locus/ext/tracing.hpp — tracing, the first observer (LOCUS_TRACE=file.json, config::trace):
// a Chrome trace-event JSON file that Perfetto's UI (ui.perfetto.dev) and chrome://tracing
// open. Defined in src/trace/chrome_trace.cpp, an extension: the runtime installs it through
// this door when config::trace names a file, like any other observer.
//
// The file has one track per worker, named "worker W (place P, socket S)", and one "phases"
// track. On a worker's track: "run" spans (from the work it picked up until it looks for work
// again: the tasks it ran, coarsened; work taken at a first look that succeeds continues the
// run, since no idle spell came between (ext/observer.hpp), and a worker's first run opens at
// its first pickup), "idle" spans (looking for work) with "sleep" spans inside them, and per
// data-driven task it picked up an instant (the pickup) and a "dataflow task" span from the
// pickup to its next data-driven pickup or the end of the run (so, like a run span, it includes
// what the task left on the worker's own deque). Steals
// (and donations) are flow arrows from the victim's track to the thief's. Phases (traced,
// replayed with their mode, designed) are spans on the phases track.
//
// Memory is bounded: each worker keeps at most `max_events` events (default 2^18 events of 16
// bytes, 4 MiB); past that it records nothing more, and the file's metadata ("otherData") says how
// many events each worker dropped ("truncated": true).
#pragma once

#include <cstddef>
#include <string>

#include "locus/ext/core.hpp"

namespace locus::ext {

struct trace_options {
  std::size_t max_events = std::size_t{1} << 18;  ///< per worker
};

/// Install the Chrome-trace observer on `core`, writing `path` when the runtime is destroyed.
/// Before the workers start (the runtime's constructor) to see every event. Throws
/// std::runtime_error if `path` cannot be opened for writing (checked now, not at the end).
void install_chrome_trace(core_ref core, const std::string& path, trace_options options = {});

}  // namespace locus::ext
