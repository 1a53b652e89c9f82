// config_test.cpp — LOCUS_* parsing: every accepted form, and for every variable that a bad
// value is rejected with a message naming the variable, quoting the value and listing the forms.
// The rules that need a running runtime are in config_rules_test.cpp.
#include "config_support.hpp"

#include <locus/config.hpp>
#include <locus/runtime.hpp>
#include <locus/topology.hpp>

#include <gtest/gtest.h>

#include <string>

namespace {

using config_support::all_vars;
using config_support::env_error;
using config_support::env_guard;
using config_support::error_of;
using config_support::expect_contains;

TEST(config_from_env, defaults_when_unset_or_empty) {
  env_guard g;
  auto cfg = locus::config::from_env();
  const locus::config def;
  EXPECT_EQ(cfg.workers, 0U);
  EXPECT_EQ(cfg.policy, locus::spawn_policy::adaptive);
  EXPECT_EQ(cfg.victims, locus::victim_policy::hierarchical);
  EXPECT_EQ(cfg.topology, "");
  EXPECT_EQ(cfg.places, "socket");
  EXPECT_FALSE(cfg.cross_place_steals);
  EXPECT_TRUE(cfg.pin);
  EXPECT_EQ(cfg.slaw.interval, def.slaw.interval);
  EXPECT_EQ(cfg.slaw.fresh_limit, def.slaw.fresh_limit);
  EXPECT_EQ(cfg.slaw.stack_limit, def.slaw.stack_limit);

  for (const char* name : all_vars)
    env_guard::set(name, "");
  cfg = locus::config::from_env();
  EXPECT_EQ(cfg.workers, 0U);
  EXPECT_EQ(cfg.places, "socket");
  EXPECT_TRUE(cfg.pin);
}

TEST(config_from_env, reads_every_variable) {
  env_guard g;
  env_guard::set("LOCUS_WORKERS", "3");
  env_guard::set("LOCUS_POLICY", "help-first");
  env_guard::set("LOCUS_VICTIMS", "random");
  env_guard::set("LOCUS_TOPOLOGY", "sockets=2,cores=4");
  env_guard::set("LOCUS_PLACES", "NUMA");
  env_guard::set("LOCUS_CROSS_PLACE_STEALS", "on");
  env_guard::set("LOCUS_PIN", "false");
  env_guard::set("LOCUS_SLAW", "int=8,s=100");
  const auto cfg = locus::config::from_env();
  EXPECT_EQ(cfg.workers, 3U);
  EXPECT_EQ(cfg.policy, locus::spawn_policy::help_first);
  EXPECT_EQ(cfg.victims, locus::victim_policy::random);
  EXPECT_EQ(cfg.topology, "sockets=2,cores=4");
  EXPECT_EQ(cfg.places, "numa");  // normalised to lower case
  EXPECT_TRUE(cfg.cross_place_steals);
  EXPECT_FALSE(cfg.pin);
  EXPECT_EQ(cfg.slaw.interval, 8U);
  EXPECT_EQ(cfg.slaw.fresh_limit, locus::slaw_params{}.fresh_limit);
  EXPECT_EQ(cfg.slaw.stack_limit, 100U);
}

TEST(config_scheduler, reads_slaw_and_cilk_in_any_case_and_names_the_variable) {
  {
    env_guard g;
    EXPECT_EQ(locus::config::from_env().scheduler, locus::scheduler_kind::slaw);
    env_guard::set("LOCUS_SCHEDULER", "Cilk");
    EXPECT_EQ(locus::config::from_env().scheduler, locus::scheduler_kind::cilk);
    env_guard::set("LOCUS_SCHEDULER", " slaw ");
    EXPECT_EQ(locus::config::from_env().scheduler, locus::scheduler_kind::slaw);
  }
  EXPECT_EQ(
      env_error("LOCUS_SCHEDULER", "tbb"),
      "LOCUS_SCHEDULER=\"tbb\" is not valid; expected one of: slaw, cilk, laws, cab (any case)");
}

TEST(config_bind, spread_by_default_reads_both_in_any_case_and_names_the_variable) {
  {
    env_guard g;
    EXPECT_EQ(locus::config::from_env().bind, locus::bind_policy::spread);
    EXPECT_EQ(locus::config{}.bind, locus::bind_policy::spread);
    env_guard::set("LOCUS_BIND", "Close");
    EXPECT_EQ(locus::config::from_env().bind, locus::bind_policy::close);
    env_guard::set("LOCUS_BIND", " spread ");
    EXPECT_EQ(locus::config::from_env().bind, locus::bind_policy::spread);
  }
  EXPECT_EQ(locus::to_string(locus::bind_policy::close), "close");
  EXPECT_EQ(locus::to_string(locus::bind_policy::spread), "spread");
  EXPECT_EQ(env_error("LOCUS_BIND", "master"),
            "LOCUS_BIND=\"master\" is not valid; expected one of: spread, close (any case)");
}

TEST(config_pop_fence, adaptive_by_default_reads_each_form_in_any_case_and_names_the_variable) {
  {
    env_guard g;
    EXPECT_EQ(locus::config::from_env().pop_fence, locus::pop_fence_policy::adaptive);
    EXPECT_EQ(locus::config{}.pop_fence, locus::pop_fence_policy::adaptive);
    env_guard::set("LOCUS_POP_FENCE", " Asymmetric ");
    EXPECT_EQ(locus::config::from_env().pop_fence, locus::pop_fence_policy::asymmetric);
    env_guard::set("LOCUS_POP_FENCE", "FULL");
    EXPECT_EQ(locus::config::from_env().pop_fence, locus::pop_fence_policy::full);
    env_guard::set("LOCUS_POP_FENCE", "adaptive");
    EXPECT_EQ(locus::config::from_env().pop_fence, locus::pop_fence_policy::adaptive);
  }
  EXPECT_EQ(locus::to_string(locus::pop_fence_policy::full), "full");
  EXPECT_EQ(locus::to_string(locus::pop_fence_policy::asymmetric), "asymmetric");
  EXPECT_EQ(locus::to_string(locus::pop_fence_policy::adaptive), "adaptive");
  EXPECT_EQ(env_error("LOCUS_POP_FENCE", "auto"),
            "LOCUS_POP_FENCE=\"auto\" is not valid; expected one of: full, asymmetric, adaptive "
            "(any case)");
}

TEST(config_workers, accepts_1_to_4096) {
  EXPECT_EQ(locus::parse_workers("1", "w"), 1U);
  EXPECT_EQ(locus::parse_workers("8", "w"), 8U);
  EXPECT_EQ(locus::parse_workers("4096", "w"), 4096U);
}

TEST(config_workers, rejects_bad_values_naming_the_variable) {
  for (const char* bad : {"0", "-1", "abc", "3x", "4097", "+2", "1.5", "99999999999999999999"}) {
    const auto msg = env_error("LOCUS_WORKERS", bad);
    expect_contains(msg, {std::string("LOCUS_WORKERS=\"") + bad + "\" is not valid",
                          "expected a positive integer from 1 to 4096"});
  }
  EXPECT_EQ(error_of([] { (void)locus::parse_workers("", "--workers"); }),
            "--workers=\"\" is not valid; expected a positive integer from 1 to 4096");
}

TEST(config_policy, accepts_dashed_and_underscored_names) {
  using locus::spawn_policy;
  EXPECT_EQ(locus::parse_spawn_policy("work-first", "p"), spawn_policy::work_first);
  EXPECT_EQ(locus::parse_spawn_policy("work_first", "p"), spawn_policy::work_first);
  EXPECT_EQ(locus::parse_spawn_policy("help-first", "p"), spawn_policy::help_first);
  EXPECT_EQ(locus::parse_spawn_policy("help_first", "p"), spawn_policy::help_first);
  EXPECT_EQ(locus::parse_spawn_policy("adaptive", "p"), spawn_policy::adaptive);
  EXPECT_EQ(locus::parse_spawn_policy("Work-First", "p"), spawn_policy::work_first);
}

TEST(config_policy, to_string_round_trips_with_dashes) {
  for (auto p : {locus::spawn_policy::work_first, locus::spawn_policy::help_first,
                 locus::spawn_policy::adaptive}) {
    EXPECT_EQ(locus::parse_spawn_policy(locus::to_string(p), "p"), p);
  }
  EXPECT_EQ(locus::to_string(locus::spawn_policy::work_first), "work-first");
  EXPECT_EQ(locus::to_string(locus::spawn_policy::help_first), "help-first");
  EXPECT_EQ(locus::to_string(locus::spawn_policy::adaptive), "adaptive");
}

TEST(config_policy, rejects_unknown_names_with_the_exact_message) {
  EXPECT_EQ(env_error("LOCUS_POLICY", "fast"),
            "LOCUS_POLICY=\"fast\" is not valid; expected one of: work-first, help-first, "
            "adaptive (any case; also work_first, help_first)");
  expect_contains(env_error("LOCUS_POLICY", "workfirst"), {"LOCUS_POLICY=\"workfirst\""});
}

TEST(config_victims, accepts_both_and_rejects_others) {
  EXPECT_EQ(locus::parse_victim_policy("random", "v"), locus::victim_policy::random);
  EXPECT_EQ(locus::parse_victim_policy("hierarchical", "v"), locus::victim_policy::hierarchical);
  EXPECT_EQ(locus::to_string(locus::victim_policy::random), "random");
  EXPECT_EQ(locus::to_string(locus::victim_policy::hierarchical), "hierarchical");
  EXPECT_EQ(env_error("LOCUS_VICTIMS", "nearest"),
            "LOCUS_VICTIMS=\"nearest\" is not valid; expected one of: random, hierarchical "
            "(any case)");
}

TEST(config_topology, from_env_validates_the_spec_eagerly) {
  struct bad_case {
    const char* value;
    const char* reason;
  };
  for (const auto& c :
       {bad_case{"sockts=2", "unknown key \"sockts\""},
        bad_case{"sockets=two", "sockets must be a positive integer"},
        bad_case{"cores=0", "cores must be a positive integer"},
        bad_case{"l3=6XiB", "l3 must be a positive size"},
        bad_case{"l3=6MBs", "l3 must be a positive size"}, bad_case{"cores", "missing '='"}}) {
    const auto msg = env_error("LOCUS_TOPOLOGY", c.value);
    expect_contains(msg,
                    {std::string("LOCUS_TOPOLOGY=\"") + c.value + "\" is not valid", c.reason,
                     "expected comma-separated key=value", "sockets", "l3groups", "KiB, M, MiB"});
  }
}

TEST(config_places, accepts_every_form) {
  for (const char* ok : {"socket", "numa", "l3", "none", "1", "4", "4096", "L3"}) {
    EXPECT_NO_THROW(locus::validate_places(ok, "places")) << ok;
  }
}

TEST(config_places, rejects_bad_values_naming_the_variable) {
  for (const char* bad : {"cores", "sockets", "0", "-2", "2x", "4097"}) {
    EXPECT_EQ(env_error("LOCUS_PLACES", bad),
              std::string("LOCUS_PLACES=\"") + bad +
                  "\" is not valid; expected one of: socket, numa, l3, none (any case), or a "
                  "positive integer N (N equal groups, at most 4096)");
  }
}

TEST(config_bool, accepts_six_forms) {
  for (const char* t : {"1", "true", "on", "TRUE", "On"})
    EXPECT_TRUE(locus::parse_bool(t, "b")) << t;
  for (const char* f : {"0", "false", "off", "False"})
    EXPECT_FALSE(locus::parse_bool(f, "b")) << f;
}

TEST(config_bool, both_variables_reject_bad_values) {
  for (const char* var : {"LOCUS_CROSS_PLACE_STEALS", "LOCUS_PIN"}) {
    for (const char* bad : {"yes", "2", "enable"}) {
      EXPECT_EQ(env_error(var, bad), std::string(var) + "=\"" + bad +
                                         "\" is not valid; expected one of: 1, 0, true, false, "
                                         "on, off (any case)");
    }
  }
}

TEST(config_accounting, line_bytes_and_homes_only_come_from_the_environment) {
  env_guard g;
  auto c = locus::config::from_env();
  EXPECT_EQ(c.line_bytes, 64u);
  EXPECT_FALSE(c.homes_only);
  env_guard::set("LOCUS_LINE_BYTES", "1024");
  env_guard::set("LOCUS_HOMES_ONLY", "on");
  c = locus::config::from_env();
  EXPECT_EQ(c.line_bytes, 1024u);
  EXPECT_TRUE(c.homes_only);
  for (const char* bad : {"100", "4", "8192", "64B", "-64", "0"}) {
    env_guard::set("LOCUS_LINE_BYTES", bad);
    EXPECT_EQ(error_of([] { (void)locus::config::from_env(); }),
              std::string("LOCUS_LINE_BYTES=\"") + bad +
                  "\" is not valid; expected a power of two from 8 to 4096 (bytes), e.g. 64");
  }
  env_guard::set("LOCUS_LINE_BYTES", "64");
  env_guard::set("LOCUS_HOMES_ONLY", "maybe");
  EXPECT_NE(error_of([] { (void)locus::config::from_env(); }).find("LOCUS_HOMES_ONLY=\"maybe\""),
            std::string::npos);
}

// Set in code, a bad line size is refused when the runtime starts, naming the field.
TEST(config_accounting, a_bad_line_bytes_in_code_names_the_field) {
  env_guard g;
  locus::config c;
  c.workers = 1;
  c.pin = false;
  c.accounting = true;
  c.line_bytes = 48;
  EXPECT_NE(error_of([&] {
              locus::runtime rt{c};
            }).find("line_bytes=\"48\" is not valid; expected a power of two from 8 to 4096"),
            std::string::npos);
}

TEST(config_slaw, accepts_any_subset) {
  const locus::slaw_params def;
  auto p = locus::parse_slaw("int=32", "s");
  EXPECT_EQ(p.interval, 32U);
  EXPECT_EQ(p.fresh_limit, def.fresh_limit);
  EXPECT_EQ(p.stack_limit, def.stack_limit);
  p = locus::parse_slaw("f=10,s=20", "s");
  EXPECT_EQ(p.interval, def.interval);
  EXPECT_EQ(p.fresh_limit, 10U);
  EXPECT_EQ(p.stack_limit, 20U);
  p = locus::parse_slaw("s=3, int=1 ,f=2", "s");
  EXPECT_EQ(p.interval, 1U);
  EXPECT_EQ(p.fresh_limit, 2U);
  EXPECT_EQ(p.stack_limit, 3U);
  EXPECT_EQ(p.steal_threshold, def.steal_threshold);
  p = locus::parse_slaw("steals=4", "s");
  EXPECT_EQ(p.steal_threshold, 4U);
}

TEST(config_slaw, rejects_bad_items_naming_the_variable) {
  struct bad_case {
    const char* value;
    const char* reason;
  };
  for (const auto& c : {bad_case{"x=1", "unknown key \"x\""}, bad_case{"int", "missing '='"},
                        bad_case{"int=0", "int must be a positive integer"},
                        bad_case{"f=abc", "f must be a positive integer"},
                        bad_case{"s=-1", "s must be a positive integer"},
                        bad_case{"int=1,int=2", "given twice"}, bad_case{"int=1,", "empty item"},
                        bad_case{"f=99999999999", "f must be a positive integer"}}) {
    const auto msg = env_error("LOCUS_SLAW", c.value);
    expect_contains(msg, {std::string("LOCUS_SLAW=\"") + c.value + "\" is not valid", c.reason,
                          "expected comma-separated key=N pairs with keys int, f, s"});
  }
}

TEST(config_error_format, escapes_unprintable_characters) {
  const auto e = locus::make_config_error("X", "a\"b\n", "something", "why");
  EXPECT_STREQ(e.what(), "X=\"a\\x22b\\x0a\" is not valid (why); expected something");
}

}  // namespace
