// fj: SLAW's flat fork-join. One round spawns N empty tasks in a loop and then syncs; a round
// of 1024 takes microseconds, so the timed region repeats it R times. Size "N" (R defaults to
// k_tasks_per_run / N, about 2M tasks in all) or "NxR". Small and default are both 1024.
//
// Verification: task i bumps its own slot i (one cache line each, so tasks on different
// workers do not false-share). A round's sync orders its writes before the next round's, so
// no slot is ever written concurrently; afterwards every slot must read exactly R.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "../../kernel.hpp"

namespace fj_kernel {

/// Total tasks of a run whose size names no round count.
inline constexpr std::size_t k_tasks_per_run = 2'048'000;

struct shape {
  std::size_t tasks = 0;   ///< N: tasks per fork-join (leaves per round for fj-rec)
  std::size_t rounds = 0;  ///< R: fork-joins in the timed region
};

/// One task's counter, alone on its cache line.
struct alignas(64) slot {
  std::uint64_t runs = 0;
};

[[nodiscard]] inline std::size_t parse_count(const std::string& text, const std::string& size,
                                             const char* kernel) {
  std::size_t used = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (text.empty() || text[0] == '-' || used != text.size() || v == 0 || v > (1ull << 24)) {
    throw std::invalid_argument(
        std::string(kernel) + ": size must be N or NxR with 1 <= N, R <= 2^24, got '" + size + "'");
  }
  return static_cast<std::size_t>(v);
}

/// Parses "N" or "NxR"; `kernel` names the kernel in errors.
[[nodiscard]] inline shape parse(const std::string& size, const char* kernel = "fj") {
  const auto x = size.find('x');
  shape s;
  s.tasks = parse_count(size.substr(0, x), size, kernel);
  s.rounds = x == std::string::npos ? std::max<std::size_t>(1, k_tasks_per_run / s.tasks)
                                    : parse_count(size.substr(x + 1), size, kernel);
  return s;
}

/// A run's input: the shape and one zeroed slot per task.
struct instance {
  shape s;
  std::vector<slot> slots;
};

/// The input for shape `s`: every slot zero.
[[nodiscard]] inline instance instance_of(const shape& s) {
  return instance{s, std::vector<slot>(s.tasks)};
}

/// measure()'s setup: parses `size` and allocates the slots.
[[nodiscard]] inline instance setup(const std::string& size) {
  return instance_of(parse(size));
}

/// Checks that every task ran exactly once per round and fills the outcome.
inline void check(bench::outcome& out, const instance& in) {
  const shape& s = in.s;
  const std::vector<slot>& slots = in.slots;
  std::uint64_t total = 0;
  std::size_t wrong = 0;
  for (const slot& c : slots) {
    total += c.runs;
    if (c.runs != s.rounds) ++wrong;
  }
  out.verified = slots.size() == s.tasks && wrong == 0;
  const double per_second = out.seconds > 0 ? static_cast<double>(s.rounds) / out.seconds : 0;
  out.detail = std::to_string(s.tasks) + " tasks x " + std::to_string(s.rounds) + " rounds, " +
               std::to_string(static_cast<long long>(per_second)) + " fork-joins/s, " +
               std::to_string(total) + " task runs";
  if (!out.verified) {
    out.detail += " expected " + std::to_string(s.tasks * s.rounds) + " (" + std::to_string(wrong) +
                  " tasks ran a wrong number of times)";
  }
}

}  // namespace fj_kernel
