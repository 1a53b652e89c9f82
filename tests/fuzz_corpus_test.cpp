// tests/fuzz_corpus_test.cpp — the kept libFuzzer corpora of the topology spec and of the
// LOCUS_* variables (tests/fuzz/corpus/{topology_spec,config_env}, grown from real specs and
// environments) replayed by the suite: each input either parses or fails with config_error,
// as the fuzz targets (tests/fuzz/*_fuzz.cpp) require; nothing else. (The steal tree
// corpus is replayed by steal_tree_fuzz_test.cpp.)
#include <gtest/gtest.h>
#include <stdlib.h>
#include <locus/config.hpp>
#include <locus/topology.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace fs = std::filesystem;

std::vector<std::string> corpus(const std::string& name) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(fs::path(LOCUS_FUZZ_CORPUS) / name)) {
    std::ifstream f(e.path(), std::ios::binary);
    out.emplace_back(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  }
  return out;
}

TEST(fuzz_corpus, topology_specs_parse_or_fail_with_config_error) {
  int parsed = 0, refused = 0;
  for (const std::string& spec : corpus("topology_spec")) {
    try {
      const locus::topology t = locus::topology::from_spec(spec, "LOCUS_TOPOLOGY");
      EXPECT_EQ(t.cores().size(), t.num_cores()) << spec;
      ++parsed;
    } catch (const locus::config_error& e) {
      EXPECT_EQ(std::string_view(e.what()).substr(0, 15), "LOCUS_TOPOLOGY=") << spec;
      ++refused;
    }
  }
  // The corpus keeps both kinds (a corpus of one kind would test half the parser).
  EXPECT_GT(parsed, 5);
  EXPECT_GT(refused, 5);
}

TEST(fuzz_corpus, environments_parse_or_fail_with_config_error) {
  constexpr const char* variables[] = {"LOCUS_SCHEDULER",
                                       "LOCUS_WORKERS",
                                       "LOCUS_POLICY",
                                       "LOCUS_VICTIMS",
                                       "LOCUS_TOPOLOGY",
                                       "LOCUS_PLACES",
                                       "LOCUS_CROSS_PLACE_STEALS",
                                       "LOCUS_PIN",
                                       "LOCUS_ACCOUNTING",
                                       "LOCUS_SLAW"};
  int parsed = 0, refused = 0;
  for (const std::string& input : corpus("config_env")) {
    std::string_view in(input);
    for (const char* name : variables) {
      const std::size_t nl = in.find('\n');
      const std::string value(std::string(in.substr(0, nl)).c_str());
      in = nl == std::string_view::npos ? std::string_view{} : in.substr(nl + 1);
      if (value.empty()) {
        ::unsetenv(name);
      } else {
        ::setenv(name, value.c_str(), 1);
      }
    }
    try {
      (void)locus::config::from_env();
      ++parsed;
    } catch (const locus::config_error& e) {
      EXPECT_EQ(std::string_view(e.what()).substr(0, 6), "LOCUS_") << input;
      ++refused;
    }
  }
  for (const char* name : variables)
    ::unsetenv(name);
  EXPECT_GT(parsed, 0);
  EXPECT_GT(refused, 0);
}

}  // namespace
