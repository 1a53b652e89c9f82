// names_test.cpp — the shared string helpers (locus/detail/strings.hpp) and the enum name
// tables (locus/detail/enum_names.hpp): to_string, parsing and the forms a message lists all
// follow from one table.
#include <locus/config.hpp>
#include <locus/dataflow/flow_scheduler.hpp>
#include <locus/detail/enum_names.hpp>
#include <locus/detail/strings.hpp>
#include <locus/locality/data_range.hpp>
#include <locus/locality/home_map.hpp>
#include <locus/locality/memory.hpp>
#include <locus/schedule/replay.hpp>

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
    EXPECT_EQ(parse_name<E>(name_of(n.value)), n.value);
  }
  EXPECT_EQ(name_of(names.front().value), names.front().name);
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

// The extensions' enums use the same tables, and their to_string prints the table's names.
TEST(enum_names, every_extension_table_round_trips_and_drives_to_string) {
  namespace df = locus::dataflow;
  namespace sc = locus::schedule;
  expect_table_round_trips<sc::replay_mode>();
  expect_table_round_trips<df::steal_mode>();
  expect_table_round_trips<df::ready_queue>();
  expect_table_round_trips<locus::access>();
  expect_table_round_trips<locus::home::kind>();
  expect_table_round_trips<locus::placement::kind>();
  for (const auto m : {sc::replay_mode::stows, sc::replay_mode::stuws, sc::replay_mode::relws})
    EXPECT_EQ(sc::to_string(m), name_of(m));
  EXPECT_EQ(sc::to_string(sc::replay_mode::relws), "relws");
  EXPECT_STREQ(df::to_string(df::steal_mode::half_optimistic), "half-optimistic");
  EXPECT_STREQ(df::to_string(df::ready_queue::priority), "priority");
  EXPECT_STREQ(df::to_string(static_cast<df::steal_mode>(9)), "?");
  EXPECT_STREQ(locus::to_string(locus::access::read_write), "read_write");
  EXPECT_EQ(locus::to_string(locus::placement::on_numa(3)), "on_numa(3)");
  EXPECT_EQ(locus::to_string(locus::placement::interleave()), "interleave");
  EXPECT_EQ(name_forms<df::steal_mode>(),
            "one of: one, half-pessimistic, half-optimistic (any case)");
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
