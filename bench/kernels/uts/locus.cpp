// uts, locus: the traversal of locus_visit.hpp, timed and verified.
#include <locus/locus.hpp>

#include "../../kernel.hpp"
#include "common.hpp"
#include "locus_visit.hpp"

bench::outcome uts_locus(const bench::args& a) {
  const auto body = [&a](const uts_kernel::tree_spec& t) {
    uts_kernel::tally r;
    a.rt->run(uts_kernel::visit_locus(&t, uts_kernel::root(t), &r));
    return r;
  };
  return bench::measure(a.size, uts_kernel::parse, body, uts_kernel::check);
}
