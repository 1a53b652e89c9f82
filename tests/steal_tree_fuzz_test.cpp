// tests/steal_tree_fuzz_test.cpp — the steal tree reader against damaged input: seeded random
// mutations of valid files (the suite's fast, reproducible fuzzer), and the libFuzzer corpus
// in tests/fuzz/corpus/steal_tree replayed. A file either loads into a tree that is valid and
// writes back to the same bytes, or fails with steal_tree_file_error; nothing else.
#include <gtest/gtest.h>

#include <locus/schedule/steal_tree_io.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "steal_tree_support.hpp"

namespace {

using namespace locus::schedule;
using bytes_t = std::vector<std::byte>;

enum class verdict { loaded, refused };

// Loads `b`; fails the test on anything but a valid tree or a steal_tree_file_error.
verdict check_load(const bytes_t& b, const load_options& o, const std::string& what) {
  try {
    const steal_tree t = deserialize(b, "fuzz.st", o);
    t.validate();
    if (o.workers == 0) {
      EXPECT_EQ(serialize(t), b) << what << ": a loaded file writes back";
    }
    return verdict::loaded;
  } catch (const steal_tree_file_error& e) {
    EXPECT_NE(std::string(e.what()).find("steal tree file 'fuzz.st', offset "), std::string::npos)
        << what;
    return verdict::refused;
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << ": unexpected exception: " << e.what();
  }
  return verdict::refused;
}

void reseal(bytes_t& b) {
  if (b.size() < 8) return;
  const std::uint64_t sum = checksum(std::span<const std::byte>(b).first(b.size() - 8));
  for (int i = 0; i < 8; ++i)
    b[b.size() - 8 + i] = static_cast<std::byte>(sum >> (8 * i));
}

// One random damage: flip a bit, overwrite a byte or a 32-bit field with an edge value,
// truncate, insert or delete bytes.
void mutate(bytes_t& b, std::mt19937_64& rng) {
  static constexpr std::uint32_t k_edges[] = {
      0,          1,          2,         3, 4, 0x7f, 0xff, 4096, 4097, 1u << 24, (1u << 24) + 1,
      0x7fffffff, 0xfffffffe, 0xffffffff};
  const auto at = [&] { return b.empty() ? 0 : static_cast<std::size_t>(rng() % b.size()); };
  switch (rng() % 6) {
    case 0:
      if (!b.empty()) b[at()] ^= static_cast<std::byte>(1u << (rng() % 8));
      break;
    case 1:
      if (!b.empty()) b[at()] = static_cast<std::byte>(rng());
      break;
    case 2:
      if (b.size() >= 4) {
        const std::size_t i = rng() % (b.size() - 3);
        const std::uint32_t v = k_edges[rng() % std::size(k_edges)];
        for (int k = 0; k < 4; ++k)
          b[i + k] = static_cast<std::byte>(v >> (8 * k));
      }
      break;
    case 3:
      b.resize(at());
      break;
    case 4:
      b.insert(b.begin() + static_cast<std::ptrdiff_t>(at()), 1 + rng() % 21,
               static_cast<std::byte>(rng()));
      break;
    default:
      if (!b.empty()) {
        const std::size_t i = at();
        const std::size_t n = std::min<std::size_t>(1 + rng() % 21, b.size() - i);
        b.erase(b.begin() + static_cast<std::ptrdiff_t>(i),
                b.begin() + static_cast<std::ptrdiff_t>(i + n));
      }
  }
}

TEST(StealTreeFuzz, mutated_files_load_or_fail_with_a_clear_error) {
  std::mt19937_64 rng(20261123);
  std::vector<bytes_t> seeds;
  seeds.push_back(serialize(locus_test::sample_tree{}.tree));
  for (int i = 0; i < 6; ++i)
    seeds.push_back(serialize(locus_test::random_tree(rng, 1 + rng() % 40, 1 + i)));
  std::size_t loaded = 0;
  std::size_t refused = 0;
  for (int i = 0; i < 6000; ++i) {
    bytes_t b = seeds[rng() % seeds.size()];
    const int damage = 1 + static_cast<int>(rng() % 3);
    for (int d = 0; d < damage; ++d)
      mutate(b, rng);
    // Most cases get a fresh checksum, so that damage reaches the checks behind it.
    if (rng() % 4 != 0) reseal(b);
    load_options o;
    if (rng() % 3 == 0) o = {static_cast<unsigned>(1 + rng() % 5), worker_mismatch::remap};
    const verdict v = check_load(b, o, "case " + std::to_string(i));
    (v == verdict::loaded ? loaded : refused) += 1;
    if (HasFailure()) break;
  }
  EXPECT_GT(refused, 1000u);
  EXPECT_GT(loaded, 10u) << "some mutations (a seq, a spawn index) keep the file valid";
}

TEST(StealTreeCorpus, every_corpus_file_loads_or_fails_with_a_clear_error) {
  const std::filesystem::path dir = LOCUS_STEAL_TREE_CORPUS;
  ASSERT_TRUE(std::filesystem::is_directory(dir)) << dir;
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    const std::vector<char> chars{std::istreambuf_iterator<char>(in), {}};
    bytes_t b(chars.size());
    std::transform(chars.begin(), chars.end(), b.begin(),
                   [](char c) { return static_cast<std::byte>(c); });
    const std::string name = entry.path().filename().string();
    const verdict v = check_load(b, {}, name);
    // Seeds are named valid-*; everything else is an input the fuzzer found or a hand-made
    // bad file, kept so it stays refused.
    if (name.rfind("valid-", 0) == 0) {
      EXPECT_EQ(v, verdict::loaded) << name;
    }
    (void)check_load(b, {3, worker_mismatch::remap}, name + " remapped");
    ++files;
  }
  EXPECT_GE(files, 3u);
}

}  // namespace
