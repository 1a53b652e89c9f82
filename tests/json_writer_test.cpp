// json_writer_test.cpp — the runtime's JSON writer (locus/detail/json_writer.hpp): commas,
// nesting, escapes, numbers.
#include <locus/detail/json_writer.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

namespace {

using locus::detail::json_writer;

TEST(json_writer, nests_objects_and_arrays_with_commas_between_elements) {
  json_writer w;
  w.begin_object();
  w.field("a", std::uint64_t{1});
  w.key("list").begin_array();
  w.value(2U).value(-3).begin_object().end_object().begin_array().end_array();
  w.end_array();
  w.key("empty").begin_object().end_object();
  w.field("t", true).field("f", false);
  w.key("n").null();
  w.end_object();
  EXPECT_EQ(w.take(), R"({"a":1,"list":[2,-3,{},[]],"empty":{},"t":true,"f":false,"n":null})");
}

TEST(json_writer, escapes_strings_and_keys) {
  json_writer w;
  w.begin_object();
  w.field("k\"ey", std::string_view("q\" b\\ n\n t\t r\r \x01 \x1f é"));
  w.end_object();
  EXPECT_EQ(w.take(), "{\"k\\\"ey\":\"q\\\" b\\\\ n\\n t\\t r\\r \\u0001 \\u001f é\"}");
}

TEST(json_writer, numbers_exact_and_shortest_non_finite_as_null) {
  json_writer w;
  w.begin_array();
  w.value(std::numeric_limits<std::uint64_t>::max());
  w.value(std::numeric_limits<std::int64_t>::min());
  w.value(0.1).value(1e300).value(2.0);
  w.value(std::numeric_limits<double>::quiet_NaN());
  w.value(std::numeric_limits<double>::infinity());
  w.end_array();
  EXPECT_EQ(w.take(), "[18446744073709551615,-9223372036854775808,0.1,1e+300,2,null,null]");
}

}  // namespace
