// scan, locus: the two-pass blocked scan with one parallel_for over blocks per parallel pass.
#include <locus/locus.hpp>

#include "../../kernel.hpp"
#include "common.hpp"

namespace {

locus::task<void> scan(scan_kernel::passes p) {
  const std::size_t nb = p.count();
  co_await locus::parallel_for(std::size_t{0}, nb, std::size_t{1},
                               [p](std::size_t b) { p.sum(b); });
  p.offsets();
  co_await locus::parallel_for(std::size_t{0}, nb, std::size_t{1},
                               [p](std::size_t b) { p.scan(b); });
}

}  // namespace

bench::outcome scan_locus(const bench::args& a) {
  const auto body = [&a](scan_kernel::instance& in) { a.rt->run(scan(in.pointers())); };
  return bench::measure(a.size, scan_kernel::setup, body, scan_kernel::check);
}
