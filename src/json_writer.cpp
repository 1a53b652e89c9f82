// json_writer.cpp — see locus/detail/json_writer.hpp.
#include "locus/detail/json_writer.hpp"

#include <array>
#include <charconv>
#include <cmath>

namespace locus::detail {

void json_writer::separate() {
  if (!m_first) m_out += ',';
  m_first = false;
}

json_writer& json_writer::open(char c) {
  separate();
  m_out += c;
  m_first = true;
  return *this;
}

json_writer& json_writer::close(char c) {
  m_out += c;
  m_first = false;
  return *this;
}

json_writer& json_writer::key(std::string_view k) {
  separate();
  put_string(k);
  m_out += ':';
  m_first = true;  // the value follows without a comma
  return *this;
}

json_writer& json_writer::value(std::uint64_t v) {
  separate();
  m_out += std::to_string(v);
  return *this;
}

json_writer& json_writer::value(std::int64_t v) {
  separate();
  m_out += std::to_string(v);
  return *this;
}

json_writer& json_writer::value(double v) {
  if (!std::isfinite(v)) return null();
  separate();
  std::array<char, 32> buf{};
  const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), v);  // shortest round trip
  m_out.append(buf.data(), r.ptr);
  return *this;
}

json_writer& json_writer::value(bool v) {
  separate();
  m_out += v ? "true" : "false";
  return *this;
}

json_writer& json_writer::value(std::string_view v) {
  separate();
  put_string(v);
  return *this;
}

json_writer& json_writer::null() {
  separate();
  m_out += "null";
  return *this;
}

void json_writer::put_string(std::string_view s) {
  constexpr std::string_view hex = "0123456789abcdef";
  m_out += '"';
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '"':
        m_out += "\\\"";
        break;
      case '\\':
        m_out += "\\\\";
        break;
      case '\n':
        m_out += "\\n";
        break;
      case '\t':
        m_out += "\\t";
        break;
      case '\r':
        m_out += "\\r";
        break;
      default:
        if (u < 0x20) {
          m_out += "\\u00";
          m_out += hex[u >> 4];
          m_out += hex[u & 0xf];
        } else {
          m_out += c;  // bytes >= 0x80 pass through: UTF-8 stays UTF-8
        }
    }
  }
  m_out += '"';
}

}  // namespace locus::detail
