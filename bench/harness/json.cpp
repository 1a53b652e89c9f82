// bench/harness/json.cpp — JSON escaping, number formatting and a recursive-descent parser.
#include "json.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <system_error>

namespace bench::json {

const value* value::find(std::string_view key) const noexcept {
  if (!is_object()) return nullptr;
  for (const auto& [k, v] : std::get<object>(m_data)) {
    if (k == key) return &v;
  }
  return nullptr;
}

std::string value::dump() const {
  switch (m_data.index()) {
    case 0:
      return "null";
    case 1:
      return as_bool() ? "true" : "false";
    case 2:
      return number(as_number());
    case 3:
      return quote(as_string());
    case 4: {
      std::string out = "[";
      for (const auto& v : as_array()) {
        if (out.size() > 1) out += ',';
        out += v.dump();
      }
      return out + "]";
    }
    default: {
      object_writer w;
      for (const auto& [k, v] : as_object())
        w.raw(k, v.dump());
      return w.str();
    }
  }
}

std::string quote(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          static constexpr char hex[] = "0123456789abcdef";
          out += "\\u00";
          out += hex[(c >> 4) & 0xf];
          out += hex[c & 0xf];
        } else {
          out += c;
        }
    }
  }
  out += '"';
  return out;
}

std::string number(double d) {
  if (!std::isfinite(d)) return "null";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, d);
  return std::string(buf, res.ptr);
}

object_writer& object_writer::raw(std::string_view key, std::string_view json_text) {
  if (!m_body.empty()) m_body += ',';
  m_body += quote(key);
  m_body += ':';
  m_body += json_text;
  return *this;
}

namespace {

// Recursive-descent parser over a string_view; depth-limited so a hostile or broken child
// cannot overflow the parent's stack.
class parser {
 public:
  explicit parser(std::string_view text) : m_text(text) {}

  value document() {
    value v = parse_value(0);
    skip_ws();
    if (m_pos != m_text.size()) fail("trailing characters");
    return v;
  }

 private:
  static constexpr int max_depth = 64;

  [[noreturn]] void fail(const std::string& what) const {
    throw parse_error("JSON: " + what + " at offset " + std::to_string(m_pos));
  }

  void skip_ws() {
    while (m_pos < m_text.size() && (m_text[m_pos] == ' ' || m_text[m_pos] == '\t' ||
                                     m_text[m_pos] == '\n' || m_text[m_pos] == '\r')) {
      ++m_pos;
    }
  }

  char peek() {
    skip_ws();
    if (m_pos >= m_text.size()) fail("unexpected end of input");
    return m_text[m_pos];
  }

  void expect(char c) {
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++m_pos;
  }

  bool consume_word(std::string_view word) {
    if (m_text.substr(m_pos, word.size()) != word) return false;
    m_pos += word.size();
    return true;
  }

  value parse_value(int depth) {
    if (depth > max_depth) fail("nesting too deep");
    char c = peek();
    if (c == '{') return parse_object(depth);
    if (c == '[') return parse_array(depth);
    if (c == '"') return value(parse_string());
    if (consume_word("true")) return value(true);
    if (consume_word("false")) return value(false);
    if (consume_word("null")) return value();
    return value(parse_number());
  }

  value parse_object(int depth) {
    expect('{');
    value::object members;
    if (peek() == '}') {
      ++m_pos;
      return value(std::move(members));
    }
    for (;;) {
      if (peek() != '"') fail("expected a string key");
      std::string key = parse_string();
      expect(':');
      members.emplace_back(std::move(key), parse_value(depth + 1));
      if (peek() == ',') {
        ++m_pos;
        continue;
      }
      expect('}');
      return value(std::move(members));
    }
  }

  value parse_array(int depth) {
    expect('[');
    value::array items;
    if (peek() == ']') {
      ++m_pos;
      return value(std::move(items));
    }
    for (;;) {
      items.push_back(parse_value(depth + 1));
      if (peek() == ',') {
        ++m_pos;
        continue;
      }
      expect(']');
      return value(std::move(items));
    }
  }

  double parse_number() {
    std::size_t start = m_pos;
    // from_chars does not accept a leading '+', nor does JSON; it does accept "inf"/"nan",
    // which JSON does not, so the characters are checked first.
    while (m_pos < m_text.size() &&
           (std::isdigit(static_cast<unsigned char>(m_text[m_pos])) || m_text[m_pos] == '-' ||
            m_text[m_pos] == '+' || m_text[m_pos] == '.' || m_text[m_pos] == 'e' ||
            m_text[m_pos] == 'E')) {
      ++m_pos;
    }
    if (start == m_pos) fail("unexpected character");
    double d = 0;
    auto res = std::from_chars(m_text.data() + start, m_text.data() + m_pos, d);
    if (res.ec != std::errc() || res.ptr != m_text.data() + m_pos) {
      m_pos = start;
      fail("bad number");
    }
    return d;
  }

  unsigned hex4() {
    if (m_pos + 4 > m_text.size()) fail("short \\u escape");
    unsigned v = 0;
    for (int i = 0; i < 4; ++i) {
      char c = m_text[m_pos++];
      v <<= 4;
      if (c >= '0' && c <= '9') {
        v |= static_cast<unsigned>(c - '0');
      } else if (c >= 'a' && c <= 'f') {
        v |= static_cast<unsigned>(c - 'a' + 10);
      } else if (c >= 'A' && c <= 'F') {
        v |= static_cast<unsigned>(c - 'A' + 10);
      } else {
        fail("bad \\u escape");
      }
    }
    return v;
  }

  static void append_utf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xc0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xe0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
      out += static_cast<char>(0x80 | (cp & 0x3f));
    } else {
      out += static_cast<char>(0xf0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
      out += static_cast<char>(0x80 | (cp & 0x3f));
    }
  }

  std::string parse_string() {
    expect('"');
    std::string out;
    for (;;) {
      if (m_pos >= m_text.size()) fail("unterminated string");
      char c = m_text[m_pos++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (m_pos >= m_text.size()) fail("unterminated escape");
      char e = m_text[m_pos++];
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out += e;
          break;
        case 'n':
          out += '\n';
          break;
        case 't':
          out += '\t';
          break;
        case 'r':
          out += '\r';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'u': {
          std::uint32_t cp = hex4();
          if (cp >= 0xd800 && cp < 0xdc00 && m_text.substr(m_pos, 2) == "\\u") {
            m_pos += 2;
            std::uint32_t low = hex4();
            if (low < 0xdc00 || low >= 0xe000) fail("bad surrogate pair");
            cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
          }
          append_utf8(out, cp);
          break;
        }
        default:
          fail("bad escape");
      }
    }
  }

  std::string_view m_text;
  std::size_t m_pos = 0;
};

}  // namespace

value parse(std::string_view text) {
  return parser(text).document();
}

}  // namespace bench::json
