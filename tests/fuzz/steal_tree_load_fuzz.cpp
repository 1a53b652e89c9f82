// tests/fuzz/steal_tree_load_fuzz.cpp — libFuzzer target for the steal tree reader. Each input
// is read twice: as it is, and with its checksum rewritten, so that mutations get past the
// checksum to the checks behind it. Reading must either produce a valid tree that writes back
// to the same bytes, or throw steal_tree_file_error; any other exception, a crash, a sanitizer
// report, a timeout or a large allocation is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

#include "locus/schedule/steal_tree_io.hpp"

namespace {

using namespace locus::schedule;

void read_one(const std::vector<std::byte>& bytes, const load_options& options) {
  try {
    const steal_tree tree = deserialize(bytes, "fuzz", options);
    tree.validate();
    if (options.workers == 0 && serialize(tree) != bytes) std::abort();
    (void)to_dot(tree);
    (void)prune_tree(tree, 50);
  } catch (const steal_tree_file_error&) {
    // the clear error the reader promises
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::byte> bytes(size);
  for (std::size_t i = 0; i < size; ++i)
    bytes[i] = static_cast<std::byte>(data[i]);
  read_one(bytes, {});
  if (size >= 8) {
    const std::uint64_t sum = checksum(std::span<const std::byte>(bytes).first(size - 8));
    for (std::size_t i = 0; i < 8; ++i)
      bytes[size - 8 + i] = static_cast<std::byte>(sum >> (8 * i));
    read_one(bytes, {});
    read_one(bytes, {3, worker_mismatch::remap});
  }
  return 0;
}
