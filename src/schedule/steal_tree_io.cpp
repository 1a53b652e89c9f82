// steal_tree_io.cpp — the steal tree file (format in steal_tree_io.hpp). The reader trusts
// nothing: every count is checked against the bytes that are there before anything is
// allocated, and every index against what precedes it.
#include "locus/schedule/steal_tree_io.hpp"

#include <locus/config.hpp>

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

 private:
  struct header {
    std::uint32_t workers = 0;
    std::string topology;
    std::size_t count_at = 0;  ///< offset of the node count; the nodes follow it
    std::uint32_t count = 0;
  };
  static header read_header(cursor& in, std::span<const std::byte> bytes);
  static void read_nodes(cursor& in, const header& h, steal_tree& tree);
};

namespace {

/// "WHAT="VALUE" is not valid; expected EXPECTED", the format of make_config_error, for a field.
[[noreturn]] void bad_field(const cursor& in, std::uint64_t offset, std::string_view what,
                            std::uint64_t value, const std::string& expected,
                            std::string_view reason = {}) {
  in.fail(offset, locus::make_config_error(what, std::to_string(value), expected, reason).what());
}

[[nodiscard]] std::string range(std::uint64_t lo, std::uint64_t hi) {
  return std::to_string(lo) + " to " + std::to_string(hi);
}

}  // namespace

steal_tree_reader::header steal_tree_reader::read_header(cursor& in,
                                                         std::span<const std::byte> bytes) {
  const auto magic = in.take(k_magic.size(), "magic");
  if (std::memcmp(magic.data(), k_magic.data(), k_magic.size()) != 0) {
    const std::string_view seen(reinterpret_cast<const char*>(magic.data()), magic.size());
    in.fail(0, locus::make_config_error("magic", seen, "\"LOCUSST\\x1a\"",
                                        "not a locus steal tree file")
                   .what());
  }
  if (const std::uint32_t v = in.u32("version"); v != k_steal_tree_format_version)
    bad_field(in, 8, "version", v, std::to_string(k_steal_tree_format_version), "unsupported");
  header h;
  h.workers = in.u32("worker count");
  if (h.workers < 1 || h.workers > k_max_workers)
    bad_field(in, 12, "worker count", h.workers, range(1, k_max_workers));
  const std::uint32_t topology_length = in.u32("topology length");
  if (topology_length > k_max_topology)
    bad_field(in, 16, "topology length", topology_length, range(0, k_max_topology));
  const auto topology = in.take(topology_length, "topology description");
  h.topology.assign(reinterpret_cast<const char*>(topology.data()), topology.size());
  h.count_at = in.pos();
  h.count = in.u32("node count");
  if (h.count < 1 || h.count > k_max_nodes)
    bad_field(in, h.count_at, "node count", h.count, range(1, k_max_nodes));
  // 64-bit arithmetic: a count near 2^32 cannot wrap the expected size.
  const std::uint64_t needed =
      std::uint64_t{in.pos()} + std::uint64_t{h.count} * k_node_bytes + k_checksum_bytes;
  if (needed != in.size()) {
    bad_field(in, h.count_at, "node count", h.count,
              "the count that fills this file of " + std::to_string(in.size()) + " bytes",
              "it needs " + std::to_string(needed) + " bytes" +
                  (needed > in.size() ? ": the file is truncated" : ""));
  }
  cursor tail(bytes.subspan(bytes.size() - k_checksum_bytes), "checksum");
  const std::uint64_t stored = tail.read(k_checksum_bytes, "checksum");
  const std::uint64_t computed = checksum(bytes.first(bytes.size() - k_checksum_bytes));
  if (stored != computed) {
    bad_field(in, bytes.size() - k_checksum_bytes, "checksum", stored, std::to_string(computed),
              "checksum mismatch: the file is corrupt");
  }
  return h;
}

void steal_tree_reader::read_nodes(cursor& in, const header& h, steal_tree& tree) {
  tree.m_nodes.reserve(h.count);
  tree.m_last_child.reserve(h.count);
  for (std::uint32_t i = 0; i < h.count; ++i) {
    const std::size_t at = in.pos();
    const std::string which = "node " + std::to_string(i);
    steal_node n;
    n.level = in.u32("node level");
    n.spawn_index = in.u32("node spawn index");
    n.worker = in.u32("node worker");
    n.seq = in.u32("node seq");
    const std::uint32_t parent = in.u32("node parent");
    const auto kind = static_cast<std::uint8_t>(in.read(1, "node kind"));
    if (kind > static_cast<std::uint8_t>(steal_kind::child))
      bad_field(in, at + 20, which + " kind", kind, "0 (root), 1 (continuation) or 2 (child)");
    n.kind = static_cast<steal_kind>(kind);
    if (n.worker >= h.workers) {
      bad_field(in, at + 8, which + " worker", n.worker, range(0, h.workers - 1),
                "the file's worker count is " + std::to_string(h.workers));
    }
    if (i == 0 && parent != k_no_parent)
      bad_field(in, at + 16, which + " parent", parent, "4294967295 (none: node 0 is the root)");
    if (i != 0 && parent >= i) {
      bad_field(in, at + 16, which + " parent", parent, "an earlier node, " + range(0, i - 1),
                "parents precede their children");
    }
    if (i == 0) {
      tree.m_nodes.push_back(n);
      tree.m_last_child.push_back(k_no_node);
    } else {
      (void)tree.add_steal(parent, n.level, n.spawn_index, n.worker, n.seq, n.kind);
    }
  }
}

steal_tree steal_tree_reader::read(std::span<const std::byte> bytes, std::string_view name,
                                   const load_options& options) {
  cursor in(bytes, name);
  const header h = read_header(in, bytes);
  steal_tree tree;
  tree.m_workers = h.workers;
  tree.m_topology = h.topology;
  read_nodes(in, h, tree);
  try {
    tree.validate(options.validity);
  } catch (const steal_tree_error& e) {
    in.fail(h.count_at + 4 + std::uint64_t{e.node()} * k_node_bytes, e.what());
  }
  if (options.workers != 0 && options.workers != h.workers) {
    if (options.on_mismatch == worker_mismatch::refuse) {
      bad_field(in, 12, "worker count", h.workers,
                std::to_string(options.workers) + ", the count asked for",
                "load with worker_mismatch::remap to run worker w on w mod " +
                    std::to_string(options.workers));
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
