// locality_memory_test.cpp — placed allocation and registration: homes recorded per placement,
// page alignment, bad placements and sizes, and the one binding warning.
#include <locus/locality/home_map.hpp>
#include <locus/locality/memory.hpp>
#include <locus/topology.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "locality_support.hpp"

namespace {

using locality_test::message_of;
using locus::home;
using locus::home_map;
using locus::placement;
using locus::topology;

constexpr std::size_t k_page = home_map::page_bytes;

TEST(LocalityMemory, AllocationIsPageAlignedZeroedAndWritable) {
  const topology topo = topology::from_spec("sockets=2,cores=2");
  home_map homes;
  auto* p =
      static_cast<unsigned char*>(locus::allocate(10000, placement::first_touch(), topo, &homes));
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % k_page, 0U);
  EXPECT_EQ(p[0], 0);
  EXPECT_EQ(p[9999], 0);
  std::memset(p, 7, 10000);
  EXPECT_TRUE(homes.home_of(p).is_none());  // first touch: the accountant sets homes
  locus::deallocate(p, 10000, &homes);
}

TEST(LocalityMemory, VirtualPlacementsRecordHomes) {
  const topology topo = topology::from_spec("sockets=4,cores=2");
  home_map homes;
  void* s = locus::allocate(3 * k_page, placement::on_socket(2), topo, &homes);
  void* n = locus::allocate(k_page, placement::on_numa(1), topo, &homes);
  void* i = locus::allocate(6 * k_page, placement::interleave(), topo, &homes);
  for (std::size_t k = 0; k < 3; ++k)
    EXPECT_EQ(homes.home_of(static_cast<char*>(s) + k * k_page), home::on_package(2));
  EXPECT_EQ(homes.home_of(n), home::on_numa(1));
  for (std::size_t k = 0; k < 6; ++k)
    EXPECT_EQ(homes.home_of(static_cast<char*>(i) + k * k_page), home::on_numa(k % 4));
  locus::deallocate(s, 3 * k_page, &homes);
  EXPECT_TRUE(homes.home_of(s).is_none());
  locus::deallocate(n, k_page, &homes);
  locus::deallocate(i, 6 * k_page, &homes);
  locus::deallocate(nullptr, 1, &homes);  // no-op
}

TEST(LocalityMemory, RegisterPlacesExistingMemory) {
  const topology topo = topology::from_spec("sockets=2,cores=2");
  home_map homes;
  std::vector<char> v(5 * k_page);
  locus::register_memory(v.data(), v.size(), placement::on_socket(1), topo, homes);
  EXPECT_EQ(homes.home_of(v.data()), home::on_package(1));
  EXPECT_EQ(homes.home_of(v.data() + v.size() - 1), home::on_package(1));
  locus::register_memory(v.data(), v.size(), placement::first_touch(), topo, homes);
  EXPECT_TRUE(homes.home_of(v.data()).is_none());
}

// This machine (and CI) may have one NUMA node: then nothing is bound and homes are recorded;
// with several, the memory is bound or, failing that, a warning and first touch. Either way the
// allocation works and is usable.
TEST(LocalityMemory, RealTopologyPlacementsNeverFail) {
  const topology topo = topology::discover();
  home_map homes;
  void* p = locus::allocate(4 * k_page, placement::on_numa(0), topo, &homes);
  std::memset(p, 1, 4 * k_page);
  const home h = homes.home_of(p);
  EXPECT_TRUE(h.is_none() || h == home::on_numa(0));
  if (topo.num_numa_nodes() == 1) EXPECT_EQ(h, home::on_numa(0));
  locus::deallocate(p, 4 * k_page, &homes);
  void* q = locus::allocate(4 * k_page, placement::interleave(), topo, nullptr);
  std::memset(q, 1, 4 * k_page);
  locus::deallocate(q, 4 * k_page);
}

TEST(LocalityMemory, SocketThatDoesNotExistIsOutOfRange) {
  const topology topo = topology::from_spec("sockets=4,cores=2");
  const auto m = message_of<std::out_of_range>(
      [&] { (void)locus::allocate(k_page, placement::on_socket(5), topo, nullptr); });
  EXPECT_EQ(m,
            "allocate: on_socket(5) names no socket; expected on_socket(0) to on_socket(3) (this "
            "topology has 4 sockets)");
}

TEST(LocalityMemory, NumaNodeThatDoesNotExistIsOutOfRange) {
  const topology topo = topology::from_spec("sockets=1,cores=2");
  home_map homes;
  std::vector<char> v(k_page);
  const auto m = message_of<std::out_of_range>(
      [&] { locus::register_memory(v.data(), v.size(), placement::on_numa(1), topo, homes); });
  EXPECT_EQ(m,
            "register_memory: on_numa(1) names no NUMA node; expected on_numa(0) (this topology "
            "has 1 NUMA node)");
}

TEST(LocalityMemory, ZeroBytesIsAnError) {
  const topology topo = topology::from_spec("sockets=1,cores=2");
  const auto m = message_of<std::invalid_argument>(
      [&] { (void)locus::allocate(0, placement::first_touch(), topo, nullptr); });
  EXPECT_NE(m.find("allocate bytes=\"0\" is not valid; expected at least 1 byte"),
            std::string::npos)
      << m;
}

TEST(LocalityMemory, PlacementsPrintTheirName) {
  EXPECT_EQ(locus::to_string(placement::first_touch()), "first_touch");
  EXPECT_EQ(locus::to_string(placement::interleave()), "interleave");
  EXPECT_EQ(locus::to_string(placement::on_socket(3)), "on_socket(3)");
  EXPECT_EQ(locus::to_string(placement::on_numa(0)), "on_numa(0)");
}

// Once per process: whichever call comes first prints it (an earlier test may have), no later
// call prints again.
TEST(LocalityMemory, BindingWarningIsPrintedOnce) {
  ::testing::internal::CaptureStderr();
  const bool first = locus::locality::detail::warn_binding_unsupported("test reason");
  const bool second = locus::locality::detail::warn_binding_unsupported("test reason");
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_FALSE(second);
  if (first) {
    EXPECT_EQ(err,
              "locus: memory binding is not supported here (test reason); falling back to first "
              "touch\n");
  } else {
    EXPECT_EQ(err, "");
  }
}

// The binding step itself, on this machine's real topology: it binds or says why not (never
// crashes), and the memory stays usable either way.
TEST(LocalityMemory, BindingStepBindsOrSaysWhy) {
  const topology topo = topology::discover();
  const std::size_t bytes = 8 * k_page;
  void* p = locus::allocate(bytes, placement::first_touch(), topo, nullptr);
  for (placement pl : {placement::on_numa(0), placement::on_socket(0), placement::interleave()}) {
    for (bool migrate : {false, true}) {
      std::string why;
      const bool bound = locus::locality::detail::bind_pages(p, bytes, pl, topo, migrate, why);
      EXPECT_TRUE(bound || !why.empty()) << locus::to_string(pl);
      std::memset(p, 3, bytes);
    }
  }
  std::string why;
  EXPECT_TRUE(
      locus::locality::detail::bind_pages(p, bytes, placement::first_touch(), topo, false, why));
  locus::deallocate(p, bytes);
}

}  // namespace
