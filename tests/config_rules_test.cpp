// config_rules_test.cpp — configuration rules checked on a running runtime: SLAW's steals=0
// in the environment and in code, places against workers, and the messages of out-of-range
// places; and that every form's message lists every accepted spelling.
#include "config_support.hpp"

#include <locus/config.hpp>
#include <locus/runtime.hpp>
#include <locus/task.hpp>

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace {

using config_support::env_error;
using config_support::env_guard;
using config_support::error_of;
using config_support::expect_contains;

// A runtime on a small virtual machine, so the tests do not depend on the real one.
locus::config small_config(unsigned workers) {
  locus::config c;
  c.workers = workers;
  c.topology = "cores=2";
  c.places = "none";
  return c;
}

TEST(config_slaw, steals_zero_is_one_rule_in_env_and_in_code) {
  // 0 is meaningful: any steal during an interval switches the next one to help-first.
  EXPECT_EQ(locus::parse_slaw("steals=0", "s").steal_threshold, 0U);
  EXPECT_EQ(locus::parse_slaw("int=8,steals=0", "s").interval, 8U);
  {
    env_guard g;
    env_guard::set("LOCUS_SLAW", "steals=0");
    EXPECT_EQ(locus::config::from_env().slaw.steal_threshold, 0U);
  }
  auto cfg = small_config(2);
  cfg.slaw.steal_threshold = 0;
  EXPECT_NO_THROW(locus::validate_slaw(cfg.slaw, "slaw"));
  locus::runtime rt{cfg};
  EXPECT_EQ(rt.cfg().slaw.steal_threshold, 0U);
  // Negative or non-numeric stays refused, with the rule in the reason.
  expect_contains(env_error("LOCUS_SLAW", "steals=-1"),
                  {"LOCUS_SLAW=\"steals=-1\" is not valid (steals must be a non-negative integer",
                   "steals a non-negative integer (0: any steal switches to help-first)"});
}

TEST(config_slaw, zero_in_code_names_the_field_and_the_value) {
  struct zero_case {
    void (*zero)(locus::slaw_params&);
    const char* message;
  };
  for (const auto& c :
       {zero_case{[](locus::slaw_params& p) { p.interval = 0; },
                  "slaw.interval=\"0\" is not valid; expected a positive integer below 2^32"},
        zero_case{[](locus::slaw_params& p) { p.fresh_limit = 0; },
                  "slaw.fresh_limit=\"0\" is not valid; expected a positive integer below 2^32"},
        zero_case{[](locus::slaw_params& p) { p.stack_limit = 0; },
                  "slaw.stack_limit=\"0\" is not valid; expected a positive integer below 2^32"}}) {
    auto cfg = small_config(1);
    c.zero(cfg.slaw);
    EXPECT_EQ(error_of([&] { locus::runtime rt{cfg}; }), c.message);
    EXPECT_EQ(error_of([&] { locus::validate_slaw(cfg.slaw, "slaw"); }), c.message);
  }
}

TEST(config_places, more_places_than_workers_names_the_variable_it_came_from) {
  const std::string tail =
      "=\"3\" is not valid (more places than workers); expected one of: socket, numa, l3, none "
      "(any case), or a positive integer N no larger than the number of workers (2)";
  env_guard g;
  env_guard::set("LOCUS_PLACES", "3");
  auto cfg = locus::config::from_env();
  cfg.workers = 2;
  cfg.topology = "cores=2";
  EXPECT_EQ(cfg.places_input(), "LOCUS_PLACES");
  EXPECT_EQ(error_of([&] { locus::runtime rt{cfg}; }), "LOCUS_PLACES" + tail);
  // Set in code, or changed in code after from_env(): the field is named.
  auto in_code = small_config(2);
  in_code.places = "3";
  EXPECT_EQ(in_code.places_input(), "places");
  EXPECT_EQ(error_of([&] { locus::runtime rt{in_code}; }), "places" + tail);
  cfg.places = "3 ";
  EXPECT_EQ(cfg.places_input(), "places");
}

// Runs `body` on a runtime and returns the message of the std::out_of_range it throws.
template <class F>
std::string out_of_range_of(F&& body) {
  try {
    body();
  } catch (const std::out_of_range& e) {
    return e.what();
  }
  ADD_FAILURE() << "no std::out_of_range thrown";
  return {};
}

locus::task<int> one() {
  co_return 1;
}

locus::task<int> spawn_at(unsigned p) {
  auto f = co_await locus::spawn(one(), locus::at(p));
  co_await locus::sync();
  co_return f.get();
}

TEST(config_messages, a_place_that_does_not_exist_is_counted_in_singular_or_plural) {
  locus::runtime one{small_config(2)};  // places = "none": one place
  EXPECT_EQ(out_of_range_of([&] { (void)one.run(spawn_at(0), locus::at(1)); }),
            "locus::runtime::run: at(1) names no place; expected at(0) (this runtime has 1 "
            "place)");
  EXPECT_EQ(out_of_range_of([&] { (void)one.run(spawn_at(1)); }),
            "locus: spawn at(1) names no place; expected at(0) (this runtime has 1 place)");
  auto cfg = small_config(2);
  cfg.places = "2";
  locus::runtime two{cfg};
  EXPECT_EQ(out_of_range_of([&] { (void)two.run(spawn_at(0), locus::at(7)); }),
            "locus::runtime::run: at(7) names no place; expected at(0) to at(1) (this runtime "
            "has 2 places)");
  EXPECT_EQ(out_of_range_of([&] { (void)two.run(spawn_at(2)); }),
            "locus: spawn at(2) names no place; expected at(0) to at(1) (this runtime has 2 "
            "places)");
}

TEST(config_topology, size_units_are_case_insensitive_and_binary) {
  struct size_case {
    const char* spec;
    std::size_t l3, l2, l1;
  };
  constexpr std::size_t k = 1024, m = k * k, g = m * k;
  for (const auto& c : {size_case{"l3=6MiB,l2=512KiB,l1=32K", 6 * m, 512 * k, 32 * k},
                        size_case{"l3=6mib,l2=512kib,l1=32k", 6 * m, 512 * k, 32 * k},
                        size_case{"l3=6MIB,l2=1m,l1=48KB", 6 * m, 1 * m, 48 * k},
                        size_case{"l3=6MB,l2=2mb,l1=32kb", 6 * m, 2 * m, 32 * k},
                        size_case{"l3=1GiB,l2=1gb,l1=100b", g, g, 100},
                        size_case{"l3=1g,l2=2 MiB,l1=64 kib", g, 2 * m, 64 * k}}) {
    const auto t = locus::topology::from_spec(c.spec, "LOCUS_TOPOLOGY");
    EXPECT_EQ(t.l3_bytes(), c.l3) << c.spec;
    EXPECT_EQ(t.l2_bytes(), c.l2) << c.spec;
    EXPECT_EQ(t.l1d_bytes(), c.l1) << c.spec;
  }
  for (const char* bad : {"l3=6XiB", "l3=6MBs", "l3=6 M B", "l3=MiB", "l3=0KiB", "l3=-1K"}) {
    expect_contains(
        env_error("LOCUS_TOPOLOGY", bad),
        {std::string("LOCUS_TOPOLOGY=\"") + bad + "\" is not valid", "l3 must be a positive size",
         "B, K, KiB, M, MiB, G, GiB, or KB, MB, GB (any case; all binary"});
  }
}

TEST(config_messages, every_form_message_lists_every_accepted_spelling) {
  // Each accepted spelling appears in the message that refuses a bad value.
  expect_contains(env_error("LOCUS_POLICY", "x"),
                  {"work-first", "help-first", "adaptive", "work_first", "help_first", "any case"});
  expect_contains(env_error("LOCUS_PIN", "x"), {"1, 0, true, false, on, off", "any case"});
  expect_contains(env_error("LOCUS_PLACES", "x"), {"socket, numa, l3, none", "any case"});
  expect_contains(env_error("LOCUS_VICTIMS", "x"), {"random, hierarchical", "any case"});
  // And each is accepted.
  EXPECT_EQ(locus::parse_spawn_policy("HELP_FIRST", "p"), locus::spawn_policy::help_first);
  EXPECT_EQ(locus::parse_victim_policy("Random", "v"), locus::victim_policy::random);
  EXPECT_TRUE(locus::parse_bool("ON", "b"));
  EXPECT_NO_THROW(locus::validate_places("Socket", "places"));
  EXPECT_EQ(locus::parse_slaw("INT=3,Steals=2", "s").interval, 3U);
}

}  // namespace
