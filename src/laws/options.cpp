// LOCUS_LAWS: laws_options from a string (locus/laws.hpp), and the default LAWS scheduler of
// scheduler_kind::laws, which reads it.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "locus/config.hpp"
#include "locus/laws.hpp"

namespace locus {
namespace {

constexpr std::string_view k_forms =
    "comma-separated key=value pairs: cost=time|misses, tune=0|1, parts=keep|each, "
    "footprint=declared|misses, wake=idle|own, cache=SIZE (bytes, or with a unit K, KiB, M, MiB, "
    "G, GiB; at "
    "least 1 KiB), e.g. "
    "cost=misses,parts=keep";

/// SIZE as in k_forms; 0 when malformed.
std::size_t parse_bytes(std::string_view v) {
  std::size_t i = 0;
  std::uint64_t n = 0;
  for (; i < v.size() && v[i] >= '0' && v[i] <= '9'; ++i) {
    if (n > (std::uint64_t{1} << 40)) return 0;
    n = n * 10 + static_cast<std::uint64_t>(v[i] - '0');
  }
  if (i == 0) return 0;
  const std::string_view unit = v.substr(i);
  std::uint64_t mul = 1;
  if (unit.empty() || unit == "B") {
    mul = 1;
  } else if (unit == "K" || unit == "KiB") {
    mul = std::uint64_t{1} << 10;
  } else if (unit == "M" || unit == "MiB") {
    mul = std::uint64_t{1} << 20;
  } else if (unit == "G" || unit == "GiB") {
    mul = std::uint64_t{1} << 30;
  } else {
    return 0;
  }
  return static_cast<std::size_t>(n * mul);
}

}  // namespace

laws_options parse_laws_options(std::string_view value, std::string_view what) {
  laws_options o;
  std::string_view rest = value;
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos)
      throw make_config_error(what, value, k_forms,
                              "\"" + std::string(item) + "\" is not key=value");
    const std::string_view key = item.substr(0, eq), v = item.substr(eq + 1);
    const auto bad = [&] {
      return make_config_error(what, value, k_forms,
                               "bad value \"" + std::string(v) + "\" for " + std::string(key));
    };
    // Each two-valued key: its two spellings and what each sets; anything else is refused.
    const auto pick = [&](std::string_view a, auto if_a, std::string_view b, decltype(if_a) if_b) {
      if (v == a) return if_a;
      if (v == b) return if_b;
      throw bad();
    };
    if (key == "cost") {
      o.cost = pick("time", laws_cost::wall_time, "misses", laws_cost::modelled_misses);
    } else if (key == "tune") {
      o.tune = pick("0", false, "1", true);
    } else if (key == "parts") {
      o.keep_parts = pick("each", false, "keep", true);
    } else if (key == "footprint") {
      o.footprint = pick("declared", laws_footprint::declared, "misses", laws_footprint::misses);
    } else if (key == "wake") {
      o.wake_idle_heads = pick("own", false, "idle", true);
    } else if (key == "cache") {
      o.cache_bytes = parse_bytes(v);
      if (o.cache_bytes < 1024) throw bad();
    } else {
      throw make_config_error(what, value, k_forms, "unknown key \"" + std::string(key) + "\"");
    }
  }
  return o;
}

namespace ext {
std::shared_ptr<const scheduler> laws_scheduler() {
  // Read when a runtime is made, as config::from_env reads its variables (no setenv races).
  const char* env = std::getenv("LOCUS_LAWS");  // NOLINT(concurrency-mt-unsafe)
  return make_laws_scheduler(env != nullptr ? parse_laws_options(env, "LOCUS_LAWS")
                                            : laws_options{});
}
}  // namespace ext

}  // namespace locus
