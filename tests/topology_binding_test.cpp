// topology_binding_test.cpp — config::bind: which cores the workers take (bind_workers), what
// the runtime builds on that mapping (places, hierarchical victim tiers), and the printout of
// where each worker sits.
#include <locus/locus.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace {

using locus::bind_policy;
using locus::bind_workers;
using locus::topology;

std::vector<unsigned> packages(const topology& t, const std::vector<std::size_t>& cores) {
  std::vector<unsigned> out;
  for (const std::size_t c : cores)
    out.push_back(t.cores()[c].package);
  return out;
}

using cores_t = std::vector<std::size_t>;

TEST(bind_workers, close_fills_the_first_socket_first) {
  const auto t = topology::from_spec("sockets=4,cores=4");
  const auto b = bind_workers(t, 4, bind_policy::close);
  EXPECT_EQ(b.core, (cores_t{0, 1, 2, 3}));
  EXPECT_EQ(packages(t, b.core), (std::vector<unsigned>{0, 0, 0, 0}));
}

TEST(bind_workers, spread_puts_four_workers_on_four_sockets) {
  const auto t = topology::from_spec("sockets=4,cores=4");
  const auto b = bind_workers(t, 4, bind_policy::spread);
  EXPECT_EQ(b.core, (cores_t{0, 4, 8, 12}));
  EXPECT_EQ(packages(t, b.core), (std::vector<unsigned>{0, 1, 2, 3}));
  // Two workers: two sockets; eight: two per socket, numbered in core order.
  EXPECT_EQ(packages(t, bind_workers(t, 2, bind_policy::spread).core),
            (std::vector<unsigned>{0, 1}));
  EXPECT_EQ(bind_workers(t, 8, bind_policy::spread).core, (cores_t{0, 1, 4, 5, 8, 9, 12, 13}));
}

// Below the sockets, spread goes on over NUMA nodes, then L3 groups, before doubling up.
TEST(bind_workers, spread_goes_down_the_tree_numa_then_l3_then_cores) {
  const auto t = topology::from_spec("sockets=2,numa=2,l3groups=2,cores=2");  // 16 cores
  const auto distinct = [&](const cores_t& cores, auto level) {
    std::set<unsigned> ids;
    for (const std::size_t c : cores)
      ids.insert(level(t.cores()[c]));
    return ids.size();
  };
  const auto numa = [](const locus::core_info& c) { return c.numa; };
  const auto l3 = [](const locus::core_info& c) { return c.l3; };
  const auto four = bind_workers(t, 4, bind_policy::spread).core;
  EXPECT_EQ(distinct(four, numa), 4U);
  const auto eight = bind_workers(t, 8, bind_policy::spread).core;
  EXPECT_EQ(distinct(eight, l3), 8U);
  EXPECT_TRUE(std::is_sorted(eight.begin(), eight.end()));
  // close takes one socket's four L3 groups, two cores each.
  EXPECT_EQ(distinct(bind_workers(t, 8, bind_policy::close).core, l3), 4U);
}

// Every core once per full round, whatever the policy; as many workers as cores is the same
// layout under both.
TEST(bind_workers, full_rounds_take_every_core_once_and_wrap_around) {
  for (const char* spec : {"sockets=4,cores=4", "sockets=2,numa=2,cores=3", "sockets=3"}) {
    const auto t = topology::from_spec(spec);
    const std::size_t c = t.num_cores();
    EXPECT_EQ(bind_workers(t, c, bind_policy::spread).core,
              bind_workers(t, c, bind_policy::close).core)
        << spec;
    for (std::size_t w = 1; w <= 3 * c; ++w) {
      for (const auto how : {bind_policy::spread, bind_policy::close}) {
        const auto b = bind_workers(t, w, how);
        ASSERT_EQ(b.core.size(), w);
        ASSERT_EQ(b.os_cpu.size(), w);
        std::map<std::size_t, std::size_t> uses;
        for (const std::size_t core : b.core) {
          ASSERT_LT(core, c);
          ++uses[core];
        }
        for (const auto& [core, n] : uses) {  // at most ceil(w / c), at least floor(w / c)
          EXPECT_LE(n, (w + c - 1) / c) << spec << " w=" << w << " core " << core;
        }
        if (w >= c) EXPECT_EQ(uses.size(), c) << spec << " w=" << w;
      }
    }
  }
  const auto t = topology::from_spec("sockets=2,cores=2");
  EXPECT_EQ(bind_workers(t, 6, bind_policy::close).core, (cores_t{0, 1, 2, 3, 0, 1}));
  EXPECT_EQ(bind_workers(t, 6, bind_policy::spread).core, (cores_t{0, 1, 2, 3, 0, 2}));
}

// A virtual machine's cores are fiction: the workers take the real processors round-robin, so
// four spread workers do not all land on the processor of cores 0, 4, 8 and 12.
TEST(bind_workers, virtual_workers_share_a_processor_only_past_the_processors) {
  const auto t = topology::from_spec("sockets=4,cores=4");
  std::set<unsigned> cpus;
  for (const auto& c : t.cores())
    cpus.insert(c.os_cpu);
  for (std::size_t w = 1; w <= 8; ++w) {
    const auto b = bind_workers(t, w, bind_policy::spread);
    const std::set<unsigned> used(b.os_cpu.begin(), b.os_cpu.end());
    EXPECT_EQ(used.size(), std::min(w, cpus.size())) << "w=" << w;
    for (const unsigned cpu : used)
      EXPECT_TRUE(cpus.contains(cpu));
  }
}

TEST(bind_workers, a_real_machine_pins_to_the_cores_processors) {
  const auto t = topology::discover();
  const auto b = bind_workers(t, t.num_cores(), bind_policy::spread);
  for (std::size_t w = 0; w < b.core.size(); ++w)
    EXPECT_EQ(b.os_cpu[w], t.cores()[b.core[w]].os_cpu);
}

TEST(describe_workers, one_line_per_worker_with_its_socket_and_place) {
  const auto t = topology::from_spec("sockets=2,cores=2");
  const locus::worker_binding b{{0, 2}, {5, 6}};
  EXPECT_EQ(locus::describe_workers(t, b, {0, 1}),
            "worker 0: socket 0, NUMA node 0, L3 group 0, core 0, cpu 5, place 0\n"
            "worker 1: socket 1, NUMA node 1, L3 group 1, core 2, cpu 6, place 1\n");
  EXPECT_EQ(locus::describe_workers(t, b, {}),
            "worker 0: socket 0, NUMA node 0, L3 group 0, core 0, cpu 5\n"
            "worker 1: socket 1, NUMA node 1, L3 group 1, core 2, cpu 6\n");
}

locus::config on_16_cores(unsigned workers, bind_policy how) {
  locus::config c;
  c.workers = workers;
  c.pin = false;
  c.topology = "sockets=4,cores=4";
  c.bind = how;
  return c;
}

// The runtime lays its workers with bind_workers, and places follow: four spread workers are
// four socket places; four close ones, one.
TEST(runtime_binding, places_follow_the_mapping) {
  {
    locus::runtime rt{on_16_cores(4, bind_policy::spread)};
    EXPECT_EQ(rt.num_places(), 4U);
    for (unsigned w = 0; w < 4; ++w) {
      EXPECT_EQ(rt.core_of(w), 4U * w);
      EXPECT_EQ(rt.place_of(w), w);
    }
    EXPECT_EQ(rt.run(locus_test::fib(15)), 610);
    const auto s = rt.stats();
    for (unsigned w = 0; w < 4; ++w)
      EXPECT_EQ(s.workers[w].socket, w);
    EXPECT_NE(s.to_json().find("\"core\":12,\"socket\":3"), std::string::npos) << s.to_json();
    const std::string d = rt.describe();
    EXPECT_NE(d.find("4 workers, bind spread, 4 places (places socket)\n"), std::string::npos) << d;
    EXPECT_NE(d.find("worker 3: socket 3, NUMA node 3, L3 group 3, core 12"), std::string::npos)
        << d;
  }
  locus::runtime rt{on_16_cores(4, bind_policy::close)};
  EXPECT_EQ(rt.num_places(), 1U);
  for (unsigned w = 0; w < 4; ++w)
    EXPECT_EQ(rt.core_of(w), w);
}

// Records each worker's victim tiers as the acquisition strategy sees them (worker_ref), then
// acquires as SLAW does.
class tier_recorder final : public locus::ext::acquisition {
 public:
  bool acquire(locus::ext::worker_ref w, locus::ext::work_item& out) override {
    {
      std::lock_guard lk(m_mutex);
      tiers.try_emplace(w.index(), w.victim_tiers());
    }
    return m_inner->acquire(w, out);
  }
  [[nodiscard]] std::string_view name() const noexcept override { return "tier-recorder"; }
  std::map<unsigned, std::vector<std::vector<unsigned>>> recorded() {
    std::lock_guard lk(m_mutex);
    return tiers;
  }

 private:
  std::shared_ptr<locus::ext::acquisition> m_inner = locus::ext::slaw_acquisition();
  std::mutex m_mutex;
  std::map<unsigned, std::vector<std::vector<unsigned>>> tiers;
};

std::vector<std::vector<unsigned>> tiers_of_worker_0(bind_policy how) {
  auto rec = std::make_shared<tier_recorder>();
  locus::config c;
  c.workers = 4;
  c.pin = false;
  c.topology = "sockets=2,cores=4";  // one L3 group per socket
  c.places = "none";
  c.victims = locus::victim_policy::hierarchical;
  c.bind = how;
  c.custom_scheduler = std::make_shared<locus::ext::scheduler>(
      locus::ext::scheduler{.name = "tier-recorder", .acquire = rec, .spawn = nullptr});
  locus::runtime rt{c};
  EXPECT_EQ(rt.run(locus_test::fib(12)), 144);
  locus_test::wait_until_all_asleep(rt);  // every worker has looked for work by now
  return rec->recorded().at(0);
}

// Hierarchical victims follow the mapping: spread puts workers 2 and 3 on the other socket,
// a farther tier; close keeps all four in one L3 group, one tier.
TEST(runtime_binding, hierarchical_victims_follow_the_mapping) {
  using tiers = std::vector<std::vector<unsigned>>;
  EXPECT_EQ(tiers_of_worker_0(bind_policy::spread), (tiers{{1}, {2, 3}}));
  EXPECT_EQ(tiers_of_worker_0(bind_policy::close), (tiers{{1, 2, 3}}));
}

}  // namespace
