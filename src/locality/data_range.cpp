// data_range.cpp — the errors of the data_range factories and LAWS's Eq. 1.
#include <locus/locality/data_range.hpp>

#include <array>
#include <cstdio>
#include <string>

#include <locus/config.hpp>

namespace locus {
namespace {

std::string pointer_text(const void* p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%p", p);
  return buf;
}

}  // namespace

namespace locality::detail {

void throw_null_range(const char* factory) {
  throw make_config_error(std::string(factory) + " pointer", "nullptr",
                          "the address of at least one element");
}

void throw_empty_range(const char* factory, const char* input) {
  throw make_config_error(std::string(factory) + " " + input, "0",
                          "at least 1 element (a data range is never empty)");
}

void throw_inverted_range(const void* first, const void* last) {
  const bool empty = first == last;
  throw make_config_error("data_range::between",
                          "first=" + pointer_text(first) + ", last=" + pointer_text(last),
                          "first < last (the half-open range [first, last) of at least 1 byte)",
                          empty ? "empty range" : "inverted range: last is before first");
}

}  // namespace locality::detail

data_range data_range::between(const void* first, const void* last, access mode) {
  // Compared as integers: < between pointers into different objects is unspecified.
  const auto a = reinterpret_cast<std::uintptr_t>(first);
  const auto z = reinterpret_cast<std::uintptr_t>(last);
  if (z <= a) locality::detail::throw_inverted_range(first, last);
  return {static_cast<const std::byte*>(first), z - a, mode};
}

data_range part(const data_range& r, std::size_t i, std::size_t b, std::size_t grain) {
  if (b == 0) {
    throw make_config_error("part b", "0", "at least 1 part (the number of children spawned)");
  }
  if (i >= b) {
    throw make_config_error(
        "part i", std::to_string(i),
        "0 to " + std::to_string(b - 1) + " (i < b = " + std::to_string(b) + ")");
  }
  if (grain == 0) throw make_config_error("part grain", "0", "at least 1 byte");
  const std::size_t units = r.bytes / grain;
  const std::size_t share = units / b;  // grains in each of the first b - 1 parts
  const std::size_t offset = i * share * grain;
  const std::size_t bytes = i + 1 < b ? share * grain : r.bytes - offset;
  return {r.begin + offset, bytes, r.mode};
}

std::string to_string(const data_range& r) {
  return pointer_text(r.begin) + "+" + std::to_string(r.bytes) + " (" + to_string(r.mode) + ")";
}

namespace {
constexpr std::array<detail::enum_name<access>, 3> access_names{{
    {access::read, "read"},
    {access::write, "write"},
    {access::read_write, "read_write"},
}};
}  // namespace

std::span<const detail::enum_name<access>> names_of(access) noexcept {
  return access_names;
}

// The table's names are string literals, so each view ends in a NUL: .data() is a C string.
const char* to_string(access mode) noexcept {
  return detail::name_of(mode, "?").data();
}

}  // namespace locus
