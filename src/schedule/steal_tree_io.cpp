// steal_tree_io.cpp — the steal tree file (format in steal_tree_io.hpp). The reader trusts
// nothing: every count is checked against the bytes that are there before anything is
// allocated, and every index against what precedes it.
#include "locus/schedule/steal_tree_io.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <fstream>
#include <iterator>

namespace locus::schedule {

namespace {

constexpr std::array<char, 8> k_magic = {'L', 'O', 'C', 'U', 'S', 'S', 'T', '\x1a'};
constexpr std::uint32_t k_max_workers = k_max_steal_tree_workers;
constexpr std::uint32_t k_max_topology = 4096;
constexpr std::uint32_t k_max_nodes = std::uint32_t{1} << 24;
constexpr std::size_t k_node_bytes = 21;
constexpr std::size_t k_checksum_bytes = 8;
constexpr std::uint32_t k_no_parent = 0xffffffffU;

void put_u32(std::vector<std::byte>& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i)
    out.push_back(static_cast<std::byte>(v >> (8 * i)));
}

void put_u64(std::vector<std::byte>& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i)
    out.push_back(static_cast<std::byte>(v >> (8 * i)));
}

/// Reads little-endian fields at increasing offsets; every read first checks the bytes exist.
class cursor {
 public:
  cursor(std::span<const std::byte> bytes, std::string_view name) : m_bytes(bytes), m_name(name) {}

  [[noreturn]] void fail(std::uint64_t offset, const std::string& what) const {
    throw steal_tree_file_error(std::string(m_name), offset, what);
  }
  void need(std::size_t n, std::string_view field) const {
    if (m_bytes.size() - m_pos < n) {
      fail(m_pos, "the file ends inside the " + std::string(field) + " (" +
                      std::to_string(m_bytes.size()) + " bytes in all)");
    }
  }
  [[nodiscard]] std::uint64_t read(std::size_t width, std::string_view field) {
    need(width, field);
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < width; ++i)
      v |= std::uint64_t{std::to_integer<std::uint8_t>(m_bytes[m_pos + i])} << (8 * i);
    m_pos += width;
    return v;
  }
  [[nodiscard]] std::uint32_t u32(std::string_view field) {
    return static_cast<std::uint32_t>(read(4, field));
  }
  [[nodiscard]] std::span<const std::byte> take(std::size_t n, std::string_view field) {
    need(n, field);
    const auto out = m_bytes.subspan(m_pos, n);
    m_pos += n;
    return out;
  }
  [[nodiscard]] std::size_t pos() const noexcept { return m_pos; }
  [[nodiscard]] std::size_t size() const noexcept { return m_bytes.size(); }

 private:
  std::span<const std::byte> m_bytes;
  std::string_view m_name;
  std::size_t m_pos = 0;
};

}  // namespace

steal_tree_file_error::steal_tree_file_error(std::string file, std::uint64_t offset,
                                             const std::string& what)
    : std::runtime_error("steal tree file '" + file + "', offset " + std::to_string(offset) + ": " +
                         what),
      m_file(std::move(file)),
      m_offset(offset) {}

std::uint64_t checksum(std::span<const std::byte> bytes) noexcept {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const std::byte b : bytes) {
    h ^= std::to_integer<std::uint8_t>(b);
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::vector<std::byte> serialize(const steal_tree& tree) {
  if (tree.topology().size() > k_max_topology) {
    throw std::invalid_argument("steal tree: the topology description is longer than " +
                                std::to_string(k_max_topology) + " bytes");
  }
  if (tree.size() > k_max_nodes) {
    throw std::invalid_argument("steal tree: more than " + std::to_string(k_max_nodes) +
                                " nodes do not fit the file format");
  }
  std::vector<std::byte> out;
  out.reserve(28 + tree.topology().size() + tree.size() * k_node_bytes + k_checksum_bytes);
  for (const char c : k_magic)
    out.push_back(static_cast<std::byte>(c));
  put_u32(out, k_steal_tree_format_version);
  put_u32(out, tree.worker_count());
  put_u32(out, static_cast<std::uint32_t>(tree.topology().size()));
  for (const char c : tree.topology())
    out.push_back(static_cast<std::byte>(c));
  put_u32(out, static_cast<std::uint32_t>(tree.size()));
  for (const steal_node& n : tree.nodes()) {
    put_u32(out, n.level);
    put_u32(out, n.spawn_index);
    put_u32(out, n.worker);
    put_u32(out, n.seq);
    put_u32(out, n.parent == k_no_node ? k_no_parent : n.parent);
    out.push_back(static_cast<std::byte>(n.kind));
  }
  put_u64(out, checksum(out));
  return out;
}

/// Builds the tree from a checked file; a friend of steal_tree for its private constructor.
class steal_tree_reader {
 public:
  static steal_tree read(std::span<const std::byte> bytes, std::string_view name,
                         const load_options& options);
};

steal_tree steal_tree_reader::read(std::span<const std::byte> bytes, std::string_view name,
                                   const load_options& options) {
  cursor in(bytes, name);
  const auto magic = in.take(k_magic.size(), "magic");
  if (std::memcmp(magic.data(), k_magic.data(), k_magic.size()) != 0)
    in.fail(0, "not a steal tree file (bad magic; expected \"LOCUSST\\x1a\")");
  if (const std::uint32_t v = in.u32("version"); v != k_steal_tree_format_version) {
    in.fail(8, "format version " + std::to_string(v) + " is not supported; expected " +
                   std::to_string(k_steal_tree_format_version));
  }
  const std::uint32_t workers = in.u32("worker count");
  if (workers < 1 || workers > k_max_workers) {
    in.fail(12, "worker count " + std::to_string(workers) + " is not in [1, " +
                    std::to_string(k_max_workers) + "]");
  }
  const std::uint32_t topology_length = in.u32("topology length");
  if (topology_length > k_max_topology) {
    in.fail(16, "topology length " + std::to_string(topology_length) + " is above " +
                    std::to_string(k_max_topology));
  }
  const auto topology = in.take(topology_length, "topology description");
  const std::size_t count_at = in.pos();
  const std::uint32_t count = in.u32("node count");
  // 64-bit arithmetic: a count near 2^32 cannot wrap the expected size.
  const std::uint64_t expected =
      std::uint64_t{in.pos()} + std::uint64_t{count} * k_node_bytes + k_checksum_bytes;
  if (count < 1 || count > k_max_nodes) {
    in.fail(count_at, "node count " + std::to_string(count) + " is not in [1, " +
                          std::to_string(k_max_nodes) + "]");
  }
  if (expected != in.size()) {
    in.fail(count_at, "node count " + std::to_string(count) + " needs a file of " +
                          std::to_string(expected) + " bytes, but it has " +
                          std::to_string(in.size()) + (expected > in.size() ? " (truncated)" : ""));
  }
  const std::uint64_t stored = [&] {
    cursor tail(bytes.subspan(bytes.size() - k_checksum_bytes), name);
    return tail.read(k_checksum_bytes, "checksum");
  }();
  if (stored != checksum(bytes.first(bytes.size() - k_checksum_bytes)))
    in.fail(bytes.size() - k_checksum_bytes, "checksum mismatch (the file is corrupt)");

  steal_tree tree;
  tree.m_workers = workers;
  tree.m_topology.assign(reinterpret_cast<const char*>(topology.data()), topology.size());
  tree.m_nodes.reserve(count);
  tree.m_last_child.reserve(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::size_t at = in.pos();
    steal_node n;
    n.level = in.u32("node level");
    n.spawn_index = in.u32("node spawn index");
    n.worker = in.u32("node worker");
    n.seq = in.u32("node seq");
    const std::uint32_t parent = in.u32("node parent");
    const auto kind = static_cast<std::uint8_t>(in.read(1, "node kind"));
    const std::string which = "node " + std::to_string(i);
    if (kind > static_cast<std::uint8_t>(steal_kind::child))
      in.fail(at + 20, which + ": kind " + std::to_string(kind) + " is not 0, 1 or 2");
    n.kind = static_cast<steal_kind>(kind);
    if (n.worker >= workers) {
      in.fail(at + 8, which + ": worker " + std::to_string(n.worker) +
                          " is not below the worker count " + std::to_string(workers));
    }
    if (i == 0 ? parent != k_no_parent : parent >= i) {
      in.fail(at + 16, which + ": parent " + std::to_string(parent) + " is not " +
                           (i == 0 ? "0xffffffff (the root has none)"
                                   : "an earlier node (0 to " + std::to_string(i - 1) + ")"));
    }
    if (i == 0) {
      tree.m_nodes.push_back(n);
      tree.m_last_child.push_back(k_no_node);
    } else {
      (void)tree.add_steal(parent, n.level, n.spawn_index, n.worker, n.seq, n.kind);
    }
  }
  try {
    tree.validate();
  } catch (const steal_tree_error& e) {
    in.fail(count_at + 4 + std::uint64_t{e.node()} * k_node_bytes, e.what());
  }
  if (options.workers != 0 && options.workers != workers) {
    if (options.on_mismatch == worker_mismatch::refuse) {
      in.fail(12, "it was recorded with " + std::to_string(workers) + " workers, not " +
                      std::to_string(options.workers) +
                      " (load with worker_mismatch::remap to run worker w on w mod " +
                      std::to_string(options.workers) + ")");
    }
    tree.remap_workers(options.workers);
  }
  return tree;
}

steal_tree deserialize(std::span<const std::byte> bytes, std::string_view name,
                       const load_options& options) {
  return steal_tree_reader::read(bytes, name, options);
}

void save(const steal_tree& tree, const std::filesystem::path& path) {
  const std::vector<std::byte> bytes = serialize(tree);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) throw steal_tree_file_error(path.string(), 0, "cannot be written");
}

steal_tree load(const std::filesystem::path& path, const load_options& options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw steal_tree_file_error(path.string(), 0, "cannot be opened");
  // The largest valid file; anything longer is refused before it is read into memory.
  constexpr std::uint64_t k_max_file =
      28 + k_max_topology + std::uint64_t{k_max_nodes} * k_node_bytes + k_checksum_bytes;
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size < 0) throw steal_tree_file_error(path.string(), 0, "its size cannot be read");
  if (static_cast<std::uint64_t>(size) > k_max_file) {
    throw steal_tree_file_error(path.string(), k_max_file,
                                "it is " + std::to_string(size) + " bytes, above the largest " +
                                    "valid steal tree file (" + std::to_string(k_max_file) + ")");
  }
  in.seekg(0, std::ios::beg);
  std::vector<std::byte> bytes(static_cast<std::size_t>(size));
  in.read(reinterpret_cast<char*>(bytes.data()), size);
  if (in.gcount() != size) throw steal_tree_file_error(path.string(), 0, "cannot be read");
  return deserialize(bytes, path.string(), options);
}

}  // namespace locus::schedule
