// bench/kernels/reference_cache.hpp — keeping a kernel's reference result between runs.
#pragma once

#include <mutex>
#include <optional>
#include <type_traits>
#include <utility>

namespace bench {

/// compute()'s result for `key` (a kernel's size), computed at the first call with that key and
/// kept until a call with another key, so that repeated runs of one size in one process (the
/// tests, a harness that repeats runs) compute their reference once. Each call site (each
/// Compute type) keeps its own entry.
template <class Key, class Compute>
[[nodiscard]] const std::invoke_result_t<Compute&>& cached_reference(const Key& key,
                                                                     Compute compute) {
  static std::mutex mutex;
  static std::optional<std::pair<Key, std::invoke_result_t<Compute&>>> entry;
  const std::lock_guard lock(mutex);
  if (!entry || entry->first != key) entry.emplace(key, compute());
  return entry->second;
}

}  // namespace bench
