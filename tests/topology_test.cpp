// topology_test.cpp — virtual specs, hwloc discovery, distances, places and pinning.
#include <locus/config.hpp>
#include <locus/topology.hpp>

#include <gtest/gtest.h>
#include <sched.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

using locus::distance;
using locus::topology;

std::vector<unsigned> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  EXPECT_EQ(sched_getaffinity(0, sizeof(set), &set), 0);
  std::vector<unsigned> cpus;
  for (unsigned c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  }
  return cpus;
}

std::vector<std::size_t> iota_cores(std::size_t n) {
  std::vector<std::size_t> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = i;
  return v;
}

// Ids dense and nested: each l3 group has one numa node, each numa node one package.
void expect_well_formed(const topology& t) {
  ASSERT_GE(t.num_cores(), 1U);
  std::set<unsigned> pk, nu, l3;
  std::vector<int> numa_of_l3(t.num_l3_groups(), -1), pkg_of_numa(t.num_numa_nodes(), -1);
  unsigned threads = 0;
  for (std::size_t i = 0; i < t.num_cores(); ++i) {
    const auto& c = t.cores()[i];
    EXPECT_EQ(c.core, i);
    ASSERT_LT(c.package, t.num_packages());
    ASSERT_LT(c.numa, t.num_numa_nodes());
    ASSERT_LT(c.l3, t.num_l3_groups());
    EXPECT_GE(c.threads, 1U);
    threads += c.threads;
    pk.insert(c.package), nu.insert(c.numa), l3.insert(c.l3);
    if (numa_of_l3[c.l3] < 0) numa_of_l3[c.l3] = static_cast<int>(c.numa);
    if (pkg_of_numa[c.numa] < 0) pkg_of_numa[c.numa] = static_cast<int>(c.package);
    EXPECT_EQ(numa_of_l3[c.l3], static_cast<int>(c.numa)) << "l3 group spans NUMA nodes";
    EXPECT_EQ(pkg_of_numa[c.numa], static_cast<int>(c.package)) << "NUMA node spans packages";
  }
  EXPECT_EQ(pk.size(), t.num_packages());
  EXPECT_EQ(nu.size(), t.num_numa_nodes());
  EXPECT_EQ(l3.size(), t.num_l3_groups());
  EXPECT_EQ(threads, t.num_hardware_threads());
}

TEST(topology_spec, two_sockets_two_cores) {
  const auto t = topology::from_spec("sockets=2,cores=2");
  expect_well_formed(t);
  EXPECT_TRUE(t.is_virtual());
  EXPECT_EQ(t.num_packages(), 2U);
  EXPECT_EQ(t.num_numa_nodes(), 2U);
  EXPECT_EQ(t.num_l3_groups(), 2U);
  EXPECT_EQ(t.num_cores(), 4U);
  EXPECT_EQ(t.num_hardware_threads(), 4U);
  EXPECT_EQ(t.between(0, 0), distance::same_core);
  EXPECT_EQ(t.between(0, 1), distance::same_l3);
  EXPECT_EQ(t.between(2, 3), distance::same_l3);
  EXPECT_EQ(t.between(1, 2), distance::remote);
  EXPECT_EQ(t.between(3, 0), distance::remote);
  EXPECT_EQ(t.between(0, 99), distance::remote);
  EXPECT_EQ(locus::assign_places(t, iota_cores(4), "socket"), (std::vector<unsigned>{0, 0, 1, 1}));
  EXPECT_EQ(locus::assign_places(t, iota_cores(4), "none"), (std::vector<unsigned>{0, 0, 0, 0}));
}

TEST(topology_spec, defaults_and_cache_sizes) {
  const auto d = topology::from_spec("sockets=1");
  EXPECT_EQ(d.num_cores(), 2U);  // cores=2 by default
  EXPECT_EQ(d.l3_bytes(), std::size_t{8} << 20);
  EXPECT_EQ(d.l2_bytes(), std::size_t{1} << 20);
  EXPECT_EQ(d.l1d_bytes(), std::size_t{32} << 10);

  const auto t = topology::from_spec("sockets=4,cores=4,l3=6MiB");
  EXPECT_EQ(t.l3_bytes(), std::size_t{6} << 20);
  EXPECT_EQ(t.num_cores(), 16U);
  const auto s = t.describe();
  for (const char* part :
       {"virtual", "4 packages", "4 NUMA nodes", "4 L3 groups (6 MiB)", "16 cores"}) {
    EXPECT_NE(s.find(part), std::string::npos) << s << " lacks " << part;
  }

  const auto u = topology::from_spec("l3=3M,l2=512KiB,l1=48K");
  EXPECT_EQ(u.l3_bytes(), std::size_t{3} << 20);
  EXPECT_EQ(u.l2_bytes(), std::size_t{512} << 10);
  EXPECT_EQ(u.l1d_bytes(), std::size_t{48} << 10);
  EXPECT_EQ(topology::from_spec("l3=1GiB").l3_bytes(), std::size_t{1} << 30);
  EXPECT_EQ(topology::from_spec("l3=2G").l3_bytes(), std::size_t{2} << 30);
  EXPECT_EQ(topology::from_spec("l1=100").l1d_bytes(), 100U);
  EXPECT_EQ(topology::from_spec("l1=100B").l1d_bytes(), 100U);

  // l3ways: the locality model's L3 associativity; fully associative (0) unless given.
  EXPECT_EQ(d.l3_ways(), 0U);
  const auto w = topology::from_spec("sockets=2,l3=12MiB,l3ways=12");
  EXPECT_EQ(w.l3_ways(), 12U);
  EXPECT_NE(w.describe().find("(12 MiB, 12-way)"), std::string::npos) << w.describe();
}

TEST(topology_spec, full_hierarchy_distances_and_smt) {
  const auto t = topology::from_spec("sockets=2,numa=2,l3groups=2,cores=2,smt=2");
  expect_well_formed(t);
  EXPECT_EQ(t.num_cores(), 16U);
  EXPECT_EQ(t.num_packages(), 2U);
  EXPECT_EQ(t.num_numa_nodes(), 4U);
  EXPECT_EQ(t.num_l3_groups(), 8U);
  EXPECT_EQ(t.num_hardware_threads(), 32U);
  // Cores are laid out socket-major: 8 per socket, 4 per NUMA node, 2 per L3 group.
  EXPECT_EQ(t.between(0, 1), distance::same_l3);
  EXPECT_EQ(t.between(0, 2), distance::same_numa);
  EXPECT_EQ(t.between(0, 4), distance::same_package);
  EXPECT_EQ(t.between(0, 8), distance::remote);
  EXPECT_EQ(t.between(7, 15), distance::remote);
  EXPECT_NE(t.describe().find("32 hardware threads"), std::string::npos) << t.describe();
  const auto w = iota_cores(16);
  const auto numa = locus::assign_places(t, w, "numa");
  const auto l3 = locus::assign_places(t, w, "l3");
  for (std::size_t i = 0; i < 16; ++i) {
    EXPECT_EQ(numa[i], i / 4);
    EXPECT_EQ(l3[i], i / 2);
  }
}

TEST(topology_spec, maps_cores_round_robin_onto_allowed_cpus) {
  const auto cpus = allowed_cpus();
  ASSERT_FALSE(cpus.empty());
  const auto t = topology::from_spec("sockets=3,cores=3");
  ASSERT_EQ(t.num_cores(), 9U);
  for (std::size_t i = 0; i < t.num_cores(); ++i) {
    EXPECT_EQ(t.cores()[i].os_cpu, cpus[i % cpus.size()]) << "core " << i;
  }
  const auto expect = std::to_string(std::min<std::size_t>(9, cpus.size())) + " CPU";
  EXPECT_NE(t.describe().find("on " + expect), std::string::npos) << t.describe();
}

TEST(topology_spec, rejects_bad_specs_naming_the_input) {
  struct bad_case {
    const char* spec;
    const char* reason;
  };
  for (const auto& c :
       {bad_case{"sockets=2,bogus=1", "unknown key \"bogus\""},
        bad_case{"cores=x", "cores must be a positive integer"},
        bad_case{"cores=2.5", "cores must be a positive integer"},
        bad_case{"smt=0", "smt must be a positive integer"},
        bad_case{"numa=4097", "numa must be a positive integer up to 4096"},
        bad_case{"l2=12TiB", "l2 must be a positive size"},
        bad_case{"l3ways=0", "l3ways must be a positive integer up to 4096"},
        bad_case{"l1=0", "l1 must be a positive size"},
        bad_case{"l3=MiB", "l3 must be a positive size"},
        bad_case{"cores=2,cores=3", "given twice"}, bad_case{"sockets=2,,cores=2", "empty item"},
        bad_case{"", "empty spec"}, bad_case{"sockets=64,cores=2048", "at most 65536"}}) {
    try {
      (void)topology::from_spec(c.spec, "--topology");
      ADD_FAILURE() << "accepted " << c.spec;
    } catch (const locus::config_error& e) {
      const std::string msg = e.what();
      for (const std::string& part :
           {std::string("--topology=\"") + c.spec + "\" is not valid", std::string(c.reason),
            std::string("expected comma-separated key=value")}) {
        EXPECT_NE(msg.find(part), std::string::npos) << msg << " lacks " << part;
      }
    }
  }
}

TEST(topology_make, empty_spec_discovers_and_spec_is_virtual) {
  EXPECT_FALSE(topology::make("").is_virtual());
  EXPECT_TRUE(topology::make("cores=3").is_virtual());
  EXPECT_EQ(topology::make("cores=3").num_cores(), 3U);
  EXPECT_THROW((void)topology::make("cores=-3"), locus::config_error);
}

TEST(topology_discover, describes_this_machine) {
  const auto t = topology::discover();
  expect_well_formed(t);
  EXPECT_FALSE(t.is_virtual());
  EXPECT_LE(t.num_cores(), t.num_hardware_threads());
  // Workers must be pinnable: every core's processor is one this process may use, and no two
  // cores share a processor.
  const auto cpus = allowed_cpus();
  std::set<unsigned> seen;
  for (const auto& c : t.cores()) {
    EXPECT_TRUE(std::find(cpus.begin(), cpus.end(), c.os_cpu) != cpus.end()) << c.os_cpu;
    EXPECT_TRUE(seen.insert(c.os_cpu).second) << "duplicate os_cpu " << c.os_cpu;
  }
  EXPECT_LE(t.num_hardware_threads(), cpus.size());
  const auto s = t.describe();
  EXPECT_NE(s.find(std::to_string(t.num_cores()) + " core"), std::string::npos) << s;
  EXPECT_NE(s.find(std::to_string(t.num_packages()) + " package"), std::string::npos) << s;
  EXPECT_NE(s.find(std::to_string(t.num_hardware_threads()) + " hardware thread"),
            std::string::npos)
      << s;
  const auto places = locus::assign_places(t, iota_cores(t.num_cores()), "socket");
  EXPECT_EQ(*std::max_element(places.begin(), places.end()) + 1, t.num_packages());
}

// Binds every thread of this process to one processor, and restores each thread's own mask at
// the end of its scope. hwloc reads the process's binding as the union over its threads, and a
// library may have started some (OpenBLAS starts its pool when it is loaded).
class bind_process_to {
 public:
  explicit bind_process_to(unsigned cpu) {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    for (const auto& e : std::filesystem::directory_iterator("/proc/self/task")) {
      const auto tid = static_cast<pid_t>(std::stol(e.path().filename().string()));
      cpu_set_t mask;
      CPU_ZERO(&mask);
      if (sched_getaffinity(tid, sizeof(mask), &mask) != 0) continue;  // it has exited
      if (sched_setaffinity(tid, sizeof(one), &one) == 0) m_saved.emplace_back(tid, mask);
    }
  }
  bind_process_to(const bind_process_to&) = delete;
  bind_process_to& operator=(const bind_process_to&) = delete;
  ~bind_process_to() {
    for (const auto& [tid, mask] : m_saved)
      (void)sched_setaffinity(tid, sizeof(mask), &mask);
  }
  [[nodiscard]] std::size_t threads() const noexcept { return m_saved.size(); }

 private:
  std::vector<std::pair<pid_t, cpu_set_t>> m_saved;
};

// The hardware tree is kept after the first discovery, the binding is not: a discovery made
// while the process may use one processor models one core, and the next one, after the binding
// is restored, models them all again.
TEST(topology_discover, follows_the_cpu_binding_at_every_call) {
  const auto before = topology::discover();
  const auto cpus = allowed_cpus();
  if (before.num_cores() < 2 || cpus.size() < 2) GTEST_SKIP() << "needs two cores";
  std::optional<topology> bound;
  {
    const bind_process_to one(cpus.back());
    ASSERT_GE(one.threads(), 1U);
    bound = topology::discover();
  }
  ASSERT_EQ(bound->num_cores(), 1U) << bound->describe();
  EXPECT_EQ(bound->cores()[0].os_cpu, cpus.back());
  EXPECT_NE(bound->describe().find("restricted"), std::string::npos) << bound->describe();
  const auto after = topology::discover();
  EXPECT_EQ(after.num_cores(), before.num_cores()) << after.describe();
  EXPECT_EQ(after.describe(), before.describe());
}

TEST(places, dense_in_order_of_first_appearance) {
  const auto t = topology::from_spec("sockets=3,cores=2");
  // Workers on sockets 2, 2, 0, 1 and a second worker on core 0 (oversubscribed); socket 1's
  // other core has no worker, so no place is empty.
  const std::vector<std::size_t> w{4, 5, 0, 2, 0};
  EXPECT_EQ(locus::assign_places(t, w, "socket"), (std::vector<unsigned>{0, 0, 1, 2, 1}));
  // Only sockets 2 and 0 used: two places, not three.
  EXPECT_EQ(locus::assign_places(t, {5, 1}, "numa"), (std::vector<unsigned>{0, 1}));
  EXPECT_TRUE(locus::assign_places(t, {}, "socket").empty());
}

TEST(places, n_contiguous_near_equal_groups) {
  const auto t = topology::from_spec("cores=7");
  EXPECT_EQ(locus::assign_places(t, iota_cores(4), "2"), (std::vector<unsigned>{0, 0, 1, 1}));
  EXPECT_EQ(locus::assign_places(t, iota_cores(4), "1"), (std::vector<unsigned>{0, 0, 0, 0}));
  EXPECT_EQ(locus::assign_places(t, iota_cores(4), "4"), (std::vector<unsigned>{0, 1, 2, 3}));
  for (unsigned workers = 1; workers <= 7; ++workers) {
    for (unsigned n = 1; n <= workers; ++n) {
      const auto p = locus::assign_places(t, iota_cores(workers), std::to_string(n));
      std::vector<unsigned> sizes(n, 0);
      for (std::size_t i = 0; i < p.size(); ++i) {
        ASSERT_LT(p[i], n);
        if (i > 0) {
          EXPECT_TRUE(p[i] == p[i - 1] || p[i] == p[i - 1] + 1) << "not contiguous";
        }
        ++sizes[p[i]];
      }
      const auto [lo, hi] = std::minmax_element(sizes.begin(), sizes.end());
      EXPECT_GE(*lo, 1U);
      EXPECT_LE(*hi - *lo, 1U) << workers << " workers, " << n << " places";
    }
  }
}

TEST(places, rejects_bad_specs) {
  const auto t = topology::from_spec("cores=4");
  try {
    (void)locus::assign_places(t, iota_cores(4), "5", "LOCUS_PLACES");
    ADD_FAILURE() << "5 places for 4 workers accepted";
  } catch (const locus::config_error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("LOCUS_PLACES=\"5\" is not valid (more places than workers)"),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find("no larger than the number of workers (4)"), std::string::npos) << msg;
  }
  EXPECT_THROW((void)locus::assign_places(t, iota_cores(4), "cores"), locus::config_error);
  EXPECT_THROW((void)locus::assign_places(t, iota_cores(4), "0"), locus::config_error);
  EXPECT_THROW((void)locus::assign_places(t, {0, 4}, "socket"), std::out_of_range);
}

TEST(pin, pins_to_an_allowed_cpu_and_refuses_a_missing_one) {
  const auto t = topology::discover();
  const unsigned target = t.cores().back().os_cpu;
  // A separate thread, so the test runner's own affinity is never changed.
  std::thread th([&] {
    cpu_set_t before;
    ASSERT_EQ(sched_getaffinity(0, sizeof(before), &before), 0);
    EXPECT_FALSE(locus::pin_this_thread(1U << 20));
    EXPECT_FALSE(locus::pin_this_thread(60000));  // above any kernel's NR_CPUS
    cpu_set_t after;
    ASSERT_EQ(sched_getaffinity(0, sizeof(after), &after), 0);
    EXPECT_TRUE(CPU_EQUAL(&before, &after)) << "a refused pin changed the mask";

    ASSERT_TRUE(locus::pin_this_thread(target));
    cpu_set_t pinned;
    ASSERT_EQ(sched_getaffinity(0, sizeof(pinned), &pinned), 0);
    EXPECT_EQ(CPU_COUNT(&pinned), 1);
    EXPECT_TRUE(CPU_ISSET(target, &pinned));
    EXPECT_EQ(static_cast<unsigned>(sched_getcpu()), target);
  });
  th.join();
}

}  // namespace
