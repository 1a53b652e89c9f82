// config_test.cpp — LOCUS_* parsing: every accepted form, and for every variable that a bad
// value is rejected with a message naming the variable, quoting the value and listing the forms.
#include <locus/config.hpp>
#include <locus/runtime.hpp>
#include <locus/task.hpp>
#include <locus/topology.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

constexpr const char* all_vars[] = {
    "LOCUS_WORKERS",    "LOCUS_POLICY",     "LOCUS_VICTIMS",
    "LOCUS_TOPOLOGY",   "LOCUS_PLACES",     "LOCUS_CROSS_PLACE_STEALS",
    "LOCUS_PIN",        "LOCUS_SLAW",       "LOCUS_SCHEDULER",
    "LOCUS_ACCOUNTING", "LOCUS_LINE_BYTES", "LOCUS_HOMES_ONLY",
    "LOCUS_BIND",       "LOCUS_TRACE",      "LOCUS_CAB"};

// Clears every LOCUS_* variable for the test's duration and restores the caller's values, so
// the tests neither see nor leak settings (CI may run the suite with LOCUS_WORKERS set).
class env_guard {
 public:
  env_guard() {
    for (const char* name : all_vars) {
      const char* v = std::getenv(name);
      m_saved.emplace_back(name, v ? std::optional<std::string>(v) : std::nullopt);
      unsetenv(name);
    }
  }
  ~env_guard() {
    for (const auto& [name, value] : m_saved) {
      if (value) {
        setenv(name.c_str(), value->c_str(), 1);
      } else {
        unsetenv(name.c_str());
      }
    }
  }
  env_guard(const env_guard&) = delete;
  env_guard& operator=(const env_guard&) = delete;

  static void set(const char* name, const char* value) { setenv(name, value, 1); }

 private:
  std::vector<std::pair<std::string, std::optional<std::string>>> m_saved;
};

// Runs f, expects a config_error, and returns its message (empty if none was thrown).
std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const locus::config_error& e) {
    return e.what();
  }
  ADD_FAILURE() << "no config_error thrown";
  return {};
}

void expect_contains(const std::string& msg, std::initializer_list<std::string> parts) {
  for (const auto& p : parts)
    EXPECT_NE(msg.find(p), std::string::npos) << msg << "\n  lacks: " << p;
}

// from_env() with one variable set; returns the error message.
std::string env_error(const char* name, const char* value) {
  env_guard g;
  env_guard::set(name, value);
  return error_of([] { (void)locus::config::from_env(); });
}

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
