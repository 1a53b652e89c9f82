// locus/schedule/steal_tree_io.hpp — steal trees on disk (a versioned binary file) and as
// Graphviz DOT.
//
// File format, version 1. All integers little-endian; offsets in bytes.
//
//   0   8  magic "LOCUSST\x1a" (\x1a stops `type`/`cat` on the binary that follows)
//   8   4  u32 version, 1
//   12  4  u32 worker count of the recorded run, 1 to 4096
//   16  4  u32 topology length T, 0 to 4096
//   20  T  topology description (a topology spec, free text)
//   .   4  u32 node count N, 1 to 2^24
//   .  21N nodes in tree order (node 0 is the root), 21 bytes each:
//          u32 level, u32 spawn index, u32 worker, u32 seq,
//          u32 parent (0xffffffff for node 0, else an index below the node's own),
//          u8 kind (0 root: node 0 only, 1 continuation, 2 child)
//   .   8  u64 checksum: FNV-1a 64 of every byte before it
//
// Parents precede their children, so a file cannot describe a cycle, and the node count must
// account for the file's exact length, so a count cannot make the reader allocate more than
// the file holds. A loaded tree is validate()d (on its own worker count, before any remap).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "locus/schedule/steal_tree.hpp"

namespace locus::schedule {

inline constexpr std::uint32_t k_steal_tree_format_version = 1;

/// A steal tree file that cannot be read: bad magic or version, a checksum mismatch, a
/// truncated or oversized file, a field out of range, or a tree that fails validate(). The
/// message names the file, the byte offset and what is wrong.
class steal_tree_file_error : public std::runtime_error {
 public:
  steal_tree_file_error(std::string file, std::uint64_t offset, const std::string& what);
  [[nodiscard]] const std::string& file() const noexcept { return m_file; }
  [[nodiscard]] std::uint64_t offset() const noexcept { return m_offset; }

 private:
  std::string m_file;
  std::uint64_t m_offset;
};

/// What to do when a file's worker count differs from the one asked for.
enum class worker_mismatch : std::uint8_t {
  refuse,  ///< throw steal_tree_file_error
  remap,   ///< steal_tree::remap_workers: worker w runs on w mod n
};

struct load_options {
  unsigned workers = 0;  ///< the worker count to load for; 0 keeps the file's
  worker_mismatch on_mismatch = worker_mismatch::refuse;
  /// The rule the loaded tree is validated with: with_calls for traces of programs that call
  /// (co_await task), whose steals need not follow the paper's validity rule.
  validity_rule validity = validity_rule::spawns_only;
};

/// The file's bytes (see the format above).
[[nodiscard]] std::vector<std::byte> serialize(const steal_tree& tree);
/// Reads a file's bytes; `name` is what errors call it.
[[nodiscard]] steal_tree deserialize(std::span<const std::byte> bytes, std::string_view name,
                                     const load_options& options = {});

/// Writes `tree` to `path`; throws steal_tree_file_error when the file cannot be written.
void save(const steal_tree& tree, const std::filesystem::path& path);
/// Reads `path`; throws steal_tree_file_error (see above, and when it cannot be opened).
[[nodiscard]] steal_tree load(const std::filesystem::path& path, const load_options& options = {});

/// The format's checksum of `bytes` (FNV-1a 64); the file stores it over all bytes before it.
[[nodiscard]] std::uint64_t checksum(std::span<const std::byte> bytes) noexcept;

/// Graphviz DOT: one box per node labelled with its (level, spawn index) and seq, filled with
/// its worker's colour from a fixed 12-colour palette (worker w gets colour w mod 12), an edge
/// from each parent, and a legend cluster with one entry per worker.
[[nodiscard]] std::string to_dot(const steal_tree& tree);

/// The colour to_dot gives `worker`, "#rrggbb".
[[nodiscard]] std::string_view worker_colour(std::uint32_t worker) noexcept;

}  // namespace locus::schedule
