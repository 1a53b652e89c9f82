// names_test.cpp — the shared string helpers (locus/detail/strings.hpp) and the enum name
// tables (locus/detail/enum_names.hpp): to_string, parsing and the forms a message lists all
// follow from one table.
#include <locus/config.hpp>
#include <locus/detail/enum_names.hpp>
#include <locus/detail/strings.hpp>

#include <gtest/gtest.h>

#include <string>

namespace {

using namespace locus::detail;

TEST(strings, trim_lowercase_iequals) {
  EXPECT_EQ(trim("  a b \t\n"), "a b");
  EXPECT_EQ(trim(" \t "), "");
  EXPECT_EQ(trim(""), "");
  EXPECT_EQ(lowercase("MiB-X_1"), "mib-x_1");
  EXPECT_TRUE(iequals("Work-First", "work-first"));
  EXPECT_FALSE(iequals("work-firs", "work-first"));
  EXPECT_FALSE(iequals("work-first ", "work-first"));
}

TEST(strings, unsigned_numbers_whole_or_leading) {
  EXPECT_EQ(parse_uint("42"), 42U);
  EXPECT_EQ(parse_uint("18446744073709551615"), 18446744073709551615ULL);
  for (const char* bad : {"", "+1", "-1", " 1", "1 ", "1x", "18446744073709551616"})
    EXPECT_FALSE(parse_uint(bad).has_value()) << '"' << bad << '"';
  std::string_view rest;
  EXPECT_EQ(leading_uint("6MiB", rest), 6U);
  EXPECT_EQ(rest, "MiB");
  EXPECT_FALSE(leading_uint("MiB", rest).has_value());
}

// Every spelling in each table parses back to its value (any case, padded), and each value's
// to_string is its first spelling.
template <class E>
void expect_table_round_trips() {
  const auto names = names_of(E{});
  ASSERT_FALSE(names.empty());
  for (const auto& n : names) {
    EXPECT_EQ(parse_name<E>(n.name), n.value) << n.name;
    EXPECT_EQ(parse_name<E>("  " + lowercase(n.name) + " "), n.value) << n.name;
    std::string upper(n.name);
    for (char& c : upper)
      c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    EXPECT_EQ(parse_name<E>(upper), n.value) << n.name;
    EXPECT_EQ(parse_name<E>(to_string(n.value)), n.value);
  }
  EXPECT_EQ(to_string(names.front().value), names.front().name);
  EXPECT_FALSE(parse_name<E>("no-such-name").has_value());
  EXPECT_FALSE(parse_name<E>("").has_value());
}

TEST(enum_names, every_config_table_round_trips) {
  using locus::to_string;
  expect_table_round_trips<locus::spawn_policy>();
  expect_table_round_trips<locus::scheduler_kind>();
  expect_table_round_trips<locus::victim_policy>();
  expect_table_round_trips<locus::bind_policy>();
}

TEST(enum_names, forms_list_canonical_names_then_aliases) {
  EXPECT_EQ(name_forms<locus::spawn_policy>(),
            "one of: work-first, help-first, adaptive (any case; also work_first, help_first)");
  EXPECT_EQ(name_forms<locus::bind_policy>(), "one of: spread, close (any case)");
  EXPECT_EQ(name_of(locus::spawn_policy::help_first), "help-first");  // not the alias
  EXPECT_EQ(name_of(static_cast<locus::bind_policy>(77)), "unknown");
  EXPECT_EQ(name_of(static_cast<locus::bind_policy>(77), "?"), "?");
}

}  // namespace
