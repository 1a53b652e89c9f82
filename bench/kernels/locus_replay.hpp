// bench/kernels/locus_replay.hpp — the locus kernels' side of locus-bench's --schedule axis.
#pragma once

#include <locus/schedule/replay.hpp>

#include "../kernel.hpp"

namespace bench {

/// The replay mode a --schedule value asks for (random has none: callers check it first).
[[nodiscard]] inline locus::schedule::replay_mode replay_mode_of(schedule_mode m) {
  switch (m) {
    case schedule_mode::stuws:
      return locus::schedule::replay_mode::stuws;
    case schedule_mode::relws:
      return locus::schedule::replay_mode::relws;
    default:
      return locus::schedule::replay_mode::stows;
  }
}

}  // namespace bench
