// SHA-1 (FIPS 180-1) of a message that fits one 64-byte block (at most 55 bytes), which is all
// UTS needs: a root hashes 20 bytes, a child 24. Written from the standard's description.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace uts_kernel {

using digest = std::array<std::uint8_t, 20>;

namespace detail {

[[nodiscard]] constexpr std::uint32_t rotl(std::uint32_t x, int s) {
  return (x << s) | (x >> (32 - s));
}

}  // namespace detail

/// SHA-1 of msg[0, len); len <= 55 so that the message, its 0x80 terminator and its 64-bit
/// bit length share a single block.
[[nodiscard]] inline digest sha1_one_block(const std::uint8_t* msg, std::size_t len) {
  std::array<std::uint8_t, 64> block{};
  for (std::size_t i = 0; i < len; ++i)
    block[i] = msg[i];
  block[len] = 0x80;
  const std::uint64_t bits = static_cast<std::uint64_t>(len) * 8;
  for (int i = 0; i < 8; ++i)
    block[63 - i] = static_cast<std::uint8_t>(bits >> (8 * i));

  std::array<std::uint32_t, 80> w{};
  for (int t = 0; t < 16; ++t) {
    w[t] = (std::uint32_t{block[4 * t]} << 24) | (std::uint32_t{block[4 * t + 1]} << 16) |
           (std::uint32_t{block[4 * t + 2]} << 8) | std::uint32_t{block[4 * t + 3]};
  }
  for (int t = 16; t < 80; ++t)
    w[t] = detail::rotl(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);

  constexpr std::array<std::uint32_t, 5> k_init = {0x67452301u, 0xEFCDAB89u, 0x98BADCFEu,
                                                   0x10325476u, 0xC3D2E1F0u};
  std::uint32_t a = k_init[0], b = k_init[1], c = k_init[2], d = k_init[3], e = k_init[4];
  for (int t = 0; t < 80; ++t) {
    std::uint32_t f = 0;
    std::uint32_t k = 0;
    if (t < 20) {
      f = (b & c) | (~b & d);
      k = 0x5A827999u;
    } else if (t < 40) {
      f = b ^ c ^ d;
      k = 0x6ED9EBA1u;
    } else if (t < 60) {
      f = (b & c) | (b & d) | (c & d);
      k = 0x8F1BBCDCu;
    } else {
      f = b ^ c ^ d;
      k = 0xCA62C1D6u;
    }
    const std::uint32_t temp = detail::rotl(a, 5) + f + e + k + w[t];
    e = d;
    d = c;
    c = detail::rotl(b, 30);
    b = a;
    a = temp;
  }
  const std::array<std::uint32_t, 5> h = {k_init[0] + a, k_init[1] + b, k_init[2] + c,
                                          k_init[3] + d, k_init[4] + e};
  digest out{};
  for (int i = 0; i < 5; ++i) {
    for (int j = 0; j < 4; ++j)
      out[4 * i + j] = static_cast<std::uint8_t>(h[i] >> (24 - 8 * j));
  }
  return out;
}

}  // namespace uts_kernel
