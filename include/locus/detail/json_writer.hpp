// locus/detail/json_writer.hpp — the runtime's one JSON writer: objects, arrays, keys,
// numbers, booleans and escaped strings, appended to a string in one pass. (The benchmark
// harness, which also parses JSON, uses nlohmann-json; the runtime library keeps no
// dependency for the few documents it writes.)
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

namespace locus::detail {

/// Writes one JSON value. The caller nests the calls as the document nests: begin/end pairs
/// match, and inside an object each value follows its key(). Commas are placed by the writer.
class json_writer {
 public:
  json_writer& begin_object() { return open('{'); }
  json_writer& end_object() { return close('}'); }
  json_writer& begin_array() { return open('['); }
  json_writer& end_array() { return close(']'); }
  /// An object's key; the next value (or begin_*) is its value.
  json_writer& key(std::string_view k);

  json_writer& value(std::uint64_t v);
  json_writer& value(std::int64_t v);
  /// Shortest form that reads back to the same double; NaN and infinities (which JSON cannot
  /// hold) are written as null.
  json_writer& value(double v);
  json_writer& value(bool v);
  /// A string, escaped as RFC 8259 requires (quote, backslash, control characters).
  json_writer& value(std::string_view v);
  json_writer& value(const char* v) { return value(std::string_view(v)); }
  /// Any other integer type, widened without changing its value.
  template <class T>
  requires(std::is_integral_v<T> && !std::is_same_v<T, bool>) json_writer& value(T v) {
    if constexpr (std::is_signed_v<T>) {
      return value(static_cast<std::int64_t>(v));
    } else {
      return value(static_cast<std::uint64_t>(v));
    }
  }
  json_writer& null();

  /// key(k) then value(v).
  template <class T>
  json_writer& field(std::string_view k, const T& v) {
    key(k);
    return value(v);
  }

  /// The document written so far (moved out).
  [[nodiscard]] std::string take() noexcept { return std::move(m_out); }

 private:
  json_writer& open(char c);
  json_writer& close(char c);
  void separate();  ///< a comma unless this is the first element or follows a key
  void put_string(std::string_view s);

  std::string m_out;
  bool m_first = true;  ///< no element yet in the innermost container, or a key was just written
};

}  // namespace locus::detail
