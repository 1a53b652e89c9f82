// Where data lives, as the locality accounting sees it: memory placed on socket 1 of a virtual
// 2-socket machine, read by a task on each socket.
#include <locus/locus.hpp>

#include <cstdio>

/// A leaf task: it touched the range it was declared with.
locus::task<void> reader() {
  co_return;
}

locus::task<void> read_from_both_sockets(const char* data, std::size_t bytes) {
  const auto range = locus::data_range::of(data, bytes, locus::access::read);
  co_await locus::spawn(locus::with_data(reader(), range), locus::at(0));  // socket 0: remote
  co_await locus::spawn(locus::with_data(reader(), range), locus::at(1));  // socket 1: local
  co_await locus::sync();
}

int main() {
  locus::config cfg;
  cfg.workers = 2;
  cfg.topology = "sockets=2,cores=1";  // worker w on socket w; one place per socket
  cfg.accounting = true;
  locus::runtime rt{cfg};

  const std::size_t bytes = 1 << 20;
  auto* data = static_cast<char*>(locus::allocate(rt, bytes, locus::placement::on_socket(1)));
  rt.run(read_from_both_sockets(data, bytes));
  locus::deallocate(rt, data, bytes);  // its homes are forgotten with it

  const locus::locality_stats s = rt.locality();
  std::printf("%s\n", s.summary().c_str());
  const bool right = s.per_worker[0].remote == bytes && s.per_worker[1].same_socket == bytes;
  return right ? 0 : 1;
}
