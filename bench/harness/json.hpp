// bench/harness/json.hpp — the harness's JSON: nlohmann::json, with members kept in order.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace bench {

/// A JSON value. Objects keep their members in insertion order, so that a result keeps the
/// documented field order and the runtime's counters keep the order the runtime gave them.
using json = nlohmann::ordered_json;

/// Compact text of `v` (no whitespace). Bytes of a string that are not valid UTF-8 (from an
/// exception message, say) become U+FFFD rather than making the whole dump throw.
[[nodiscard]] inline std::string dump(const json& v) {
  return v.dump(-1, ' ', false, json::error_handler_t::replace);
}

/// The member `key` of `v`, or null when it is absent or `v` is not an object.
[[nodiscard]] inline const json* member(const json& v, std::string_view key) {
  if (!v.is_object()) return nullptr;
  const auto it = v.find(key);
  return it == v.end() ? nullptr : &*it;
}

}  // namespace bench
