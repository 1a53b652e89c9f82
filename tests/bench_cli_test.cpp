// tests/bench_cli_test.cpp — the locus-bench command line (bench/harness/cli.*, names.*): options
// in both forms, defaults, lists, the names from the library's tables, the errors and their
// messages.
//
// Built only when the bench targets exist (tests/CMakeLists.txt defines LOCUS_TEST_KERNELS
// when it links locus_kernels).
#ifdef LOCUS_TEST_KERNELS

#include <gtest/gtest.h>
#include <locus/dataflow/flow_scheduler.hpp>
#include <locus/schedule/replay.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "bench_support.hpp"
#include "harness/cli.hpp"
#include "registry.hpp"

namespace {

using bench::cli_error;
using bench::runtime_kind;
using bench_test::parse;

// The message parse() throws for `args`; an empty string (and a failure) when it accepts them.
std::string error_of(std::vector<std::string> args) {
  try {
    (void)parse(std::move(args));
  } catch (const cli_error& e) {
    return e.what();
  }
  ADD_FAILURE() << "the command line was accepted";
  return "";
}

TEST(bench_cli, parses_lists_in_both_option_forms) {
  auto o = parse({"fib,nqueens", "--size", "small,30", "--runtime=serial,locus,tbb,omp", "--policy",
                  "work-first,help_first,adaptive", "--victims=random,hierarchical", "--workers",
                  "1,2,4", "--reps", "3", "--json", "out.json", "--timeout=2.5"});
  ASSERT_EQ(o.kernels.size(), 2u);
  EXPECT_EQ(o.kernels[0]->name, "fib");
  EXPECT_EQ(o.kernels[1]->name, "nqueens");
  EXPECT_EQ(o.sizes, (std::vector<std::string>{"small", "30"}));
  EXPECT_EQ(o.runtimes, (std::vector<runtime_kind>{runtime_kind::serial, runtime_kind::locus,
                                                   runtime_kind::tbb, runtime_kind::omp}));
  EXPECT_EQ(o.policies, (std::vector<locus::spawn_policy>{locus::spawn_policy::work_first,
                                                          locus::spawn_policy::help_first,
                                                          locus::spawn_policy::adaptive}));
  EXPECT_EQ(o.victims, (std::vector<locus::victim_policy>{locus::victim_policy::random,
                                                          locus::victim_policy::hierarchical}));
  EXPECT_EQ(o.workers, (std::vector<unsigned>{1, 2, 4}));
  EXPECT_EQ(o.reps, 3u);
  EXPECT_EQ(o.json_path, "out.json");
  EXPECT_DOUBLE_EQ(o.timeout_s, 2.5);
  EXPECT_FALSE(o.child);
}

TEST(bench_cli, fills_defaults_for_options_left_out) {
  auto o = parse({"fib"});
  EXPECT_EQ(o.sizes, (std::vector<std::string>{"default"}));
  EXPECT_EQ(o.runtimes, (std::vector<runtime_kind>{runtime_kind::serial, runtime_kind::locus}));
  EXPECT_EQ(o.workers, (std::vector<unsigned>{1, 2}));
  EXPECT_EQ(o.reps, 5u);
  EXPECT_EQ(o.policies.size(), 1u);
  EXPECT_EQ(o.victims.size(), 1u);
  EXPECT_TRUE(o.json_path.empty());
}

TEST(bench_cli, all_means_every_registered_kernel_and_repeats_are_dropped) {
  auto o = parse({"all,fib", "--workers", "2,1,2"});
  ASSERT_EQ(o.kernels.size(), bench::registry().size());
  for (std::size_t i = 0; i < o.kernels.size(); ++i) {
    EXPECT_EQ(o.kernels[i], &bench::registry()[i]);
  }
  EXPECT_EQ(o.workers, (std::vector<unsigned>{2, 1}));
}

TEST(bench_cli, rejects_unknown_kernel_and_names_the_known_ones) {
  try {
    (void)parse({"fibonacci"});
    FAIL() << "accepted an unknown kernel";
  } catch (const cli_error& e) {
    EXPECT_NE(std::string(e.what()).find("fibonacci"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("nqueens"), std::string::npos);
  }
  EXPECT_THROW((void)parse({"fib,nope"}), cli_error);
}

TEST(bench_cli, rejects_bad_runtime_policy_and_victims_names) {
  EXPECT_THROW((void)parse({"fib", "--runtime", "serial,cilk"}), cli_error);
  EXPECT_THROW((void)parse({"fib", "--runtime", "Serial"}), cli_error);
  EXPECT_THROW((void)parse({"fib", "--policy", "greedy"}), cli_error);
  EXPECT_THROW((void)parse({"fib", "--victims", "nearest"}), cli_error);
}

TEST(bench_cli, parses_the_schedule_axis_in_both_forms_and_defaults_to_random) {
  EXPECT_EQ(parse({"memcpy"}).schedules,
            (std::vector<bench::schedule_mode>{bench::schedule_mode::random}));
  EXPECT_EQ(parse({"memcpy", "--schedule", "random,stows,stuws,relws,stows"}).schedules,
            (std::vector<bench::schedule_mode>{
                bench::schedule_mode::random, bench::schedule_mode::stows,
                bench::schedule_mode::stuws, bench::schedule_mode::relws}));
  EXPECT_EQ(parse({"memcpy", "--schedule=relws"}).schedules,
            (std::vector<bench::schedule_mode>{bench::schedule_mode::relws}));
  // --schedule is not a prefix of --scheduler: both are accepted side by side.
  auto o = parse({"memcpy", "--scheduler", "cilk", "--schedule", "stows"});
  EXPECT_EQ(o.scheduler, "cilk");
  EXPECT_EQ(o.schedules, (std::vector<bench::schedule_mode>{bench::schedule_mode::stows}));
}

TEST(bench_cli, rejects_bad_schedules_naming_the_known_ones) {
  EXPECT_EQ(error_of({"memcpy", "--schedule", "replay"}),
            "--schedule: unknown schedule 'replay'; expected random, stows, stuws, relws, loop, "
            "designed or traced");
  EXPECT_EQ(error_of({"memcpy", "--schedule", "StOWS"}),
            "--schedule: unknown schedule 'StOWS'; expected random, stows, stuws, relws, loop, "
            "designed or traced");
  EXPECT_EQ(error_of({"memcpy", "--schedule", "stows,"}),
            "--schedule: empty item in list 'stows,'");
  EXPECT_EQ(error_of({"memcpy", "--schedule="}), "--schedule: empty item in list ''");
  EXPECT_EQ(error_of({"memcpy", "--schedule"}), "--schedule: 1 required M,... missing");
  EXPECT_THROW((void)parse({"memcpy", "--schedule", "bogus", "--schedule", "stows"}), cli_error);
}

TEST(bench_cli, parses_the_flow_axis_into_option_sets_and_defaults_to_off) {
  namespace df = locus::dataflow;
  const auto off = parse({"cholesky"}).flows;
  ASSERT_EQ(off.size(), 1u);
  EXPECT_FALSE(off[0].on);
  const auto f = parse({"cholesky", "--flow",
                        "off,one,half-pessimistic,near-data+half-optimistic+priority,"
                        "one+deque+enabling,priority"})
                     .flows;
  // "one+deque+enabling" is "one" (the defaults spelt out): a repeat, dropped.
  ASSERT_EQ(f.size(), 5u);
  EXPECT_FALSE(f[0].on);
  EXPECT_TRUE(f[1].on);
  EXPECT_EQ(f[1].options.steal, df::steal_mode::one);
  EXPECT_EQ(f[1].options.queue, df::ready_queue::deque);
  EXPECT_FALSE(f[1].near_data);
  EXPECT_EQ(f[2].options.steal, df::steal_mode::half_pessimistic);
  EXPECT_EQ(f[3].options.steal, df::steal_mode::half_optimistic);
  EXPECT_EQ(f[3].options.queue, df::ready_queue::priority);
  EXPECT_TRUE(f[3].near_data);
  EXPECT_EQ(f[4].options.steal, df::steal_mode::one);
  EXPECT_EQ(f[4].options.queue, df::ready_queue::priority);
  std::vector<std::string> names;
  for (const auto& x : f)
    names.push_back(bench::flow_name(x));
  EXPECT_EQ(names,
            (std::vector<std::string>{"off", "one", "half-pessimistic",
                                      "half-optimistic+priority+near-data", "one+priority"}));
  EXPECT_EQ(parse({"smith-waterman", "--flow=deque"}).flows,
            (std::vector<bench::flow_choice>{bench::parse_flow_name("one")}));
}

TEST(bench_cli, rejects_bad_flow_values_naming_the_accepted_tokens) {
  const std::string accepted =
      "expected off, or '+'-joined tokens, at most one of each group: one, half-pessimistic, "
      "half-optimistic (steal); deque, priority (queue); enabling, near-data (placement)";
  EXPECT_EQ(error_of({"cholesky", "--flow", "half"}),
            "--flow: unknown option 'half' in 'half'; " + accepted);
  EXPECT_EQ(error_of({"cholesky", "--flow", "off,one+Priority"}),
            "--flow: unknown option 'Priority' in 'one+Priority'; " + accepted);
  EXPECT_EQ(error_of({"cholesky", "--flow", "one+"}),
            "--flow: unknown option '' in 'one+'; " + accepted);
  EXPECT_EQ(error_of({"cholesky", "--flow", "one+half-optimistic"}),
            "--flow: 'one+half-optimistic' names more than one of one, half-pessimistic, "
            "half-optimistic");
  EXPECT_EQ(error_of({"cholesky", "--flow", "priority+deque"}),
            "--flow: 'priority+deque' names more than one of deque, priority");
  EXPECT_EQ(error_of({"cholesky", "--flow", "off+one"}),
            "--flow: off stands alone, not in an option set ('off+one')");
  EXPECT_EQ(error_of({"cholesky", "--flow", "one,,off"}), "--flow: empty item in list 'one,,off'");
  EXPECT_EQ(error_of({"cholesky", "--flow"}), "--flow: 1 required F,... missing");
  // Checked at parsing, before anything runs, whatever the kernel.
  EXPECT_THROW((void)parse({"fib", "--flow", "bogus", "--flow", "one"}), cli_error);
}

TEST(bench_cli, rejects_bad_workers_lists) {
  for (const char* bad : {"0", "x", "1,,2", ",1", "1,", "-1", "2.5", "5000", "", "1 2"}) {
    EXPECT_THROW((void)parse({"fib", "--workers", bad}), cli_error) << "--workers '" << bad << "'";
  }
}

TEST(bench_cli, rejects_zero_or_malformed_reps_and_timeout) {
  EXPECT_THROW((void)parse({"fib", "--reps", "0"}), cli_error);
  EXPECT_THROW((void)parse({"fib", "--reps", "three"}), cli_error);
  EXPECT_THROW((void)parse({"fib", "--timeout", "-1"}), cli_error);
  EXPECT_THROW((void)parse({"fib", "--timeout", "soon"}), cli_error);
}

TEST(bench_cli, rejects_malformed_command_lines) {
  EXPECT_THROW((void)parse({}), cli_error);                       // no kernel
  EXPECT_THROW((void)parse({"fib", "nqueens"}), cli_error);       // two positionals
  EXPECT_THROW((void)parse({"fib", "--frobnicate"}), cli_error);  // unknown option
  EXPECT_THROW((void)parse({"fib", "-x"}), cli_error);            // unknown short option
  EXPECT_THROW((void)parse({"fib", "--size"}), cli_error);        // missing value
  EXPECT_THROW((void)parse({"fib", "--size", "small,"}), cli_error);
  EXPECT_THROW((void)parse({"fib", "--json="}), cli_error);
}

TEST(bench_cli, help_and_list_need_no_kernel) {
  EXPECT_TRUE(parse({"--help"}).help);
  EXPECT_TRUE(parse({"-h", "--bogus"}).help);
  EXPECT_TRUE(parse({"--list"}).list);
  EXPECT_NE(bench::usage().find("--workers"), std::string::npos);
  EXPECT_NE(bench::usage().find("--schedule M,..."), std::string::npos);
  EXPECT_NE(bench::usage().find("--flow F,..."), std::string::npos);
}

TEST(bench_cli, child_mode_needs_one_configuration_and_a_result_fd) {
  auto o = parse({"--child", "--result-fd=3", "fib", "--size=25", "--runtime=locus",
                  "--policy=adaptive", "--victims=random", "--workers=2"});
  EXPECT_TRUE(o.child);
  EXPECT_EQ(o.result_fd, 3);
  EXPECT_THROW((void)parse({"--child", "fib", "--size=25"}), cli_error);
  EXPECT_THROW((void)parse({"--child", "--result-fd=3", "fib", "--workers=1,2"}), cli_error);
  EXPECT_THROW((void)parse({"--child", "--result-fd=3", "memcpy", "--schedule=random,stows"}),
               cli_error);
  EXPECT_EQ(parse({"--child", "--result-fd=3", "memcpy", "--runtime=locus", "--workers=2",
                   "--schedule=stuws"})
                .schedules,
            (std::vector<bench::schedule_mode>{bench::schedule_mode::stuws}));
  EXPECT_THROW((void)parse({"--child", "--result-fd=3", "cholesky", "--flow=off,one"}), cli_error);
  const auto child = parse({"--child", "--result-fd=3", "cholesky", "--runtime=locus",
                            "--workers=2", "--flow=half-pessimistic+priority"});
  ASSERT_EQ(child.flows.size(), 1u);
  EXPECT_EQ(bench::flow_name(child.flows[0]), "half-pessimistic+priority");
}

TEST(bench_cli, names_round_trip) {
  for (auto p : {locus::spawn_policy::work_first, locus::spawn_policy::help_first,
                 locus::spawn_policy::adaptive}) {
    EXPECT_EQ(bench::parse_policy_name(bench::policy_name(p)), p);
  }
  for (auto v : {locus::victim_policy::random, locus::victim_policy::hierarchical}) {
    EXPECT_EQ(bench::parse_victims_name(bench::victims_name(v)), v);
  }
  for (auto rt : bench::all_runtimes) {
    EXPECT_EQ(bench::parse_runtime_name(bench::to_string(rt)), rt);
  }
  for (auto m :
       {bench::schedule_mode::random, bench::schedule_mode::stows, bench::schedule_mode::stuws,
        bench::schedule_mode::relws, bench::schedule_mode::loop, bench::schedule_mode::designed,
        bench::schedule_mode::traced}) {
    EXPECT_EQ(bench::parse_schedule_name(bench::schedule_name(m)), m);
  }
  for (const char* f : {"off", "one", "half-pessimistic", "half-optimistic", "one+priority",
                        "one+near-data", "half-pessimistic+priority+near-data"}) {
    EXPECT_EQ(bench::flow_name(bench::parse_flow_name(f)), f);
  }
}

TEST(bench_cli, error_messages_name_the_argument_and_what_was_expected) {
  EXPECT_EQ(error_of({"fib", "--frobnicate"}), "unknown option '--frobnicate'");
  EXPECT_EQ(error_of({"fib", "--frobnicate=3"}), "unknown option '--frobnicate=3'");
  EXPECT_EQ(error_of({"fib", "-x"}), "unknown option '-x'");
  EXPECT_EQ(error_of({"fib", "--", "nqueens"}), "unknown option '--'");
  EXPECT_EQ(error_of({}), "missing KERNEL (a kernel name, a comma list, or all)");
  EXPECT_EQ(error_of({"fib", "nqueens"}),
            "one KERNEL argument expected (use a comma list for several), got 'nqueens' too");
  EXPECT_EQ(error_of({"fib", "--workers", "0"}), "--workers: '0' is not an integer from 1 to 4096");
  EXPECT_EQ(error_of({"fib", "--workers=-1"}), "--workers: '-1' is not an integer from 1 to 4096");
  EXPECT_EQ(error_of({"fib", "--reps="}), "--reps: '' is not an integer from 1 to 1000000");
  EXPECT_EQ(error_of({"fib", "--size", "small,"}), "--size: empty item in list 'small,'");
  EXPECT_EQ(error_of({"fib", "--json="}), "--json: expected a file name");
  EXPECT_EQ(error_of({"fib", "--timeout", "-1"}),
            "--timeout: '-1' is not a number of seconds >= 0");
  EXPECT_EQ(error_of({"fib", "--policy", "greedy"}),
            "--policy: unknown policy 'greedy'; expected work-first, help-first or adaptive");
  EXPECT_EQ(error_of({"fib", "--victims", "nearest"}),
            "--victims: unknown victim policy 'nearest'; expected random or hierarchical");
  EXPECT_EQ(error_of({"fib", "--runtime", "cilk"}),
            "--runtime: unknown runtime 'cilk'; expected serial, locus, tbb, omp, omp-tasks, "
            "starpu or blas");
  EXPECT_EQ(error_of({"--child", "fib"}), "--child needs --result-fd");
}

// One source of truth (bench/harness/names.hpp): every spelling in the library's name tables,
// aliases included, is accepted by the option that takes it, whatever the table holds, so a
// name the library adds needs no edit in the harness.
TEST(bench_cli, every_library_name_is_accepted_as_the_library_spells_it) {
  namespace df = locus::dataflow;
  for (const auto& n : locus::names_of(locus::spawn_policy{})) {
    EXPECT_EQ(parse({"fib", "--policy", std::string(n.name)}).policies,
              (std::vector<locus::spawn_policy>{n.value}))
        << n.name;
  }
  for (const auto& n : locus::names_of(locus::victim_policy{})) {
    EXPECT_EQ(parse({"fib", "--victims", std::string(n.name)}).victims,
              (std::vector<locus::victim_policy>{n.value}))
        << n.name;
  }
  for (const auto& n : locus::names_of(locus::scheduler_kind{})) {
    EXPECT_EQ(parse({"fib", "--scheduler", std::string(n.name)}).scheduler,
              locus::to_string(n.value))
        << n.name;
  }
  for (const auto& n : locus::schedule::names_of(locus::schedule::replay_mode{})) {
    const auto m = parse({"memcpy", "--schedule", std::string(n.name)}).schedules;
    ASSERT_EQ(m.size(), 1u) << n.name;
    EXPECT_EQ(bench::schedule_name(m[0]), locus::schedule::to_string(n.value)) << n.name;
  }
  for (const auto& n : df::names_of(df::steal_mode{})) {
    EXPECT_EQ(bench::parse_flow_name(n.name).options.steal, n.value) << n.name;
    EXPECT_EQ(
        parse({"cholesky", "--flow", std::string(n.name) + "+priority"}).flows.at(0).options.steal,
        n.value)
        << n.name;
  }
  for (const auto& n : df::names_of(df::ready_queue{})) {
    EXPECT_EQ(bench::parse_flow_name(n.name).options.queue, n.value) << n.name;
  }
  for (const auto& n : bench::names_of(runtime_kind{})) {
    EXPECT_EQ(parse({"fib", "--runtime", std::string(n.name)}).runtimes,
              (std::vector<runtime_kind>{n.value}))
        << n.name;
  }
}

// What the harness prints (tables, JSON, the child's command line) is the library's to_string.
TEST(bench_cli, printed_names_are_the_librarys) {
  namespace df = locus::dataflow;
  for (const auto& n : locus::names_of(locus::spawn_policy{}))
    EXPECT_EQ(bench::policy_name(n.value), locus::to_string(n.value));
  for (const auto& n : locus::names_of(locus::victim_policy{}))
    EXPECT_EQ(bench::victims_name(n.value), locus::to_string(n.value));
  for (const auto& n : df::names_of(df::steal_mode{})) {
    bench::flow_choice f;
    f.on = true;
    f.options.steal = n.value;
    EXPECT_EQ(bench::flow_name(f), df::to_string(n.value));
    f.options.queue = df::ready_queue::priority;
    EXPECT_EQ(bench::flow_name(f),
              std::string(df::to_string(n.value)) + "+" + df::to_string(df::ready_queue::priority));
  }
}

// --help and the errors list the names from the same tables: every canonical name appears.
TEST(bench_cli, usage_and_errors_list_every_name_from_the_tables) {
  namespace df = locus::dataflow;
  const std::string help = bench::usage();
  const auto listed = [&](std::string_view name) {
    EXPECT_NE(help.find(std::string(name)), std::string::npos) << name << " not in --help";
  };
  // Each value's canonical (first) spelling; aliases are accepted, not listed.
  const auto all_listed = [&](const auto& table) {
    for (const auto& n : table)
      if (locus::detail::name_of(n.value) == n.name) listed(n.name);
  };
  all_listed(locus::names_of(locus::spawn_policy{}));
  all_listed(locus::names_of(locus::victim_policy{}));
  all_listed(locus::names_of(locus::scheduler_kind{}));
  all_listed(locus::schedule::names_of(locus::schedule::replay_mode{}));
  all_listed(df::names_of(df::steal_mode{}));
  all_listed(df::names_of(df::ready_queue{}));
  all_listed(bench::names_of(runtime_kind{}));
  for (const auto& k : bench::registry()) {
    if (k.replays || k.flows) listed(k.name);
  }
  EXPECT_EQ(
      error_of({"fib", "--policy", "greedy"}),
      "--policy: unknown policy 'greedy'; expected " + bench::name_list<locus::spawn_policy>());
  EXPECT_EQ(
      error_of({"fib", "--scheduler", "ws"}),
      "--scheduler: unknown scheduler 'ws'; expected " + bench::name_list<locus::scheduler_kind>());
}

// name_list: the canonical spelling of each value, aliases left out, in table order.
TEST(bench_cli, name_lists_leave_aliases_out) {
  EXPECT_EQ(bench::name_list<locus::spawn_policy>(), "work-first, help-first or adaptive");
  EXPECT_EQ(bench::name_list<locus::spawn_policy>(", ", " | "),
            "work-first | help-first, adaptive");
  EXPECT_EQ(bench::name_list<bench::schedule_mode>(),
            "random, stows, stuws, relws, loop, designed or traced");
}

// The command line takes a name exactly as its table writes it (LOCUS_SCHEDULER takes any case;
// --scheduler, like every other option, does not), and says so as a usage error.
TEST(bench_cli, scheduler_names_are_exact) {
  EXPECT_EQ(parse({"fib", "--scheduler", "cilk"}).scheduler, "cilk");
  EXPECT_EQ(error_of({"fib", "--scheduler", "CILK"}),
            "--scheduler: unknown scheduler 'CILK'; expected slaw, cilk, laws or cab");
  EXPECT_EQ(error_of({"fib", "--policy", "Adaptive"}),
            "--policy: unknown policy 'Adaptive'; expected work-first, help-first or adaptive");
}

// The one message whose wording is CLI11's (its parser, not the harness, notices that the
// command line ended where a value was due); the value name is the usage text's.
TEST(bench_cli, a_missing_value_is_reported_in_cli11_words) {
  EXPECT_EQ(error_of({"fib", "--size"}), "--size: 1 required S,... missing");
  EXPECT_EQ(error_of({"fib", "--workers"}), "--workers: 1 required N,... missing");
}

TEST(bench_cli, an_empty_value_after_equals_is_empty_not_the_next_argument) {
  // "--json=" must not take "fib" as its file name.
  EXPECT_EQ(error_of({"--json=", "fib"}), "--json: expected a file name");
}

TEST(bench_cli, a_repeated_option_takes_the_last_value_but_checks_every_one) {
  EXPECT_EQ(parse({"fib", "--reps", "3", "--reps=4"}).reps, 4u);
  EXPECT_EQ(parse({"fib", "--size", "small", "--size", "20"}).sizes,
            (std::vector<std::string>{"20"}));
  EXPECT_THROW((void)parse({"fib", "--reps", "0", "--reps", "4"}), cli_error);
}

TEST(bench_cli, options_may_come_before_or_after_the_kernel) {
  auto o = parse({"--size", "20", "--workers=2", "fib"});
  ASSERT_EQ(o.kernels.size(), 1u);
  EXPECT_EQ(o.kernels[0]->name, "fib");
  EXPECT_EQ(o.sizes, (std::vector<std::string>{"20"}));
  EXPECT_EQ(o.workers, (std::vector<unsigned>{2}));
}

TEST(bench_cli, flags_take_no_value) {
  EXPECT_THROW((void)parse({"--list=1"}), cli_error);
}

TEST(bench_cli, usage_documents_the_nqueens_variant_without_cutoff) {
  EXPECT_NE(bench::usage().find("N:nocutoff"), std::string::npos);
}

}  // namespace

namespace {
TEST(bench_cli, trace_names_a_folder_for_the_locus_runs_traces) {
  EXPECT_EQ(parse({"fib", "--trace", "out/traces"}).trace_dir, "out/traces");
  EXPECT_EQ(parse({"fib"}).trace_dir, "");
  EXPECT_NE(error_of({"fib", "--trace="}).find("--trace"), std::string::npos);
}
}  // namespace

#endif  // LOCUS_TEST_KERNELS
