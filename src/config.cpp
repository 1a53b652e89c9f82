// config.cpp — parsing of LOCUS_* settings. Every parser is strict: a value is either one of
// the documented forms or a config_error that names the input, quotes the value and lists
// the forms, so a typo can never silently select a default.
#include <locus/config.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include <locus/detail/strings.hpp>
#include <locus/topology.hpp>

namespace locus {

namespace {

using detail::iequals;
using detail::lowercase;
using detail::parse_uint;
using detail::trim;

constexpr unsigned max_workers = 4096;

constexpr std::string_view bool_forms = "one of: 1, 0, true, false, on, off (any case)";
constexpr std::string_view workers_forms = "a positive integer from 1 to 4096";
constexpr std::string_view places_forms =
    "one of: socket, numa, l3, none (any case), or a positive integer N (N equal groups, at "
    "most 4096)";
constexpr std::string_view slaw_forms =
    "comma-separated key=N pairs with keys int, f, s, steals (any subset, each at most once, "
    "any case); int, f and s positive integers, steals a non-negative integer (0: any steal "
    "switches to help-first), each below 2^32, e.g. int=64,f=128,s=256,steals=64";
constexpr std::string_view cab_forms =
    "comma-separated key=N pairs with keys bl, b, sd, sc (any subset, each at most once, any "
    "case) and/or the word manual: bl the boundary level 0..63, b the branching degree >= 2, sd "
    "the data size and sc one socket's cache in bytes (positive), e.g. bl=4 or b=2,sd=50331648";
constexpr std::string_view positive_forms = "a positive integer below 2^32";

std::optional<std::string> read_env(const char* name) {
  // getenv races only with a concurrent setenv; from_env() reads the environment the program
  // set up, like every library that takes LOCUS_*-style settings.
  const char* v = std::getenv(name);  // NOLINT(concurrency-mt-unsafe)
  if (v == nullptr || *v == '\0') return std::nullopt;
  return std::string(v);
}

}  // namespace

config_error make_config_error(std::string_view what, std::string_view value,
                               std::string_view expected, std::string_view reason) {
  std::string msg(what);
  msg += "=\"";
  for (char c : value) {
    auto u = static_cast<unsigned char>(c);
    if (std::isprint(u) && c != '"' && c != '\\') {
      msg += c;
    } else {
      constexpr std::array<char, 16> hex{'0', '1', '2', '3', '4', '5', '6', '7',
                                         '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'};
      msg += "\\x";
      msg += hex[u >> 4];
      msg += hex[u & 0xf];
    }
  }
  msg += "\" is not valid";
  if (!reason.empty()) {
    msg += " (";
    msg += reason;
    msg += ')';
  }
  msg += "; expected ";
  msg += expected;
  return config_error(msg);
}

unsigned parse_workers(std::string_view value, std::string_view what) {
  auto n = parse_uint(trim(value));
  if (!n || *n == 0 || *n > max_workers) throw make_config_error(what, value, workers_forms);
  return static_cast<unsigned>(*n);
}

std::size_t parse_line_bytes(std::string_view value, std::string_view what) {
  auto n = parse_uint(trim(value));
  if (!n || *n < 8 || *n > 4096 || (*n & (*n - 1)) != 0)
    throw make_config_error(what, value, "a power of two from 8 to 4096 (bytes), e.g. 64");
  return static_cast<std::size_t>(*n);
}

bool parse_bool(std::string_view value, std::string_view what) {
  auto v = trim(value);
  if (v == "1" || iequals(v, "true") || iequals(v, "on")) return true;
  if (v == "0" || iequals(v, "false") || iequals(v, "off")) return false;
  throw make_config_error(what, value, bool_forms);
}

slaw_params parse_slaw(std::string_view value, std::string_view what) {
  slaw_params p;
  // An empty value is the empty subset: all defaults.
  if (trim(value).empty()) return p;
  std::array<bool, 4> seen{};
  std::string_view rest = value;
  while (true) {
    auto comma = rest.find(',');
    auto item = trim(rest.substr(0, comma));
    auto eq = item.find('=');
    if (item.empty()) throw make_config_error(what, value, slaw_forms, "empty item");
    if (eq == std::string_view::npos) {
      throw make_config_error(what, value, slaw_forms,
                              "missing '=' in \"" + std::string(item) + "\"");
    }
    auto key = trim(item.substr(0, eq));
    auto num = trim(item.substr(eq + 1));
    struct field_ref {
      std::string_view key;
      std::uint32_t* field;
      bool zero_ok;  // steals=0 means "any steal switches to help-first"
    };
    const std::array<field_ref, 4> fields{{{"int", &p.interval, false},
                                           {"f", &p.fresh_limit, false},
                                           {"s", &p.stack_limit, false},
                                           {"steals", &p.steal_threshold, true}}};
    std::size_t slot = 0;
    while (slot < fields.size() && !iequals(key, fields[slot].key))
      ++slot;
    if (slot == fields.size()) {
      throw make_config_error(what, value, slaw_forms, "unknown key \"" + std::string(key) + "\"");
    }
    const field_ref& field = fields[slot];
    if (seen[slot]) {
      throw make_config_error(what, value, slaw_forms,
                              "key \"" + std::string(key) + "\" given twice");
    }
    seen[slot] = true;
    auto n = parse_uint(num);
    if (!n || (*n == 0 && !field.zero_ok) || *n > std::numeric_limits<std::uint32_t>::max()) {
      throw make_config_error(what, value, slaw_forms,
                              std::string(key) + " must be a " +
                                  (field.zero_ok ? "non-negative" : "positive") +
                                  " integer below 2^32");
    }
    *field.field = static_cast<std::uint32_t>(*n);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return p;
}

void validate_slaw(const slaw_params& p, std::string_view what) {
  // The fields parse_slaw requires positive; steal_threshold may be anything (0 included).
  const std::array<std::pair<std::string_view, std::uint32_t>, 3> positive{
      {{"interval", p.interval}, {"fresh_limit", p.fresh_limit}, {"stack_limit", p.stack_limit}}};
  for (const auto& [name, v] : positive) {
    if (v == 0) {
      throw make_config_error(std::string(what) + "." + std::string(name), std::to_string(v),
                              positive_forms);
    }
  }
}

cab_params parse_cab(std::string_view value, std::string_view what) {
  cab_params p;
  if (trim(value).empty()) return p;
  std::array<bool, 5> seen{};
  std::string_view rest = value;
  while (true) {
    const auto comma = rest.find(',');
    const auto item = trim(rest.substr(0, comma));
    if (item.empty()) throw make_config_error(what, value, cab_forms, "empty item");
    const auto eq = item.find('=');
    std::size_t slot = 0;
    if (eq == std::string_view::npos) {
      if (!iequals(item, "manual"))
        throw make_config_error(what, value, cab_forms,
                                "missing '=' in \"" + std::string(item) + "\"");
      slot = 4;
    } else {
      const auto key = trim(item.substr(0, eq));
      const std::array<std::string_view, 4> keys{"bl", "b", "sd", "sc"};
      while (slot < keys.size() && !iequals(key, keys[slot]))
        ++slot;
      if (slot == keys.size())
        throw make_config_error(what, value, cab_forms, "unknown key \"" + std::string(key) + "\"");
    }
    if (seen[slot])
      throw make_config_error(
          what, value, cab_forms,
          "\"" + std::string(eq == std::string_view::npos ? item : trim(item.substr(0, eq))) +
              "\" given twice");
    seen[slot] = true;
    if (slot == 4) {
      p.manual = true;
    } else {
      const auto num = trim(item.substr(eq + 1));
      const auto n = parse_uint(num);
      if (slot == 0) {
        if (!n || *n > static_cast<std::uint64_t>(cab_params::k_max_level))
          throw make_config_error(
              what, value, cab_forms,
              "bl must be an integer from 0 to 63, got \"" + std::string(num) + "\"");
        p.boundary_level = static_cast<int>(*n);
      } else if (slot == 1) {
        if (!n || *n < 2 || *n > std::numeric_limits<std::uint32_t>::max())
          throw make_config_error(
              what, value, cab_forms,
              "b must be an integer from 2 to 2^32 - 1, got \"" + std::string(num) + "\"");
        p.branching = static_cast<unsigned>(*n);
      } else {
        if (!n || *n == 0 || *n > std::numeric_limits<std::size_t>::max())
          throw make_config_error(what, value, cab_forms,
                                  std::string(slot == 2 ? "sd" : "sc") +
                                      " must be a positive byte count, got \"" + std::string(num) +
                                      "\"");
        (slot == 2 ? p.data_bytes : p.cache_bytes) = static_cast<std::size_t>(*n);
      }
    }
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return p;
}

void validate_cab(const cab_params& p, std::string_view what) {
  if (p.boundary_level != cab_params::k_auto &&
      (p.boundary_level < 0 || p.boundary_level > cab_params::k_max_level))
    throw make_config_error(std::string(what) + ".boundary_level", std::to_string(p.boundary_level),
                            "-1 (cab_params::k_auto: Eq. 4) or a level from 0 to 63");
  if (p.branching == 1)
    throw make_config_error(std::string(what) + ".branching", std::to_string(p.branching),
                            "0 (read from the declared data) or a branching degree >= 2");
}

void validate_places(std::string_view value, std::string_view what) {
  auto v = trim(value);
  for (std::string_view form : {"socket", "numa", "l3", "none"}) {
    if (iequals(v, form)) return;
  }
  auto n = parse_uint(v);
  if (n && *n >= 1 && *n <= max_workers) return;
  throw make_config_error(what, value, places_forms);
}

config config::from_env() {
  config cfg;
  if (auto v = read_env("LOCUS_SCHEDULER")) cfg.scheduler = parse_scheduler(*v, "LOCUS_SCHEDULER");
  if (auto v = read_env("LOCUS_WORKERS")) cfg.workers = parse_workers(*v, "LOCUS_WORKERS");
  if (auto v = read_env("LOCUS_POLICY")) cfg.policy = parse_spawn_policy(*v, "LOCUS_POLICY");
  if (auto v = read_env("LOCUS_VICTIMS")) cfg.victims = parse_victim_policy(*v, "LOCUS_VICTIMS");
  if (auto v = read_env("LOCUS_TOPOLOGY")) {
    // Eager: a bad spec must fail here, where the variable is named, not at runtime start.
    (void)topology::from_spec(*v, "LOCUS_TOPOLOGY");
    cfg.topology = *v;
  }
  if (auto v = read_env("LOCUS_PLACES")) {
    validate_places(*v, "LOCUS_PLACES");
    cfg.places = lowercase(trim(*v));
    cfg.places_from_env = cfg.places;
  }
  if (auto v = read_env("LOCUS_BIND")) cfg.bind = parse_bind(*v, "LOCUS_BIND");
  if (auto v = read_env("LOCUS_CROSS_PLACE_STEALS")) {
    cfg.cross_place_steals = parse_bool(*v, "LOCUS_CROSS_PLACE_STEALS");
  }
  if (auto v = read_env("LOCUS_PIN")) cfg.pin = parse_bool(*v, "LOCUS_PIN");
  if (auto v = read_env("LOCUS_POP_FENCE")) cfg.pop_fence = parse_pop_fence(*v, "LOCUS_POP_FENCE");
  if (auto v = read_env("LOCUS_ACCOUNTING")) cfg.accounting = parse_bool(*v, "LOCUS_ACCOUNTING");
  if (auto v = read_env("LOCUS_TRACE")) cfg.trace = std::string(*v);
  if (auto v = read_env("LOCUS_LINE_BYTES"))
    cfg.line_bytes = parse_line_bytes(*v, "LOCUS_LINE_BYTES");
  if (auto v = read_env("LOCUS_HOMES_ONLY")) cfg.homes_only = parse_bool(*v, "LOCUS_HOMES_ONLY");
  if (auto v = read_env("LOCUS_SLAW")) cfg.slaw = parse_slaw(*v, "LOCUS_SLAW");
  if (auto v = read_env("LOCUS_CAB")) cfg.cab = parse_cab(*v, "LOCUS_CAB");
  return cfg;
}

std::string_view config::places_input() const noexcept {
  return !places_from_env.empty() && places == places_from_env ? "LOCUS_PLACES" : "places";
}

std::string bad_place_message(std::string_view who, std::uint64_t place, std::size_t num_places) {
  std::string msg(who);
  msg += " at(" + std::to_string(place) + ") names no place; expected ";
  if (num_places == 0) {
    msg += "none (this runtime has no places)";
  } else {
    msg += "at(0)";
    if (num_places > 1) msg += " to at(" + std::to_string(num_places - 1) + ")";
    msg += " (this runtime has " + std::to_string(num_places) +
           (num_places == 1 ? " place)" : " places)");
  }
  return msg;
}

}  // namespace locus
