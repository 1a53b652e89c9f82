// bench/harness/json.hpp — the little JSON the harness needs: escaping and number formatting
// for the writers, and a small parser for the line a child process sends back (and for the
// runtime's counters inside it).
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace bench::json {

/// Thrown by parse() for malformed input; the message gives the offset.
class parse_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A parsed JSON value. Objects keep their members in input order (a vector of pairs), so
/// re-serializing the runtime's counters does not reorder them.
class value {
 public:
  using array = std::vector<value>;
  using object = std::vector<std::pair<std::string, value>>;

  value() = default;  ///< null
  explicit value(bool b) : m_data(b) {}
  explicit value(double d) : m_data(d) {}
  explicit value(std::string s) : m_data(std::move(s)) {}
  explicit value(array a) : m_data(std::move(a)) {}
  explicit value(object o) : m_data(std::move(o)) {}

  [[nodiscard]] bool is_null() const noexcept { return m_data.index() == 0; }
  [[nodiscard]] bool is_bool() const noexcept { return m_data.index() == 1; }
  [[nodiscard]] bool is_number() const noexcept { return m_data.index() == 2; }
  [[nodiscard]] bool is_string() const noexcept { return m_data.index() == 3; }
  [[nodiscard]] bool is_array() const noexcept { return m_data.index() == 4; }
  [[nodiscard]] bool is_object() const noexcept { return m_data.index() == 5; }

  /// Typed access; throws std::bad_variant_access on a type mismatch.
  [[nodiscard]] bool as_bool() const { return std::get<bool>(m_data); }
  [[nodiscard]] double as_number() const { return std::get<double>(m_data); }
  [[nodiscard]] const std::string& as_string() const { return std::get<std::string>(m_data); }
  [[nodiscard]] const array& as_array() const { return std::get<array>(m_data); }
  [[nodiscard]] const object& as_object() const { return std::get<object>(m_data); }

  /// The member `key` of an object, or null when absent or when this is not an object.
  [[nodiscard]] const value* find(std::string_view key) const noexcept;

  /// Compact serialization (no whitespace).
  [[nodiscard]] std::string dump() const;

 private:
  std::variant<std::monostate, bool, double, std::string, array, object> m_data;
};

/// Parses one JSON document; trailing whitespace is allowed, anything else is an error.
[[nodiscard]] value parse(std::string_view text);

/// `s` as a JSON string literal, quotes included. Control characters become \uXXXX (or the
/// short escapes); bytes >= 0x80 pass through, so UTF-8 stays UTF-8.
[[nodiscard]] std::string quote(std::string_view s);

/// A finite number in the shortest form that reads back exactly; "null" for NaN / infinity,
/// which JSON cannot represent.
[[nodiscard]] std::string number(double d);

/// Builds one JSON object member by member; keys are quoted, values are raw JSON text.
class object_writer {
 public:
  object_writer& raw(std::string_view key, std::string_view json_text);
  object_writer& str(std::string_view key, std::string_view s) { return raw(key, quote(s)); }
  object_writer& num(std::string_view key, double d) { return raw(key, number(d)); }
  object_writer& boolean(std::string_view key, bool b) { return raw(key, b ? "true" : "false"); }
  /// The finished object text.
  [[nodiscard]] std::string str() const { return "{" + m_body + "}"; }

 private:
  std::string m_body;
};

}  // namespace bench::json
