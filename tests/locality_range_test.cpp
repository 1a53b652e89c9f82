// locality_range_test.cpp — data_range factories, their errors, and LAWS Eq. 1 parts.
#include <locus/config.hpp>
#include <locus/locality/data_range.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <span>
#include <stdexcept>
#include <vector>

#include "locality_support.hpp"

namespace {

using locality_test::message_of;
using locus::access;
using locus::data_range;
using locus::part;

TEST(LocalityRange, OfCountsElementsNotBytes) {
  std::array<double, 10> a{};
  const data_range r = data_range::of(a.data(), 10, access::read);
  EXPECT_EQ(r.begin, reinterpret_cast<const std::byte*>(a.data()));
  EXPECT_EQ(r.bytes, 10 * sizeof(double));
  EXPECT_EQ(r.mode, access::read);
  EXPECT_EQ(r.end(), reinterpret_cast<const std::byte*>(a.data() + 10));
}

TEST(LocalityRange, OfSpanCoversTheSpan) {
  std::vector<int> v(7);
  const data_range r = data_range::of(std::span<int>(v), access::write);
  EXPECT_EQ(r.begin, reinterpret_cast<const std::byte*>(v.data()));
  EXPECT_EQ(r.bytes, 7 * sizeof(int));
  EXPECT_EQ(r.mode, access::write);
  const data_range c = data_range::of(std::span<const int>(v).subspan(2), access::read_write);
  EXPECT_EQ(c.bytes, 5 * sizeof(int));
}

TEST(LocalityRange, BetweenIsHalfOpen) {
  std::array<char, 100> a{};
  const data_range r = data_range::between(a.data() + 10, a.data() + 30, access::read);
  EXPECT_EQ(r.begin, reinterpret_cast<const std::byte*>(a.data() + 10));
  EXPECT_EQ(r.bytes, 20U);
}

TEST(LocalityRange, WritesIsTheWriteBit) {
  EXPECT_FALSE(locus::writes(access::read));
  EXPECT_TRUE(locus::writes(access::write));
  EXPECT_TRUE(locus::writes(access::read_write));
}

TEST(LocalityRange, EmptyOfNamesTheCount) {
  int x = 0;
  const auto m =
      message_of<std::invalid_argument>([&] { (void)data_range::of(&x, 0, access::read); });
  EXPECT_NE(m.find("data_range::of count=\"0\" is not valid"), std::string::npos) << m;
  EXPECT_NE(m.find("expected at least 1 element"), std::string::npos) << m;
}

TEST(LocalityRange, EmptySpanNamesTheSpan) {
  const auto m = message_of<std::invalid_argument>(
      [&] { (void)data_range::of(std::span<int>(), access::read); });
  EXPECT_NE(m.find("data_range::of span.size()=\"0\""), std::string::npos) << m;
}

TEST(LocalityRange, NullPointerIsAnError) {
  const int* p = nullptr;
  const auto m =
      message_of<std::invalid_argument>([&] { (void)data_range::of(p, 4, access::read); });
  EXPECT_NE(m.find("data_range::of pointer=\"nullptr\""), std::string::npos) << m;
}

TEST(LocalityRange, InvertedBetweenNamesBothEnds) {
  std::array<char, 8> a{};
  const auto m = message_of<locus::config_error>(
      [&] { (void)data_range::between(a.data() + 5, a.data() + 2, access::write); });
  EXPECT_NE(m.find("data_range::between=\"first=0x"), std::string::npos) << m;
  EXPECT_NE(m.find("last=0x"), std::string::npos) << m;
  EXPECT_NE(m.find("(inverted range: last is before first)"), std::string::npos) << m;
  EXPECT_NE(m.find("expected first < last"), std::string::npos) << m;
}

TEST(LocalityRange, EmptyBetweenIsAnError) {
  std::array<char, 8> a{};
  const auto m = message_of<std::invalid_argument>(
      [&] { (void)data_range::between(a.data() + 3, a.data() + 3, access::read); });
  EXPECT_NE(m.find("(empty range)"), std::string::npos) << m;
}

// Eq. 1 with b = 3 over 10 bytes: floor(10 / 3) = 3 bytes each, the last takes 3 + 1.
TEST(LocalityRange, PartsHaveExactBoundsAndTheLastTakesTheRemainder) {
  std::array<char, 10> a{};
  const data_range r = data_range::of(a.data(), a.size(), access::read_write);
  const data_range p0 = part(r, 0, 3), p1 = part(r, 1, 3), p2 = part(r, 2, 3);
  EXPECT_EQ(p0.begin, r.begin);
  EXPECT_EQ(p0.bytes, 3U);
  EXPECT_EQ(p1.begin, r.begin + 3);
  EXPECT_EQ(p1.bytes, 3U);
  EXPECT_EQ(p2.begin, r.begin + 6);
  EXPECT_EQ(p2.bytes, 4U);
  EXPECT_EQ(p2.mode, access::read_write);
  EXPECT_EQ(part(r, 0, 1), r);
}

TEST(LocalityRange, PartsKeepElementsWholeWithAGrain) {
  std::array<std::int32_t, 10> a{};  // 40 bytes, 10 grains of 4
  const data_range r = data_range::of(a.data(), a.size(), access::read);
  // floor(10 / 4) = 2 elements each; the last gets 2 + 2.
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(part(r, i, 4, 4).begin, r.begin + 8 * i);
    EXPECT_EQ(part(r, i, 4, 4).bytes, 8U);
  }
  EXPECT_EQ(part(r, 3, 4, 4).begin, r.begin + 24);
  EXPECT_EQ(part(r, 3, 4, 4).bytes, 16U);
}

TEST(LocalityRange, PartsTileTheRangeForEverySplit) {
  std::vector<char> buf(1000);
  for (std::size_t n : {1U, 2U, 7U, 64U, 999U, 1000U}) {
    const data_range r = data_range::of(buf.data(), n, access::read);
    for (std::size_t b : {1U, 2U, 3U, 8U, 13U}) {
      const std::byte* next = r.begin;
      for (std::size_t i = 0; i < b; ++i) {
        const data_range p = part(r, i, b);
        EXPECT_EQ(p.begin, next) << "n=" << n << " b=" << b << " i=" << i;
        EXPECT_EQ(p.bytes, i + 1 < b ? n / b : n - (b - 1) * (n / b));
        next = p.end();
      }
      EXPECT_EQ(next, r.end());
    }
  }
}

TEST(LocalityRange, FewerBytesThanPartsLeavesLeadingPartsEmpty) {
  std::array<char, 2> a{};
  const data_range r = data_range::of(a.data(), 2, access::read);
  EXPECT_TRUE(part(r, 0, 4).empty());
  EXPECT_TRUE(part(r, 2, 4).empty());
  EXPECT_EQ(part(r, 3, 4).bytes, 2U);
  EXPECT_EQ(part(r, 3, 4).begin, r.begin);
}

TEST(LocalityRange, PartErrorsNameTheInput) {
  std::array<char, 8> a{};
  const data_range r = data_range::of(a.data(), a.size(), access::read);
  auto m = message_of<std::invalid_argument>([&] { (void)part(r, 0, 0); });
  EXPECT_NE(m.find("part b=\"0\" is not valid; expected at least 1 part"), std::string::npos) << m;
  m = message_of<std::invalid_argument>([&] { (void)part(r, 4, 4); });
  EXPECT_NE(m.find("part i=\"4\" is not valid; expected 0 to 3 (i < b = 4)"), std::string::npos)
      << m;
  m = message_of<std::invalid_argument>([&] { (void)part(r, 0, 2, 0); });
  EXPECT_NE(m.find("part grain=\"0\""), std::string::npos) << m;
}

TEST(LocalityRange, ToStringShowsSizeAndMode) {
  std::array<char, 8> a{};
  const auto s = locus::to_string(data_range::of(a.data(), 8, access::write));
  EXPECT_NE(s.find("+8 (write)"), std::string::npos) << s;
}

}  // namespace
