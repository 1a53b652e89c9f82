// config_support.hpp — shared by the config tests: an environment guard that clears every
// LOCUS_* variable for a test's duration, and helpers that return a config_error's message.
#pragma once

#include <locus/config.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace config_support {

inline constexpr const char* all_vars[] = {
    "LOCUS_WORKERS",    "LOCUS_POLICY",     "LOCUS_VICTIMS",
    "LOCUS_TOPOLOGY",   "LOCUS_PLACES",     "LOCUS_CROSS_PLACE_STEALS",
    "LOCUS_PIN",        "LOCUS_SLAW",       "LOCUS_SCHEDULER",
    "LOCUS_ACCOUNTING", "LOCUS_LINE_BYTES", "LOCUS_HOMES_ONLY",
    "LOCUS_BIND",       "LOCUS_TRACE",      "LOCUS_CAB",
    "LOCUS_LAWS",       "LOCUS_POP_FENCE"};

// Clears every LOCUS_* variable for the test's duration and restores the caller's values, so
// the tests neither see nor leak settings (CI may run the suite with LOCUS_WORKERS set).
class env_guard {
 public:
  env_guard() {
    for (const char* name : all_vars) {
      const char* v = std::getenv(name);
      m_saved.emplace_back(name, v ? std::optional<std::string>(v) : std::nullopt);
      unsetenv(name);
    }
  }
  ~env_guard() {
    for (const auto& [name, value] : m_saved) {
      if (value) {
        setenv(name.c_str(), value->c_str(), 1);
      } else {
        unsetenv(name.c_str());
      }
    }
  }
  env_guard(const env_guard&) = delete;
  env_guard& operator=(const env_guard&) = delete;

  static void set(const char* name, const char* value) { setenv(name, value, 1); }

 private:
  std::vector<std::pair<std::string, std::optional<std::string>>> m_saved;
};

// Runs f, expects a config_error, and returns its message (empty if none was thrown).
inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const locus::config_error& e) {
    return e.what();
  }
  ADD_FAILURE() << "no config_error thrown";
  return {};
}

inline void expect_contains(const std::string& msg, std::initializer_list<std::string> parts) {
  for (const auto& p : parts)
    EXPECT_NE(msg.find(p), std::string::npos) << msg << "\n  lacks: " << p;
}

// from_env() with one variable set; returns the error message.
inline std::string env_error(const char* name, const char* value) {
  env_guard g;
  env_guard::set(name, value);
  return error_of([] { (void)locus::config::from_env(); });
}

}  // namespace config_support
